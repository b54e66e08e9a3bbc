"""The `random` and `greedy` strategies (`partner` and the levels live in their own modules, the
registry of them all in `roster`)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final

from p2p_dominoes.engine import (
    DRAW,
    PASS,
    SKIP,
    Action,
    Board,
    Line,
    MoveScoring,
    Play,
    Rules,
    SeatView,
    Tile,
    placement_points,
)

Bot = Callable[[SeatView, random.Random], Action]
"""A strategy: it sees what its seat may know and draws its own randomness from `rng`."""

VOLUNTARY_DRAW_CHANCE: Final = 0.05
_MOVES_NONE: Final = MoveScoring.NONE


def random_bot(view: SeatView, rng: random.Random) -> Action:
    """Uniform over legal plays; draws when forced, or now and then when drawing is allowed."""
    plays = view.legal_plays()
    if not plays:
        return _no_play(view)
    if rng.random() < VOLUNTARY_DRAW_CHANCE and view.can_draw():
        return DRAW
    return plays[int(rng.random() * len(plays))]


def greedy_bot(view: SeatView, rng: random.Random) -> Action:
    """Plays the move that scores most now (the end total, across or along), then (trains)
    one on its own train, keeping it private, then the heaviest fitting tile; draws only when
    it must."""
    plays = view.legal_plays()
    if not plays:
        return _no_play(view)
    return greedy_play(view.rules, view.line, view.seat, plays)


def greedy_play(rules: Rules, line: Line, seat: int, plays: list[Play]) -> Play:
    """`greedy`'s choice among `plays` (legal, at least one) for `seat` at `line`: what
    `greedy_bot` plays, and the bots' play-outs (bots/search/playout.py) on the engine's hand."""
    if isinstance(line, Board) and line.trains:
        # Trains: feed your own train first (it stays private), then the heaviest tile.
        board = line
        own = board.ends.get(seat)
        return max(
            plays,
            key=lambda p: (
                placement_points(rules, board, p),
                p.place is not None and p.place is own,
                p.tile.pips,
                p.tile.high,
                -p.along,
            ),
        )
    if rules.move_scoring is _MOVES_NONE:
        # The heaviest tile, the first play of it listed (max by `weight`).
        chosen = plays[0]
        best = -1
        for play in plays:
            heft = weight(play.tile)
            if heft > best:
                best, chosen = heft, play
        return chosen
    return max(
        plays, key=lambda p: (placement_points(rules, line, p), p.tile.pips, p.tile.high, -p.along)
    )


def weight(tile: Tile) -> int:
    """Greedy's order as one number, a different one per tile: more pips first, then the higher
    half (`max` by (pips, high))."""
    return tile.pips * 8 + tile.high


def _no_play(view: SeatView) -> Action:
    """With nothing to play: decline a second double, else draw when allowed, else pass."""
    if view.can_draw():  # never during a second double: a skip or a double must follow
        return DRAW
    return SKIP if view.can_skip() else PASS
