"""A match: hands in sequence, who opens each, scores, and the end at the goal."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from p2p_dominoes.engine.errors import InvalidRecord
from p2p_dominoes.engine.hand import HandState
from p2p_dominoes.engine.opening import (
    Opening,
    PreviousHands,
    fallback_opening,
    opening,
    rank_list,
    unclaimed_opening,
)
from p2p_dominoes.engine.rules import Rules
from p2p_dominoes.engine.scoring import (
    HandEnd,
    HandResult,
    MatchOutcome,
    add_hand,
    match_outcome,
)
from p2p_dominoes.engine.tiles import Tile
from p2p_dominoes.words import phrase

# Enum members as module constants: Python 3.11 does not specialise attribute loads on a
# class, and these are read on every hand or every move.
_VOID: Final = HandEnd.VOID


class Match:
    """Scores across hands; opens each hand with the opener the rules name.

    Scores are per unit: one per seat, or one per pair when partners play (Kozel).
    A void hand (redealt) scores nothing, is not counted, and is not "the previous hand": the
    redeal opens as if it had not been played."""

    def __init__(self, rules: Rules, players: int, scores: Sequence[int] | None = None) -> None:
        self.rules = rules
        self.players = rules.check_players(players)
        units = rules.units(players)
        self.scores = list(scores) if scores is not None else [0] * units
        if len(self.scores) != units or any(type(s) is not int for s in self.scores):
            raise InvalidRecord(phrase("engine.why.match_scores", units=units))
        self.results: list[HandResult] = []
        """Every finished hand's result, void ones included, in order."""
        self.openers: list[int | None] = []
        """Every started hand's opener (None for a hand void before any turn)."""
        self.counted_hands = 0
        self.previous = PreviousHands()
        self.outcome = match_outcome(rules, self.scores, 0)

    @property
    def hand_number(self) -> int:
        """1 for the first hand, counting the hand in progress and void hands."""
        return len(self.openers) + 1

    @property
    def opening_number(self) -> int:
        """The number the opening rule reads: counted hands so far + 1."""
        return self.counted_hands + 1

    def rank_list(self) -> tuple[Tile, ...]:
        """The tiles the next hand's opener is claimed by (empty: the deal does not matter)."""
        return rank_list(self.rules, self.opening_number, self.previous)

    def opening(self, hands: Sequence[Sequence[Tile]], lottery: int | None) -> Opening:
        """The next hand's opening, from its full deal."""
        return opening(self.rules, self.opening_number, hands, lottery, self.previous)

    def unclaimed_opening(self, lottery: int | None) -> Opening:
        """The next hand's opening when `rank_list()` is empty."""
        return unclaimed_opening(
            self.rules, self.opening_number, self.players, lottery, self.previous
        )

    def fallback_opening(self, lottery: int | None) -> Opening:
        """The next hand's opening when a claim phase found no ranked tile."""
        return fallback_opening(
            self.rules, self.opening_number, self.players, lottery, self.previous
        )

    def next_opener(
        self, hands: Sequence[Sequence[Tile]], lottery: int | None
    ) -> tuple[int, Tile | None]:
        """The seat that leads the next hand and a tile it must lead (first version's API;
        raises for a void opening)."""
        found = (
            self.opening(hands, lottery) if self.rank_list() else self.unclaimed_opening(lottery)
        )
        if found.seat is None:
            raise InvalidRecord("no opener: the hand is redealt")
        return found.seat, found.must_lead

    def _check_can_start(self) -> None:
        if self.outcome.over:
            raise InvalidRecord("the match is over")
        if len(self.results) != len(self.openers):
            raise InvalidRecord("the previous hand is not finished")

    def start_hand(
        self,
        hands: Sequence[Sequence[Tile]],
        boneyard: Sequence[Tile],
        lottery: int | None = None,
        found: Opening | None = None,
    ) -> HandState | None:
        """Deal the next hand; None when it is void before any turn (then call `void_hand`).

        `lottery` is the hand's shared random input; `found` an opening decided elsewhere (a
        claim phase), else it is computed from the deal."""
        self._check_can_start()
        if found is None:
            found = opening(self.rules, self.counted_hands + 1, hands, lottery, self.previous)
        if found.seat is None:
            self.openers.append(None)
            return None
        hand = HandState(self.rules, hands, boneyard, found.seat, found.must_lead)
        hand.match_scores = self.seat_scores
        self.openers.append(found.seat)
        return hand

    @property
    def seat_scores(self) -> tuple[int, ...]:
        """Each seat's match total (its pair's, when partners play)."""
        if not self.rules.pairs:
            return tuple(self.scores)
        return tuple(self.scores[seat % 2] for seat in range(self.players))

    def void_hand(self) -> MatchOutcome:
        """Record a hand void before any turn (no ranked tile dealt, fallback redeal)."""
        if len(self.openers) == len(self.results):
            self._check_can_start()
            self.openers.append(None)
        pips = (0,) * len(self.scores)
        self.results.append(HandResult(_VOID, None, pips, pips))
        return self.outcome

    def finish_hand(self, hand: HandState) -> MatchOutcome:
        """Add a finished hand's points; the match ends only after a fully scored hand."""
        if hand.result is None:
            raise InvalidRecord("the hand is not finished")
        return self.finish_result(hand.result, hand.opener)

    def finish_result(self, result: HandResult, opener: int) -> MatchOutcome:
        """Add a finished hand's result (as `finish_hand`, from an audited result)."""
        if len(self.results) + 1 != len(self.openers):
            raise InvalidRecord("that hand was not started by this match")
        self.results.append(result)
        if result.end is _VOID:
            return self.outcome
        self.scores = list(add_hand(self.rules, self.scores, result))
        self.counted_hands += 1
        self.previous = PreviousHands(opener, _lead_seat(result))
        self.outcome = match_outcome(self.rules, self.scores, self.counted_hands, result)
        return self.outcome


def _lead_seat(result: HandResult) -> int | None:
    """The seat a "previous winner" opening rule means: the winner, or with partners the seat
    that went out (at a block, the winning pair's seat with fewer pips)."""
    if not result.seat_pips or result.winner is None:
        return result.winner
    if result.closer is not None:
        return result.closer
    first, second = result.winner, result.winner + 2
    return first if result.seat_pips[first] <= result.seat_pips[second] else second
