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
    MoveScoring,
    SeatView,
    placement_points,
)

Bot = Callable[[SeatView, random.Random], Action]
"""A strategy: it sees what its seat may know and draws its own randomness from `rng`."""

VOLUNTARY_DRAW_CHANCE: Final = 0.05


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
    rules = view.rules
    board = view.line
    if isinstance(board, Board) and board.trains:
        # Trains: feed your own train first (it stays private), then the heaviest tile.
        own = board.ends.get(view.seat)
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
    if rules.move_scoring is MoveScoring.NONE:
        return max(plays, key=lambda p: (p.tile.pips, p.tile.high))
    line = view.line
    return max(
        plays, key=lambda p: (placement_points(rules, line, p), p.tile.pips, p.tile.high, -p.along)
    )


def _no_play(view: SeatView) -> Action:
    """With nothing to play: decline a second double, else draw when allowed, else pass."""
    if view.can_draw():  # never during a second double: a skip or a double must follow
        return DRAW
    return SKIP if view.can_skip() else PASS
