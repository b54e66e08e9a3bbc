"""The board as one compact line of tiles for the terminal: a line game end to end, each tile
turned so that touching halves meet (`[6|6][6|3][3|1]`); a cross or a telephone as its centre
and each arm from it outwards; trains as the engine and each train. The screen-reader sentence
(`engine.describe`) stays one key away in the terminal's menu."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from p2p_dominoes.engine import Board, Line, Place, side_name
from p2p_dominoes.engine.board import COMMON
from p2p_dominoes.engine.line import TRAIN_PORTS
from p2p_dominoes.ui.board_shape import chain, shape_json
from p2p_dominoes.words import line

CLOSED_MARK: Final = "×"
"""Marks an end of a line that is closed for good (the donkey rule)."""


def _tiles(tiles: Sequence[dict[str, Any]], near: str, far: str) -> str:
    return "".join(f"[{t[near]}|{t[far]}]" for t in tiles)


def compact_board(line: Line, lang: str = "en") -> str:
    """The tiles on the table in one line: `[1|1][1|4][4|4][4|3]` for a line (left to right);
    `[3|3] A: [3|5][5|1] · B: [3|2] · C: — · D: not open yet` for a cross or a telephone;
    `[6|6] train of seat 1: [6|4] · train of seat 2 (open to all): — · common train: —` for
    trains. An end closed for good is marked `×`."""
    if not line.tiles:
        return ""
    if isinstance(line, Board) and (line.trains or line.centre is not None):
        return _shape(line, lang)
    tiles, ends = chain(line)
    text = _tiles(tiles, "left", "right")
    closed = set(line.closed)
    if _is_closed(ends["left"], closed):
        text = f"{CLOSED_MARK}{text}"
    if _is_closed(ends["right"], closed):
        text = f"{text}{CLOSED_MARK}"
    return text


def _is_closed(place: Place | None, closed: set[Place]) -> bool:
    return place is not None and place in closed


def _shape(board: Board, lang: str) -> str:
    """A cross, a telephone or trains: the root, then each arm or train from it outwards."""
    shape = shape_json(board)
    root = shape["root"]
    parts = []
    for ray in shape["rays"]:
        name = ray["ray"]
        if board.trains:
            key = COMMON if name == "TC" else int(name[1:])
            if key == COMMON:
                label = line("board.common", lang)
            else:
                label = side_name(TRAIN_PORTS[int(key)], lang)
            if ray.get("state") == "open":
                label += " (" + line("board.open", lang) + ")"
        else:
            label = name  # the arm's letter, as the board sentence names it ("side A", "end C")
        tiles = _tiles(ray["tiles"], "near", "far")
        if ray["closed"]:
            closed = line("board.closed", lang)
            tiles = f"{tiles} {closed}" if tiles else closed
        elif ray["waiting"] and not tiles:
            tiles = line("board.waiting", lang)
        parts.append(f"{label}: {tiles or line('board.empty', lang)}")
    return f"[{root['low']}|{root['high']}] " + " · ".join(parts)


def closed_text(line: Line, lang: str = "en") -> str:
    """The places closed for good, as the board sentence names them ("" when none)."""
    return "; ".join(
        f"{p.tile.text} ({side_name(p.side, lang)}, {p.value})"
        for p in sorted(line.closed, key=Place.sort_key)
    )
