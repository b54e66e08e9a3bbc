"""`bench bots` under Kozel: bot A plays both seats of one pair against B's pair, the pairs
swapping on each match, and a hand or match counts for A when A's pair wins it."""

from __future__ import annotations

import random

from p2p_dominoes.benchmarks.bots import duel
from p2p_dominoes.bots import greedy_bot, partner_bot
from p2p_dominoes.engine import Action, SeatView, preset

KOZEL = preset("kozel")


def test_bot_a_takes_a_whole_pair_and_the_pairs_swap_each_match() -> None:
    seats: list[set[int]] = []

    def spy(view: SeatView, rng: random.Random) -> Action:
        seats[-1].add(view.seat)
        return partner_bot(view, rng)

    seats.append(set())
    played = duel(KOZEL, 4, ("partner", spy), ("greedy", greedy_bot), hands=150, seed=2)
    assert seats[-1] == {0, 1, 2, 3}  # over several matches A sat in both pairs
    assert played.hands_by_seat[0] == played.hands_by_seat[2]  # partners counted together
    assert played.hands_by_seat[1] == played.hands_by_seat[3]
    assert sum(played.hands_by_seat) == 2 * played.hands
    assert played.figures()["fair_share"] == 0.5
    assert 0 <= played.hands_won <= played.hands and played.matches >= 2


def test_one_match_puts_a_on_seats_0_and_2_only() -> None:
    seen: set[int] = set()

    def spy(view: SeatView, rng: random.Random) -> Action:
        seen.add(view.seat)
        return partner_bot(view, rng)

    played = duel(KOZEL, 4, ("partner", spy), ("greedy", greedy_bot), hands=3, seed=5)
    assert played.matches == 0  # three hands: the first match is not over yet
    assert seen == {0, 2} and played.hands_by_seat == [3, 0, 3, 0]
