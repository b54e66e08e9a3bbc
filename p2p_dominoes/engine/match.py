"""A match: hands in sequence, who opens each, scores, and the end at the target."""

from __future__ import annotations

from collections.abc import Sequence

from p2p_dominoes.engine.errors import InvalidRecord
from p2p_dominoes.engine.hand import HandState, highest_double_lead
from p2p_dominoes.engine.rules import FirstOpener, NextOpener, Rules
from p2p_dominoes.engine.scoring import HandResult, MatchOutcome, match_outcome
from p2p_dominoes.engine.tiles import Tile


class Match:
    """Scores across hands; opens each hand with the opener the rules name."""

    def __init__(self, rules: Rules, players: int, scores: Sequence[int] | None = None) -> None:
        self.rules = rules
        self.players = rules.check_players(players)
        self.scores = list(scores) if scores is not None else [0] * players
        if len(self.scores) != players or any(type(s) is not int or s < 0 for s in self.scores):
            raise InvalidRecord(f"scores must be {players} non-negative integers")
        self.results: list[HandResult] = []
        self.openers: list[int] = []
        self.outcome = match_outcome(rules, self.scores)

    @property
    def hand_number(self) -> int:
        """1 for the first hand, counting the hand in progress."""
        return len(self.openers) + 1

    def next_opener(
        self, hands: Sequence[Sequence[Tile]], lottery: int | None
    ) -> tuple[int, Tile | None]:
        """The seat that leads the next hand, and a tile it must lead (if the rules fix one)."""
        if not self.openers:
            if self.rules.first_opener is FirstOpener.HIGHEST_DOUBLE:
                return highest_double_lead(hands)
            if lottery is None or lottery < 0:
                raise InvalidRecord(
                    "the first opener is drawn by lottery: a random input is needed"
                )
            return lottery % self.players, None
        previous = self.openers[-1]
        if self.rules.next_opener is NextOpener.PREVIOUS_WINNER:
            winner = self.results[-1].winner
            return (previous if winner is None else winner), None
        return (previous + 1) % self.players, None

    def start_hand(
        self, hands: Sequence[Sequence[Tile]], boneyard: Sequence[Tile], lottery: int | None = None
    ) -> HandState:
        """Deal the next hand; `lottery` is the shared random input for a first-hand lottery."""
        if self.outcome.over:
            raise InvalidRecord("the match is over")
        if len(self.results) != len(self.openers):
            raise InvalidRecord("the previous hand is not finished")
        opener, must_lead = self.next_opener(hands, lottery)
        hand = HandState(self.rules, hands, boneyard, opener, must_lead)
        self.openers.append(opener)
        return hand

    def finish_hand(self, hand: HandState) -> MatchOutcome:
        """Add a finished hand's points; the match ends only after a fully scored hand."""
        if hand.result is None:
            raise InvalidRecord("the hand is not finished")
        if len(self.results) + 1 != len(self.openers):
            raise InvalidRecord("that hand was not started by this match")
        self.results.append(hand.result)
        for seat, points in enumerate(hand.result.points):
            self.scores[seat] += points
        self.outcome = match_outcome(self.rules, self.scores)
        return self.outcome
