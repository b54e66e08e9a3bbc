"""The board described in words (English and Russian), for accessible text and records."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from p2p_dominoes.engine.actions import Action, Draw, Play
from p2p_dominoes.engine.errors import InvalidRecord
from p2p_dominoes.engine.line import Line, Side
from p2p_dominoes.engine.scoring import HandEnd, HandResult, MatchOutcome
from p2p_dominoes.engine.tiles import Tile


@dataclass(frozen=True)
class _Wording:
    tiles: str
    connections: str
    places: str
    none: str
    sides: dict[Side, str]


_WORDINGS: Final[dict[str, _Wording]] = {
    "en": _Wording(
        tiles="Tiles",
        connections="Connections",
        places="Open places",
        none="none",
        sides={Side.HIGH: "high end", Side.LOW: "low end", Side.A: "side A", Side.B: "side B"},
    ),
    "ru": _Wording(
        tiles="Кости",
        connections="Соединения",
        places="Допустимые места продолжения",
        none="нет",
        sides={
            Side.HIGH: "конец с большим значением",
            Side.LOW: "конец с меньшим значением",
            Side.A: "линия A",
            Side.B: "линия B",
        },
    ),
}

LANGUAGES: Final = tuple(_WORDINGS)


def side_name(side: Side, lang: str = "en") -> str:
    """The words for an end or side: "low end", "side A", "конец с меньшим значением" …"""
    return _wording(lang).sides[side]


def describe(line: Line, lang: str = "en") -> str:
    """Tiles in play order, connections in the order made, open places sorted by tile."""
    w = _wording(lang)
    tiles = ", ".join(t.text for t in line.tiles) or w.none
    connections = (
        "; ".join(
            f"{c.table_tile.text} ({w.sides[c.table_side]}) – "
            f"{c.new_tile.text} ({w.sides[c.new_side]})"
            for c in line.connections
        )
        or w.none
    )
    places = (
        "; ".join(f"{p.tile.text} ({w.sides[p.side]}, {p.value})" for p in line.sorted_places())
        or w.none
    )
    return f"{w.tiles}: {tiles}. {w.connections}: {connections}. {w.places}: {places}."


def _wording(lang: str) -> _Wording:
    try:
        return _WORDINGS[lang]
    except KeyError:
        raise InvalidRecord(f"unknown language {lang!r} (languages: en, ru)") from None


def action_text(seat: int, action: Action, drawn: Tile | None = None, lang: str = "en") -> str:
    """One action in words; `drawn` shows the drawn tile (only to those allowed to see it)."""
    ru = _wording(lang) is _WORDINGS["ru"]
    who = f"место {seat}" if ru else f"seat {seat}"
    if isinstance(action, Play):
        verb = "кладёт" if ru else "plays"
        if action.place is None:
            return f"{who} {verb} {action.tile.text}"
        on = "к" if ru else "on"
        place = action.place
        where = f"{place.tile.text} ({side_name(place.side, lang)})"
        return f"{who} {verb} {action.tile.text} {on} {where}"
    if isinstance(action, Draw):
        verb = "берёт из базара" if ru else "draws"
        return f"{who} {verb}" + (f" {drawn.text}" if drawn is not None else "")
    return f"{who} " + ("пропускает ход" if ru else "passes")


def result_text(result: HandResult, lang: str = "en") -> str:
    """How a hand ended and the arithmetic of its points."""
    ru = _wording(lang) is _WORDINGS["ru"]
    if result.end is HandEnd.UNFINISHED:
        return "Сдача не окончена." if ru else "The hand is unfinished."
    if result.end is HandEnd.DOMINO:
        assert result.winner is not None
        if ru:
            return f"Место {result.winner} выложило все кости: {result.arithmetic()}."
        return f"Domino by seat {result.winner}: {result.arithmetic()}."
    if result.winner is None:
        if ru:
            return "Блокировка: наименьшая сумма разделена, никто не получает очков."
        return "Block: the lowest total is shared, nobody scores."
    if ru:
        return (
            f"Блокировка: у места {result.winner} единственная наименьшая сумма, "
            f"{result.arithmetic()}."
        )
    return f"Block: seat {result.winner} has the single lowest total, {result.arithmetic()}."


def match_text(outcome: MatchOutcome, scores: Sequence[int], lang: str = "en") -> str:
    """The state of the match after a hand."""
    ru = _wording(lang) is _WORDINGS["ru"]
    listed = ", ".join(map(str, scores))
    if not outcome.over:
        return f"Счёт: {listed}." if ru else f"Scores: {listed}."
    if outcome.winner is None:
        return f"Матч окончен вничью: {listed}." if ru else f"The match is drawn: {listed}."
    if ru:
        return f"Место {outcome.winner} выигрывает матч: {listed}."
    return f"Seat {outcome.winner} wins the match: {listed}."
