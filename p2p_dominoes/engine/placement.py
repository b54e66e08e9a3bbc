"""What a placement scores during play (Fives, Threes, Threes for luck; RULES_V2 §4), from the
end total it makes: the turn machine awards it (engine/turns.py), bots and the page's hints look
ahead with it."""

from __future__ import annotations

from typing import Final

from p2p_dominoes.engine.actions import Play
from p2p_dominoes.engine.line import Line
from p2p_dominoes.engine.rules import EndsAward, MoveScoring, Rules
from p2p_dominoes.engine.tiles import Tile

# Enum members as module constants: Python 3.11 does not specialise attribute loads on a
# class, and these are read on every placement.
_MOVES_ENDS: Final = MoveScoring.ENDS
_MOVES_LUCK: Final = MoveScoring.LUCK
_MOVES_NONE: Final = MoveScoring.NONE
_MOVES_PLACED_TILE: Final = MoveScoring.PLACED_TILE

LUCK_FIRST_DOUBLE = 8
"""Threes for luck: the first double laid in the hand, whatever the ends show."""
LUCK_SCORING_DOUBLE = 7
"""Threes for luck: a later double whose placement scores (5 + 2)."""
LUCK_SCORING_MOVE = 5
"""Threes for luck: a non-double whose placement scores."""
LUCK_DRAWN = 10
"""Threes for luck: a tile drawn this turn whose placement scores (the seed's "the tile needed")."""
LUCK_PENALTY = 5
"""Threes for luck: penalty points for each tile drawn in a turn that brought no scoring move."""


def placement_award(
    rules: Rules, total: int, tile: Tile, no_double_yet: bool, from_draw: bool = False
) -> tuple[int, str]:
    """(points, why) of laying `tile` when the end total becomes `total` (RULES_V2 §4):
    `no_double_yet` — no double lies on the table before it; `from_draw` — the tile was drawn
    in this turn. (0, "") when the placement scores nothing."""
    how = rules.move_scoring
    scores = total > 0 and total % rules.ends_modulus == 0
    if how is _MOVES_ENDS:
        if not scores:
            return 0, ""
        if rules.ends_award is EndsAward.QUOTIENT:
            return total // rules.ends_modulus, "ends"
        return total, "ends"
    if how is _MOVES_PLACED_TILE:
        return (tile.pips, "placed-tile") if tile.pips else (0, "")
    if how is _MOVES_LUCK:
        if from_draw and scores:
            return LUCK_DRAWN, "lucky-draw"
        if tile.is_double and no_double_yet:
            return LUCK_FIRST_DOUBLE, "first-double"
        if scores:
            if tile.is_double:
                return LUCK_SCORING_DOUBLE, "scoring-double"
            return LUCK_SCORING_MOVE, "scoring-move"
    return 0, ""


def placement_points(rules: Rules, line: Line, play: Play, from_draw: bool = False) -> int:
    """What `play` would score if laid on `line` now (a look-ahead for bots and hints; the
    line is not changed)."""
    if rules.move_scoring is _MOVES_NONE:
        return 0
    trial = line.copy()
    tile, place, along = play
    trial.lay(tile, place, along)
    no_double_yet = not any(t.is_double for t in line.tiles)
    return placement_award(rules, trial.end_total(), tile, no_double_yet, from_draw)[0]
