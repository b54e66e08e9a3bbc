"""The create-table form's number fields hold the bounds of their switches' records: what the
page lets a player type is what the server, a rules file, the wire and the CLI accept."""

from __future__ import annotations

import re
from pathlib import Path

from p2p_dominoes.engine import FIELD

PAGE = Path(__file__).resolve().parents[2] / "p2p_dominoes" / "ui" / "web" / "static" / "index.html"


def test_the_stall_field_takes_the_stall_timeouts_bounds() -> None:
    field = re.search(r'<input id="create-stall"[^>]*>', PAGE.read_text("utf-8"))
    assert field is not None
    low = re.search(r'min="(\d+)"', field.group(0))
    high = re.search(r'max="(\d+)"', field.group(0))
    assert low is not None and high is not None
    assert (int(low.group(1)), int(high.group(1))) == FIELD["stall_timeout_s"].bounds
