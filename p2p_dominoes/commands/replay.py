"""`p2p-dominoes replay`."""

from __future__ import annotations

from typing import Any


def register(commands: Any) -> None:
    commands.add_parser("replay", help="(being built)")
