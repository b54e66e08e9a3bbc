"""The field table of the rules: every switch's name, kind, bounds and default (`FIELDS`), and
the values its enumerations take.

The table is read from the switch records (engine/switches/: one record per switch, in wire
order), so a field's bounds are the same for a rules file, the wire, the CLI and the page. Its
names are a contract (rules files, records, the genesis): the fields of `docs/rules.md`, in wire
order. A field the engine does not play yet has only its default among its values (`playable` is
false); a later version adds values, never renames. `Rules` (engine/rules.py) is the typed form a
game is played from; the check (engine/rules_check/) reads drafts through this table.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from p2p_dominoes.engine.field_spec import REQUIRED, FieldSpec, Kind
from p2p_dominoes.engine.rule_enums import (
    DOUBLE_RULES,
    BlockScoring,
    Doubles,
    Drawing,
    EndsAward,
    Fallback,
    FirstOpener,
    Goal,
    HandScoring,
    Layout,
    MoveScoring,
    NextOpener,
    Opener,
    TargetCheck,
    Teams,
)
from p2p_dominoes.engine.switches import SWITCHES
from p2p_dominoes.engine.switches.first_version import FIRST_VERSION

FIELDS: Final[tuple[FieldSpec, ...]] = tuple(s.spec for s in SWITCHES)
"""Every field, in wire order."""
FIELD: Final[Mapping[str, FieldSpec]] = {spec.name: spec for spec in FIELDS}
FIRST_VERSION_FIELDS: Final = len(FIRST_VERSION)
"""The first version's rules had the first 11 fields; a missing later field means its default."""

__all__ = [
    "DOUBLE_RULES",
    "FIELD",
    "FIELDS",
    "FIRST_VERSION_FIELDS",
    "REQUIRED",
    "BlockScoring",
    "Doubles",
    "Drawing",
    "EndsAward",
    "Fallback",
    "FieldSpec",
    "FirstOpener",
    "Goal",
    "HandScoring",
    "Kind",
    "Layout",
    "MoveScoring",
    "NextOpener",
    "Opener",
    "TargetCheck",
    "Teams",
]
