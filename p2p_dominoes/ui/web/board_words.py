"""The page's words where the terminal's are a record's (issue 28 L5). The board for "Describe
the board" and the text under the table: the tiles from end to end and what each open end
needs, each arm or train by the name its place's button carries ("end A", "Bob's train"), never
"high end" or "side A" (`engine.describe` keeps those for the audit and the terminal). The log:
a hand's start as dealing, not "keys committed and revealed"; the table's end as its signed
record, not its "final transcript hash"."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from p2p_dominoes.engine import Board, Line, Play
from p2p_dominoes.net.said import said
from p2p_dominoes.session.events import ActionTaken, Event, HandStarted
from p2p_dominoes.ui.board_shape import chain, shape_json
from p2p_dominoes.ui.narration import narrate
from p2p_dominoes.words import template

_KEYS: Final = (
    "board_words.empty",
    "board_words.line",
    "board_words.ends",
    "board_words.closed_end",
    "board_words.centre",
    "board_words.engine",
    "board_words.arm",
    "board_words.needs",
    "board_words.closed",
    "board_words.waiting",
    "board_words.nothing",
    "board_words.ray",
    "board_words.mine",
    "board_words.of",
    "board_words.common",
    "board_words.open",
    "board_words.total",
    "board_words.hand",
    "board_words.record",
    "board_words.plays_on",
    "board_words.along",
)
"""The catalogue's lines this module says (p2p_dominoes/words/*.po)."""


def _w(lang: str) -> dict[str, str]:
    return {key.removeprefix("board_words."): template(key, lang) for key in _KEYS}


def _tiles(tiles: Sequence[dict[str, Any]], near: str, far: str) -> str:
    return " ".join(f"[{t[near]}|{t[far]}]" for t in tiles)


def board_words(
    line: Line, names: Sequence[str], seat: int | None, lang: str, end_total: int | None = None
) -> str:
    """The whole board in plain sentences, in `lang` (names are the seats' shown names)."""
    w = _w(lang)
    if not line.tiles:
        return w["empty"]
    if isinstance(line, Board) and (line.trains or line.centre is not None):
        text = _shape_words(line, names, seat, w)
    else:
        tiles, ends = chain(line)
        closed = set(line.closed)
        need = {
            end: w["closed_end"] if place is None or place in closed else str(place.value)
            for end, place in ends.items()
        }
        text = " ".join(
            [
                w["line"].format(tiles=_tiles(tiles, "left", "right")),
                w["ends"].format(left=need["left"], right=need["right"]),
            ]
        )
    if end_total is not None:
        text += " " + w["total"].format(total=end_total)
    return text


def _shape_words(board: Board, names: Sequence[str], seat: int | None, w: dict[str, str]) -> str:
    shape = shape_json(board)
    root = shape["root"]
    tile = f"[{root['low']}|{root['high']}]"
    parts = [w["engine" if board.trains else "centre"].format(tile=tile)]
    for ray in shape["rays"]:
        name = ray["ray"]
        if board.trains:
            owner = ray.get("owner")
            label = (
                w["common"]
                if owner is None
                else w["mine"]
                if owner == seat
                else w["of"].format(name=names[owner] if owner < len(names) else owner + 1)
            )
            if ray.get("state") == "open" and owner is not None:
                label += f" ({w['open']})"
        else:
            label = w["ray"].format(ray=name)
        tiles = _tiles(ray["tiles"], "near", "far") or w["nothing"]
        if ray["closed"]:
            state = w["closed"]
        elif ray["open"] is not None:
            state = w["needs"].format(value=ray["open"]["value"])
        else:
            state = w["waiting"]
        name = label[:1].upper() + label[1:]
        parts.append(w["arm"].format(name=name, tiles=f"{tiles}, {state}") + ".")
    return " ".join(parts)


def page_lines(event: Event, names: Sequence[str], lang: str, seat: int | None) -> list[str]:
    """The log's lines for `event` on the page: the narration's, with a hand's start and a
    tile laid on a place in plain words ("Ann plays [0|4] on the 4", not "(low end)")."""
    w = _w(lang)
    if isinstance(event, HandStarted):
        return [w["hand"].format(n=event.number)]
    if isinstance(event, ActionTaken) and isinstance(event.action, Play):
        play = event.action
        if play.place is not None:
            who = names[event.seat] if event.seat < len(names) else str(event.seat + 1)
            along = w["along"] if play.along else ""
            return [
                w["plays_on"].format(
                    who=who, tile=play.tile.text, along=along, value=play.place.value
                )
            ]
    return narrate(event, names, lang, me=seat)


def page_said(line: str, lang: str) -> str:
    """A line the peer says, as the page shows it: the final hash becomes the signed record."""
    for code in ("en", "ru"):
        prefix = said("final_hash", code, hash="")
        if line.startswith(prefix):
            return _w(lang)["record"]
    return line
