"""What a searching bot wants from a hand: an estimate of its chance of winning the match being
played, read from the match scores, the target and what the hand records.

A hand is only a step in a match, and the games decide matches differently: Draw and the house
games by hand points towards a target (Kozel: the losing pair records its pips, under 13 is not
written, and the pair that reaches 101 is the goat), Fives and Threes by points made during
play (a placement may reach the target at once), Threes for luck by one hand's settlement, whose
penalties are paid for every draw that brought nothing. So the search values a finished hand
by the match it leaves behind (`Objective.value`):

- when the hand ends the match (a target reached, or the last of a fixed number of hands), 1
  for winning it, ½ for a shared first place, 0 for losing it;
- otherwise a race: each unit's distance to the target after the hand (reach-wins: the points
  it still needs; reach-loses: the points it may still take before it loses), and the chance
  of the unit that is nearest the good end, as `1/d` shares (two units: `theirs / (mine +
  theirs)`), so a point is worth more when the target is near;
- under Threes for luck (one hand, the winner takes the difference) winning first and then the
  net points (wins − penalties): a voluntary draw that only pays its penalty costs.

Everything is in units (a seat, or a pair with partners) and what `add_hand` would add, so the
13-point minimum, the settlement and a ceremony's winner reset come out as the match keeps them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from p2p_dominoes.engine.rules import Goal, HandScoring, Rules
from p2p_dominoes.engine.scoring import HandResult, add_hand

_MARGIN: Final = 0.01
"""Weight of a point of margin where the match is decided by the hand itself (a tie-breaker
between equally likely wins: Threes for luck's settlement, a fixed number of hands)."""


class Objective:
    """How the seat `seat` values a finished hand of the match whose scores before it are
    `scores` (per seat, as a hand holds them: a pair's total on both its seats)."""

    __slots__ = ("_bad", "_fixed", "_luck", "_reach_loses", "_rules", "_target", "scores", "unit")

    def __init__(
        self, rules: Rules, seat: int, players: int, scores: Sequence[int], target: int
    ) -> None:
        self._rules = rules
        self.unit = rules.unit_of(seat)
        units = rules.units(players)
        seat_scores = tuple(scores) if scores else (0,) * players
        if rules.pairs and len(seat_scores) == players:
            seat_scores = seat_scores[:units]
        self.scores: tuple[int, ...] = seat_scores if len(seat_scores) == units else (0,) * units
        """The units' match totals before the hand."""
        self._target = target
        self._fixed = rules.goal is Goal.FIXED_HANDS or target <= 0
        self._reach_loses = rules.goal is Goal.REACH_LOSES
        self._bad = rules.bad_points
        self._luck = rules.hand_scoring is HandScoring.LUCK_SETTLEMENT

    def after(self, result: HandResult) -> tuple[int, ...]:
        """The units' match totals once `result` is added (as the match adds it)."""
        return add_hand(self._rules, self.scores, result)

    def value(self, result: HandResult) -> float:
        """The estimated chance of winning the match after `result` (0 to 1, ties ½), with a
        hundredth a point of the hand's margin where the hand decides the match by itself."""
        totals = self.after(result)
        unit = self.unit
        if self._fixed:
            return _decided(totals, unit, self._bad) + _MARGIN * hand_margin(
                result, unit, self._bad
            )
        target = self._target
        if self._reach_loses:
            if max(totals) >= target:
                return _decided(totals, unit, best_low=True)
            room = [target - t for t in totals]  # how far each unit is from losing
            return room[unit] / sum(room)
        if max(totals) >= target:
            return _decided(totals, unit, best_low=False)
        shares = [1.0 / (target - t) for t in totals]
        return shares[unit] / sum(shares)


def _decided(totals: Sequence[int], unit: int, best_low: bool) -> float:
    """A decided match for `unit`: 1 it has the single best total, ½ a shared best, else 0."""
    best = min(totals) if best_low else max(totals)
    if totals[unit] != best:
        return 0.0
    return 1.0 if list(totals).count(best) == 1 else 0.5


def hand_margin(result: HandResult, unit: int, bad: bool) -> float:
    """The hand's points for `unit` against the best other unit's (penalties: fewer is better;
    Threes for luck: the nets, wins − penalties)."""
    points = result.points
    if len(points) <= unit or len(points) < 2:
        return 0.0
    mine = points[unit]
    others = [p for u, p in enumerate(points) if u != unit]
    return float(min(others) - mine) if bad else float(mine - max(others))
