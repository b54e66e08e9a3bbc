"""`p2p-dominoes simulate`."""

from __future__ import annotations

from typing import Any


def register(commands: Any) -> None:
    commands.add_parser("simulate", help="(being built)")
