"""Every house-rule switch, declared once as a record (`Switch`, record.py), in wire order: the
first version's eleven (first_version.py), then the later ones (later.py; a new switch is
appended there). The field table, the words of `rules show` and the rules page, the editor's
controls and the docs' tables are read or generated from these records.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from p2p_dominoes.engine.switches.first_version import FIRST_VERSION
from p2p_dominoes.engine.switches.later import LATER
from p2p_dominoes.engine.switches.record import LAST, Edit, Page, Switch

SWITCHES: Final[tuple[Switch, ...]] = FIRST_VERSION + LATER
"""Every switch, in wire order."""
SWITCH: Final[Mapping[str, Switch]] = {s.name: s for s in SWITCHES}
if len(SWITCH) != len(SWITCHES):
    raise ValueError("two switch records share a name")

__all__ = ["LAST", "SWITCH", "SWITCHES", "Edit", "Page", "Switch"]
