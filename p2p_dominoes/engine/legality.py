"""Legality helpers shared by the full hand state and the public (hidden-tiles) hand state."""

from __future__ import annotations

from p2p_dominoes.engine.actions import ALONG_LEADS, ALONG_PLAYS_ON, LEADS, PLAYS_AT, Play
from p2p_dominoes.engine.board import Board
from p2p_dominoes.engine.line import Line, Place
from p2p_dominoes.engine.tiles import DOUBLES_MASK, Tile, tiles_in
from p2p_dominoes.engine.turns import TurnMachine
from p2p_dominoes.words import phrase


def playable_mask(hand: int, line: Line, pending: Tile | None, must_lead: Tile | None) -> int:
    """Bits of the tiles in `hand` that may be played now."""
    if pending is not None:
        return pending.bit & hand
    if must_lead is not None:
        return must_lead.bit & hand
    return hand & line.fit_mask if line.tiles else hand & line.lead_mask


def plays_for(line: Line, playable: int) -> list[Play]:
    """Every (tile, open place) for the tiles in `playable`; each place once."""
    tiles = line.tiles
    if not tiles:
        return [LEADS[tile.index] for tile in tiles_in(playable)]
    plays: list[Play] = []
    places = line.places
    if len(tiles) == 1 and tiles[0].is_double:
        # An untouched opening double offers one place: its sides A and B are the same place.
        places = places[:1]
    for place in places:
        _add_plays(plays, place, playable & place.fits)
    return plays


def _add_plays(plays: list[Play], place: Place, fitting: int) -> None:
    """Append the plays of the tiles in `fitting` (each fits) on `place`, in tile order."""
    row = PLAYS_AT[place.id]
    while fitting:
        low = fitting & -fitting
        fitting ^= low
        plays.append(row[low.bit_length() - 1])


def board_plays(board: Board, playable: int) -> list[Play]:
    """`plays_for` on a cross, a telephone or trains: the seat to move's places, each
    symmetric place once."""
    tiles = board.tiles
    if not tiles:
        return [LEADS[tile.index] for tile in tiles_in(playable & board.lead_mask)]
    plays: list[Play] = []
    for place in board.play_places():
        _add_plays(plays, place, playable & place.fits)
    return plays


def any_plays(line: Line, playable: int) -> list[Play]:
    """`plays_for` or `board_plays`, whichever the table is (not the line's hot path)."""
    if isinstance(line, Board):
        return board_plays(line, playable)
    return plays_for(line, playable)


def may_draw(turns: TurnMachine, pending: Tile | None, playable: int) -> bool:
    """Drawing is allowed for the seat to move, whose playable tiles are `playable`."""
    plan = turns.plan
    if (
        pending is not None
        or turns.end is not None
        or turns.second_double
        or not plan.draws
        or turns.boneyard_size <= plan.reserve  # `drawable`, for a hot path
    ):
        return False
    if turns.forced_due:
        return True
    limit = plan.draw_limit
    if limit and turns.drawn_this_turn >= limit:
        return False
    return plan.any_time or not playable


def why_no_draw(turns: TurnMachine, pending: Tile | None, playable: int) -> str:
    """The rule that forbids drawing now (call only when `may_draw` is false)."""
    if pending is not None:
        return phrase("engine.why.drawn_tile_must_be_played", tile=pending.text)
    if not turns.draw_is_public_legal():
        return turns.why_no_draw()
    tile = next(tiles_in(playable))
    return phrase("engine.why.draw_only_without_play", tile=tile.text)


def must_play_drawn(turns: TurnMachine, tile: Tile, forced: bool) -> bool:
    """Whether a tile just drawn must be the next tile played (`play_drawn_at_once`): only a
    draw the seat chose, of a tile it may play now (a lead the rules fix is not replaced)."""
    if forced or not turns.plan.at_once:
        return False
    # `playable_mask` of the tile alone, inlined (every draw comes here).
    must_lead = turns.must_lead
    if must_lead is not None:
        return must_lead is tile
    line = turns.line
    return bool(tile.bit & (line.fit_mask if line.tiles else line.lead_mask))


def plays_both_ways(line: Line, playable: int) -> list[Play]:
    """`plays_for` when players choose how doubles lie (`doubles = choice`): each double is
    offered twice, across, then along."""
    plays = any_plays(line, playable)
    if not playable & DOUBLES_MASK:
        return plays
    for play in list(plays):
        if play.tile.is_double:
            if play.place is None:
                plays.append(ALONG_LEADS[play.tile.bit])
            else:
                plays.append(ALONG_PLAYS_ON[play.place.id][play.tile.bit])
    return plays
