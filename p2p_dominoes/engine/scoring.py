"""Scoring a finished hand and deciding a match, for every "Who records what" switch.

Points belong to units (a seat; a pair once partnerships exist). Recorded points are gains under
`leader-takes` and penalties under `losers-own`/`worst-own`; the goal reads them accordingly.
Order at a hand's end: amounts → rounding → the minimum to record → match totals → the goal.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from operator import add
from typing import TYPE_CHECKING, Final, NamedTuple

from p2p_dominoes.engine.rules import BlockScoring, Drawing, Goal, HandScoring, Rules
from p2p_dominoes.engine.tiles import TILES

if TYPE_CHECKING:
    from p2p_dominoes.engine.actions import Action


class HandEnd(StrEnum):
    DOMINO = "domino"  # a player played their last tile
    BLOCK = "block"  # every player in turn passed, or no open place is left
    EXHAUSTED = "exhausted"  # the turn that emptied the boneyard ended (end_when_boneyard_empty)
    TARGET = "target"  # a placement reached a target during play (target_check immediate)
    VOID = "void"  # redealt: a block that does not count, or no opener could be found
    UNFINISHED = "unfinished"


# Enum members as module constants: Python 3.11 does not specialise attribute loads on a
# class, and these are read on every hand or every move.
_BLOCK_ALL_TO_WORST: Final = BlockScoring.ALL_TO_WORST
_BLOCK_LOWEST_TAKES_DIFFERENCE: Final = BlockScoring.LOWEST_TAKES_DIFFERENCE
_GOAL_FIXED_HANDS: Final = Goal.FIXED_HANDS
_GOAL_REACH_WINS: Final = Goal.REACH_WINS
_BLOCK: Final = HandEnd.BLOCK
_DOMINO: Final = HandEnd.DOMINO
_EXHAUSTED: Final = HandEnd.EXHAUSTED
_TARGET: Final = HandEnd.TARGET
_VOID: Final = HandEnd.VOID
_HAND_LEADER_TAKES: Final = HandScoring.LEADER_TAKES
_HAND_LUCK_SETTLEMENT: Final = HandScoring.LUCK_SETTLEMENT
_HAND_WORST_OWN: Final = HandScoring.WORST_OWN
_SET_SIZE: Final = len(TILES)


@dataclass(frozen=True)
class DuringPlay:
    """A hand's scoring during play: what placements scored per seat, the bonuses (going out,
    the lowest hand), and under Threes for luck the (wins, penalties) and the settlement."""

    move_points: tuple[int, ...] = ()
    bonuses: tuple[int, ...] = ()
    tallies: tuple[tuple[int, int], ...] = ()
    settlement: tuple[int, ...] = ()


class HandResult(NamedTuple):
    """How a hand ended, who won it, the points each unit recorded, and the pips left in hands.

    A named tuple: one is made at the end of every hand, so it must be cheap to build.
    `amounts` are the amounts before rounding and the minimum (what the arithmetic shows);
    `points` are what was recorded. `closer` is the seat that went out (domino only).
    Scoring during play adds `move_points` (per seat, what placements scored) and `bonuses`
    (going out, the lowest hand); under Threes for luck `points` are each seat's net (wins
    minus penalties), `tallies` the (wins, penalties) and `settlement` what the winner records
    in the match (`recorded` is what the match adds in every case)."""

    end: HandEnd
    winner: int | None
    points: tuple[int, ...]
    pips: tuple[int, ...]
    amounts: tuple[int, ...] = ()
    closer: int | None = None
    scoring: HandScoring = _HAND_LEADER_TAKES
    block_scoring: BlockScoring = _BLOCK_LOWEST_TAKES_DIFFERENCE
    during_play: DuringPlay | None = None
    """What was scored during play (Fives, Threes, Threes for luck); None for other rules."""
    ceremonies: tuple[str, ...] = ()
    """The enabled ceremonies this hand's ending triggered, most senior first (Kozel)."""
    title: str | None = None
    """The most senior of `ceremonies`: the losing unit's title for this hand."""
    seat_pips: tuple[int, ...] = ()
    """With partners, the pips left in each seat's hand (`pips` are the pairs' sums)."""
    winner_reset: bool = False
    """A ceremony triggered with the winner reset on: the winner's match total becomes 0."""

    @property
    def move_points(self) -> tuple[int, ...]:
        return self.during_play.move_points if self.during_play else ()

    @property
    def bonuses(self) -> tuple[int, ...]:
        return self.during_play.bonuses if self.during_play else ()

    @property
    def tallies(self) -> tuple[tuple[int, int], ...]:
        return self.during_play.tallies if self.during_play else ()

    @property
    def settlement(self) -> tuple[int, ...]:
        return self.during_play.settlement if self.during_play else ()

    @property
    def recorded(self) -> tuple[int, ...]:
        """The points this hand adds to the match scores (the settlement under luck)."""
        if self.during_play is not None and self.scoring is _HAND_LUCK_SETTLEMENT:
            return self.during_play.settlement
        return self.points

    @property
    def recorders(self) -> tuple[int, ...]:
        """The units that recorded an amount (before the minimum dropped any)."""
        amounts = self.amounts or self.points
        return tuple(u for u, a in enumerate(amounts) if a)

    def arithmetic(self) -> str:
        """The sum that gave the recorded points, e.g. "8 + 10 − 3 = 15"."""
        if self.scoring is _HAND_LEADER_TAKES:
            if self.winner is None:
                return "0"
            others = [p for seat, p in enumerate(self.pips) if seat != self.winner]
            text = " + ".join(map(str, others))
            if self.end is _BLOCK and self.block_scoring is _BLOCK_LOWEST_TAKES_DIFFERENCE:
                text += f" − {self.pips[self.winner]}"
            amount = (self.amounts or self.points)[self.winner]
            return f"{text} = {amount}"
        amounts = self.amounts or self.points
        parts = [str(a) for a in amounts if a]
        if not parts:
            return "0"
        return f"{' + '.join(parts)} = {sum(amounts)}" if len(parts) > 1 else parts[0]


def round_amount(amount: int, multiple: int) -> int:
    """The nearest multiple, halves up (to 5: 12 → 10, 13 → 15; to 10: 14 → 10, 15 → 20)."""
    return (amount + multiple // 2) // multiple * multiple


def score_hand(
    rules: Rules,
    end: HandEnd,
    pips: Sequence[int],
    closer: int | None = None,
    move_points: Sequence[int] = (),
    tallies: Sequence[tuple[int, int]] = (),
    reached: int | None = None,
    history: Sequence[tuple[int, Action]] = (),
) -> HandResult:
    """The result of a hand that ended by `end` with `pips` left per seat; `move_points` and
    `tallies` are what was scored during play, `reached` the seat that reached its target,
    `history` the hand's actions (read only when a ceremony is on).

    With partners every amount is the pair's: pips, move points and tallies are summed per
    pair, and the winner is a pair (`closer` stays the seat that went out)."""
    if rules.plain_scoring and end is _DOMINO:  # the first version's rule, fast
        assert closer is not None
        return score_domino(closer, pips)
    if end is _BLOCK and not rules.fish_counts and redeals_blocks(rules, len(pips)):
        end = _VOID
    if rules.pairs:
        return _pairs_hand(rules, end, pips, closer, move_points, tallies, reached, history)
    result = _score_units(rules, end, pips, closer, closer, move_points, tallies, reached)
    if rules.ceremonies and end is _DOMINO:
        return _with_ceremonies(rules, result, history)
    return result


def redeals_blocks(rules: Rules, players: int) -> bool:
    """Whether `fish_counts: false` redeals a blocked hand with `players` players: only where
    tiles can be drawn (a drawing rule, and more tiles left after the deal than the reserve).

    A rule set covers several player counts; where the deal leaves no boneyard a redeal would
    only bring back the same kind of block, so there the block counts as usual (the rules
    check's N21 says so)."""
    left = _SET_SIZE - players * rules.hand_size(players)
    return rules.drawing is not Drawing.NEVER and left > rules.reserve


def _pairs_hand(
    rules: Rules,
    end: HandEnd,
    pips: Sequence[int],
    closer: int | None,
    move_points: Sequence[int],
    tallies: Sequence[tuple[int, int]],
    reached: int | None,
    history: Sequence[tuple[int, Action]],
) -> HandResult:
    """A hand scored by pairs (seats 0+2 against 1+3): the seats' amounts summed per pair."""

    def summed(values: Sequence[int]) -> list[int]:
        return [values[0] + values[2], values[1] + values[3]] if values else []

    pair_tallies = (
        [
            (tallies[0][0] + tallies[2][0], tallies[0][1] + tallies[2][1]),
            (tallies[1][0] + tallies[3][0], tallies[1][1] + tallies[3][1]),
        ]
        if tallies
        else []
    )
    result = _score_units(
        rules,
        end,
        summed(pips),
        None if closer is None else closer % 2,
        closer,
        summed(move_points),
        pair_tallies,
        None if reached is None else reached % 2,
    )._replace(seat_pips=tuple(pips))
    if rules.ceremonies and end is _DOMINO:
        return _with_ceremonies(rules, result, history)
    return result


def _with_ceremonies(
    rules: Rules, result: HandResult, history: Sequence[tuple[int, Action]]
) -> HandResult:
    """`result` with the ceremonies its domino triggered and the losers' title."""
    from p2p_dominoes.engine.ceremonies import laid_tiles, triggered

    found = triggered(rules, result.closer, laid_tiles(history))
    if not found:
        return result
    return result._replace(ceremonies=tuple(found), title=found[0], winner_reset=rules.winner_reset)


def _score_units(
    rules: Rules,
    end: HandEnd,
    pips: Sequence[int],
    closer_unit: int | None,
    closer: int | None,
    move_points: Sequence[int],
    tallies: Sequence[tuple[int, int]],
    reached: int | None,
) -> HandResult:
    """A hand's result with `pips` per unit; `closer_unit` is the unit that went out."""
    units = len(pips)
    if end is _VOID:
        return HandResult(_VOID, None, (0,) * units, tuple(pips))
    lowest = min(pips)
    single_lowest = pips.index(lowest) if list(pips).count(lowest) == 1 else None
    if end is _DOMINO:
        assert closer_unit is not None
        winner: int | None = closer_unit
    elif end is _TARGET:
        winner = reached
    else:
        winner = single_lowest
    if end is _TARGET or not rules.records_pips:
        amounts = [0] * units
    else:
        amounts = _amounts(rules, end, list(pips), winner)
    if rules.plain_scoring:
        points = list(amounts)
    else:
        points = [round_amount(a, rules.rounding) if a else 0 for a in amounts]
        points = [p if p >= rules.min_record else 0 for p in points]
    result = HandResult(
        end,
        winner,
        tuple(points),
        tuple(pips),
        tuple(amounts),
        closer,
        rules.hand_scoring,
        rules.block_scoring,
    )
    if not rules.scores_during_play:
        return result
    return _with_play_scoring(rules, result, closer_unit, single_lowest, move_points, tallies)


def _with_play_scoring(
    rules: Rules,
    result: HandResult,
    closer: int | None,
    single_lowest: int | None,
    move_points: Sequence[int],
    tallies: Sequence[tuple[int, int]],
) -> HandResult:
    """`result` (the pips' part) with what was scored during play: move points and bonuses
    added, or under Threes for luck the nets and the settlement (`closer`: the unit that went
    out)."""
    end, winner = result.end, result.winner
    units = len(result.pips)
    bonuses = [0] * units
    if end is _DOMINO and closer is not None:
        bonuses[closer] += rules.domino_bonus
    elif end in (_BLOCK, _EXHAUSTED) and single_lowest is not None:
        bonuses[single_lowest] += rules.block_bonus
    moves = tuple(move_points) or (0,) * units
    points = [p + b + m for p, b, m in zip(result.points, bonuses, moves, strict=True)]
    settlement: tuple[int, ...] = ()
    if rules.hand_scoring is _HAND_LUCK_SETTLEMENT:
        nets = [w - p for w, p in tallies] if tallies else [0] * units
        points = nets
        best = max(nets)
        winner = nets.index(best) if nets.count(best) == 1 else None
        paid = [0] * units
        if winner is not None:
            paid[winner] = max(0, best - sum(n for u, n in enumerate(nets) if u != winner))
        settlement = tuple(paid)
    return result._replace(
        winner=winner,
        points=tuple(points),
        during_play=DuringPlay(
            moves if move_points else (),
            tuple(bonuses) if any(bonuses) else (),
            tuple(tallies),
            settlement,
        ),
    )


def scored_so_far(
    rules: Rules,
    pips: Sequence[int],
    move_points: Sequence[int],
    tallies: Sequence[tuple[int, int]],
) -> HandResult:
    """An unfinished hand's result under rules that score during play: what the placements
    have scored so far, per unit (summed per pair with partners), and no winner yet.

    Fives and Threes write their points as they are made, so `points` are the move points; under
    Threes for luck `points` are the nets so far (wins − penalties) beside the `tallies`, and
    nothing is settled until the hand ends. `pips` stay per seat, as for any unfinished hand."""
    paired = rules.pairs and len(pips) == 4

    def units(values: Sequence[int]) -> tuple[int, ...]:
        if paired and values:
            return (values[0] + values[2], values[1] + values[3])
        return tuple(values)

    unit_tallies = tuple(
        zip(units([w for w, _ in tallies]), units([p for _, p in tallies]), strict=True)
    )
    if rules.hand_scoring is _HAND_LUCK_SETTLEMENT:
        nets = tuple(w - p for w, p in unit_tallies)
        during = DuringPlay(tallies=unit_tallies)
        points = nets if nets else (0,) * rules.units(len(pips))
    else:
        moves = units(move_points)
        during = DuringPlay(move_points=moves)
        points = moves if moves else (0,) * rules.units(len(pips))
    return HandResult(
        HandEnd.UNFINISHED,
        None,
        points,
        tuple(pips),
        scoring=rules.hand_scoring,
        block_scoring=rules.block_scoring,
        during_play=during,
    )


def _amounts(rules: Rules, end: HandEnd, pips: list[int], winner: int | None) -> list[int]:
    units = len(pips)
    amounts = [0] * units
    block = end in (_BLOCK, _EXHAUSTED)
    how = rules.block_scoring
    if block and how is _BLOCK_ALL_TO_WORST:
        worst = max(pips)
        if pips.count(worst) == 1 and worst > min(pips):
            amounts[pips.index(worst)] = sum(pips)
        return amounts
    less = min(pips) if block and how is _BLOCK_LOWEST_TAKES_DIFFERENCE else 0
    if rules.hand_scoring is _HAND_LEADER_TAKES:
        if winner is not None:
            amounts[winner] = sum(pips) - pips[winner] - less
        return amounts
    if block:
        losers = [u for u in range(units) if pips[u] > min(pips)]
    else:
        losers = [u for u in range(units) if u != winner]
    if rules.hand_scoring is _HAND_WORST_OWN and losers:
        worst = max(pips[u] for u in losers)
        losers = [u for u in losers if pips[u] == worst]
    for u in losers:
        amounts[u] = pips[u] - less
    return amounts


def score_domino(winner: int, pips: Sequence[int]) -> HandResult:
    """The player who went out scores every opponent's pips, even when one holds only [0|0]."""
    points = [0] * len(pips)
    points[winner] = sum(pips) - pips[winner]
    return HandResult(_DOMINO, winner, tuple(points), tuple(pips), closer=winner)


def score_block(rules: Rules, pips: Sequence[int]) -> HandResult:
    """A blocked hand scored by `rules` (the first version: the single lowest total scores the
    others' totals minus its own; a shared lowest, nobody)."""
    return score_hand(rules, _BLOCK, pips)


@dataclass(frozen=True)
class MatchOutcome:
    """Whether the match is over after a fully scored hand, and who won it (None on a draw).

    `losers` are the units that reached a target that loses (the classic goat)."""

    over: bool
    winner: int | None
    draw: bool
    losers: tuple[int, ...] = ()
    title: str | None = None
    """The losers' title when a ceremony game decides it: "goat", or the deciding hand's
    ceremony title ("admiral", "snotty_goat", "general")."""
    pairs: bool = False
    """The units are pairs (seats 0+2 and 1+3), not seats."""


_GOES_ON = MatchOutcome(over=False, winner=None, draw=False)


def add_hand(rules: Rules, scores: Sequence[int], result: HandResult) -> tuple[int, ...]:
    """The match totals after a counted hand: its recorded points added, then, when the winner
    reset is on and a ceremony triggered, the winning unit's total wiped to 0."""
    recorded = result.recorded
    if len(recorded) != len(scores):
        raise ValueError(f"a hand of {len(recorded)} units added to {len(scores)} scores")
    totals = list(map(add, scores, recorded))
    if rules.winner_reset and result.ceremonies and result.winner is not None:
        totals[result.winner] = 0
    return tuple(totals)


def match_outcome(
    rules: Rules,
    scores: Sequence[int],
    hands_played: int = 0,
    last: HandResult | None = None,
) -> MatchOutcome:
    """Whether `scores` after `hands_played` counted hands end the match, and how.

    reach-wins: reaching the target wins, excess kept, equal best draw; reach-loses: everyone
    at or over the target loses and the lowest total wins; fixed-hands: after the agreed hands
    the best total (lowest for penalties) wins. Under Kozel (pairs or ceremonies) the losers
    get a title: "goat", or the ceremony title of `last`, the hand that decided the match."""
    outcome = _match_outcome(rules, scores, hands_played)
    if not rules.pairs and not rules.ceremonies:
        return outcome
    title = None
    if outcome.losers:
        title = (last.title if last is not None else None) or "goat"
    return MatchOutcome(
        outcome.over, outcome.winner, outcome.draw, outcome.losers, title, rules.pairs
    )


def _match_outcome(rules: Rules, scores: Sequence[int], hands_played: int) -> MatchOutcome:
    scores = list(scores)
    goal = rules.goal
    if goal is _GOAL_FIXED_HANDS:
        if hands_played < rules.hands_limit:
            return _GOES_ON
        best = min(scores) if rules.bad_points else max(scores)
        return _decided(scores, best)
    target = rules.target(4 if rules.pairs else len(scores))  # pairs: two scores, four seats
    if max(scores) < target:
        return _GOES_ON
    if goal is _GOAL_REACH_WINS:
        return _decided(scores, max(scores))
    losers = tuple(u for u, s in enumerate(scores) if s >= target)
    outcome = _decided(scores, min(scores))
    return MatchOutcome(True, outcome.winner, outcome.draw, losers)


def _decided(scores: list[int], best: int) -> MatchOutcome:
    if scores.count(best) > 1:
        return MatchOutcome(over=True, winner=None, draw=True)
    return MatchOutcome(over=True, winner=scores.index(best), draw=False)
