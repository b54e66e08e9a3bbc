"""Legality helpers shared by the full hand state and the public (hidden-tiles) hand state."""

from __future__ import annotations

from p2p_dominoes.engine.actions import LEADS, PLAYS_ON, Play
from p2p_dominoes.engine.line import Line
from p2p_dominoes.engine.rules import Drawing, Rules
from p2p_dominoes.engine.tiles import VALUE_MASK, Tile, tiles_in


def playable_mask(hand: int, line: Line, pending: Tile | None, must_lead: Tile | None) -> int:
    """Bits of the tiles in `hand` that may be played now."""
    if pending is not None:
        return pending.bit & hand
    if must_lead is not None:
        return must_lead.bit & hand
    return hand & line.fit_mask if line.tiles else hand


def plays_for(line: Line, playable: int) -> list[Play]:
    """Every (tile, open place) for the tiles in `playable`; each place once."""
    if not line.tiles:
        return [LEADS[tile.index] for tile in tiles_in(playable)]
    plays = []
    places = line.places
    if len(line.tiles) == 1 and line.tiles[0].is_double:
        # An untouched opening double offers one place: its sides A and B are the same place.
        places = places[:1]
    for place in places:
        row = PLAYS_ON[place.id]
        fitting = playable & VALUE_MASK[place.value]
        while fitting:
            bit = fitting & -fitting
            plays.append(row[bit])
            fitting ^= bit
    return plays


def may_draw(rules: Rules, boneyard_size: int, pending: Tile | None, playable: int) -> bool:
    """Drawing is allowed for a seat whose playable tiles are `playable`."""
    drawing = rules.drawing
    if drawing is Drawing.NEVER or pending is not None or boneyard_size <= rules.reserve:
        return False
    return drawing is Drawing.ANY_TIME or not playable


def why_no_draw(rules: Rules, boneyard_size: int, pending: Tile | None, playable: int) -> str:
    """The rule that forbids drawing now (call only when `may_draw` is false)."""
    reserve = rules.reserve
    if rules.drawing is Drawing.NEVER:
        return "these rules have no drawing"
    if pending is not None:
        return f"the drawn tile {pending.text} fits and must be played at once"
    if boneyard_size <= reserve:
        if reserve:
            return (
                f"the boneyard holds {boneyard_size} tiles, and the last {reserve} are never drawn"
            )
        return "the boneyard is empty"
    tile = next(tiles_in(playable))
    return f"drawing is allowed only with no playable tile, and {tile.text} fits"
