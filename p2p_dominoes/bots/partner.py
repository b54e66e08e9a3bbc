"""The `partner` strategy: Kozel's pair play — keep the partner moving, block the opponents.

It reads only what its seat may know: its own tiles, the table, the tile counts and the public
history. From the history it learns which numbers each player certainly lacks (a player who
passed had nothing for either open end then), and it scores each legal play by the ends it
leaves: ends the next opponent lacks (he must pass) are good, ends the partner lacks are bad,
ends it can follow itself keep its control; heavy tiles and doubles go first, since the losing
pair writes its pips. Outside partnerships every other seat counts as an opponent.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from p2p_dominoes.engine import DRAW, PASS, SKIP, Action, Play, SeatView
from p2p_dominoes.engine.actions import Draw, Pass
from p2p_dominoes.engine.line import Line
from p2p_dominoes.engine.tiles import TILES, VALUE_MASK, Tile, mask_of

NEXT_BLOCKED: Final = 10.0
"""The opponent who moves next certainly cannot play (he passes, the turn comes back round)."""
LAST_BLOCKED: Final = 4.0
"""The other opponent certainly cannot play."""
PARTNER_BLOCKED: Final = -8.0
"""The partner certainly cannot play: a tile that leaves him without a move is our mistake."""
FOLLOW_UP: Final = 0.5
"""Per own tile that still fits an end afterwards (the seat keeps the game in hand)."""
SUIT_CONTROL: Final = 0.7
"""Per own tile of an end's number (a number held long lets the pair steer the ends)."""
PIP_WEIGHT: Final = 0.35
DOUBLE_BONUS: Final = 5.0
"""Doubles fit only their own number: lay them while they still can be laid."""


def partner_bot(view: SeatView, rng: random.Random) -> Action:
    """The play that best lets the partner move and stops the opponents (ties by the heaviest
    tile); with no play: skip a second double, draw when allowed, else pass."""
    plays = view.legal_plays()
    if not plays:
        if view.can_draw():
            return DRAW
        return SKIP if view.can_skip() else PASS
    if len(plays) == 1:
        return plays[0]
    lacks = [sum(1 << number for number in numbers) for numbers in known_lacks(view)]
    seat, players = view.seat, len(view.tile_counts)
    pairs = view.rules.pairs and players == 4
    partner = (seat + 2) % 4 if pairs else None
    following = (seat + 1) % players
    others = [s for s in range(players) if s not in (seat, partner)]
    last = next((s for s in reversed(others) if s != following), None)
    return partner_play(view.line, plays, mask_of(view.hand), lacks, following, last, partner)


def partner_play(
    line: Line,
    plays: list[Play],
    hand: int,
    lacks: Sequence[int],
    following: int,
    last: int | None,
    partner: int | None,
) -> Play:
    """`partner`'s choice among `plays` (legal, at least one) for the seat holding `hand` (bit
    masks), by the ends each leaves: `lacks[seat]` are the bits 1 << number of the numbers a
    seat surely lacks; `following` moves next (an opponent), `last` is the other opponent and
    `partner` the partner (None: no such seat). What `partner_bot` plays, and the seats of a
    pair in the bots' play-outs (bots/search/playout.py)."""
    best: tuple[float, int, int] | None = None
    chosen = plays[0]
    for play in plays:
        tile = play.tile
        ends = line.ends_after(tile, play.place, play.along)
        rest = hand & ~tile.bit
        score = PIP_WEIGHT * tile.pips + (DOUBLE_BONUS if tile.is_double else 0.0)
        if ends:
            numbers = 0
            for value in ends:
                numbers |= 1 << value
            if not numbers & ~lacks[following]:
                score += NEXT_BLOCKED
            if last is not None and not numbers & ~lacks[last]:
                score += LAST_BLOCKED
            if partner is not None and not numbers & ~lacks[partner]:
                score += PARTNER_BLOCKED
            fitting = 0
            suit = 0
            for value in range(7):
                if numbers >> value & 1:
                    fitting |= VALUE_MASK[value]
                    suit += (rest & VALUE_MASK[value]).bit_count()
            score += FOLLOW_UP * (rest & fitting).bit_count()
            score += SUIT_CONTROL * suit
        key = (score, tile.pips, tile.high)
        if best is None or key > best:
            best, chosen = key, play
    return chosen


def known_lacks(view: SeatView) -> list[set[int]]:
    """For each seat, the numbers it certainly holds no tile of: every end it passed on (a draw
    forgets what was known, the drawn tile may be anything); numbers whose every tile is on the
    table or in this seat's hand are lacked by everyone else too."""
    players = len(view.tile_counts)
    lacks: list[set[int]] = [set() for _ in range(players)]
    line = Line()
    for seat, action in view.history:
        if isinstance(action, Play):
            line.lay(action.tile, action.place, action.along)
        elif isinstance(action, Pass):
            lacks[seat] |= {place.value for place in line.places}
        elif isinstance(action, Draw):
            lacks[seat].clear()
    seen: set[Tile] = set(view.line.tiles) | set(view.hand)
    gone = {v for v in range(7) if all(t in seen for t in TILES if t.has(v))}
    for seat in range(players):
        if seat != view.seat:
            lacks[seat] |= gone
    return lacks
