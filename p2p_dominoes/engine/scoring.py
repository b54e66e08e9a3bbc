"""Scoring a finished hand and deciding a match."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from p2p_dominoes.engine.rules import BlockScoring, Rules


class HandEnd(StrEnum):
    DOMINO = "domino"  # a player played their last tile
    BLOCK = "block"  # every player in turn passed
    UNFINISHED = "unfinished"


@dataclass(frozen=True)
class HandResult:
    """How a hand ended, who won it, the points each seat scored, and the pips left in hands."""

    end: HandEnd
    winner: int | None
    points: tuple[int, ...]
    pips: tuple[int, ...]

    def arithmetic(self) -> str:
        """The sum that gave the winner's points, e.g. "8 + 10 − 3 = 15"."""
        if self.winner is None:
            return "0"
        others = [p for seat, p in enumerate(self.pips) if seat != self.winner]
        text = " + ".join(map(str, others))
        if self.end is HandEnd.BLOCK:
            text += f" − {self.pips[self.winner]}"
        return f"{text} = {self.points[self.winner]}"


def score_domino(winner: int, pips: Sequence[int]) -> HandResult:
    """The player who went out scores every opponent's pips, even when one holds only [0|0]."""
    points = [0] * len(pips)
    points[winner] = sum(p for seat, p in enumerate(pips) if seat != winner)
    return HandResult(HandEnd.DOMINO, winner, tuple(points), tuple(pips))


def score_block(rules: Rules, pips: Sequence[int]) -> HandResult:
    """The single lowest total scores the others' totals minus its own; a shared lowest, nobody."""
    assert rules.block_scoring is BlockScoring.LOWEST_TAKES_DIFFERENCE
    lowest = min(pips)
    points = [0] * len(pips)
    if list(pips).count(lowest) > 1:
        return HandResult(HandEnd.BLOCK, None, tuple(points), tuple(pips))
    winner = list(pips).index(lowest)
    points[winner] = sum(pips) - 2 * lowest
    return HandResult(HandEnd.BLOCK, winner, tuple(points), tuple(pips))


@dataclass(frozen=True)
class MatchOutcome:
    """Whether the match is over after a fully scored hand, and who won it (None on a draw)."""

    over: bool
    winner: int | None
    draw: bool


def match_outcome(rules: Rules, scores: Sequence[int]) -> MatchOutcome:
    """Reaching the target wins, excess kept; equal best scores at the target draw the match."""
    best = max(scores)
    if best < rules.target(len(scores)):
        return MatchOutcome(over=False, winner=None, draw=False)
    if list(scores).count(best) > 1:
        return MatchOutcome(over=True, winner=None, draw=True)
    return MatchOutcome(over=True, winner=list(scores).index(best), draw=False)
