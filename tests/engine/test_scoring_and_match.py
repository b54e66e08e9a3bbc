"""Scoring a hand (domino and block, with the worked examples) and deciding a match."""

import random

import pytest

from p2p_dominoes.bots import greedy_bot
from p2p_dominoes.engine import (
    BLOCK,
    DRAW_RULES,
    HandEnd,
    HandView,
    InvalidRecord,
    Match,
    match_outcome,
    score_block,
    score_domino,
)
from p2p_dominoes.simulation import deal as shuffle_and_deal


def test_domino_scores_every_opponents_pips_and_a_lone_blank_double_does_not_tie() -> None:
    result = score_domino(0, [0, 0, 8])  # one opponent holds only [0|0]
    assert result.points == (8, 0, 0)
    assert result.winner == 0
    assert result.arithmetic() == "0 + 8 = 8"


def test_block_the_single_lowest_scores_others_minus_own_once() -> None:
    result = score_block(DRAW_RULES, [3, 8, 10])
    assert result.end is HandEnd.BLOCK
    assert result.winner == 0
    assert result.points == (15, 0, 0)
    assert result.arithmetic() == "8 + 10 − 3 = 15"


def test_block_with_a_shared_lowest_total_scores_nothing() -> None:
    result = score_block(DRAW_RULES, [3, 3, 10])
    assert result.winner is None
    assert result.points == (0, 0, 0)


def test_no_special_bonus_for_three_players_and_no_rounding() -> None:
    assert score_block(DRAW_RULES, [1, 7, 9]).points == (15, 0, 0)
    assert score_domino(2, [7, 6, 0]).points == (0, 0, 13)  # exact: not rounded to 10 or 15


@pytest.mark.parametrize(("players", "target"), [(2, 100), (3, 61), (4, 61)])
def test_targets_are_100_for_two_and_61_for_three_or_four(players: int, target: int) -> None:
    assert DRAW_RULES.target(players) == target
    below = [target - 1] + [0] * (players - 1)
    assert not match_outcome(DRAW_RULES, below).over
    reached = [target] + [0] * (players - 1)
    assert match_outcome(DRAW_RULES, reached).winner == 0


def test_passing_the_target_wins_and_the_excess_is_kept() -> None:
    outcome = match_outcome(DRAW_RULES, [40, 75, 12])
    assert outcome.over and outcome.winner == 1 and not outcome.draw


def test_equal_best_scores_at_the_target_draw_the_match_without_tie_break() -> None:
    outcome = match_outcome(DRAW_RULES, [70, 70, 65])
    assert outcome.over and outcome.draw and outcome.winner is None
    # Only the best scores matter: a lower score past the target does not win.
    assert match_outcome(DRAW_RULES, [70, 65, 3]).winner == 0


def test_the_opener_moves_one_seat_clockwise_from_the_previous_opener_not_the_winner() -> None:
    match = Match(DRAW_RULES, 4)
    rng = random.Random(7)
    openers, winners = [], []
    for hand_number in range(5):
        if match.outcome.over:
            break
        hands, boneyard = shuffle_and_deal(DRAW_RULES, 4, rng)
        hand = match.start_hand(hands, boneyard, lottery=6 if hand_number == 0 else None)
        while hand.result is None:
            hand.apply(hand.turn, greedy_bot(HandView(hand, hand.turn), rng))
        match.finish_hand(hand)
        openers.append(hand.opener)
        winners.append(hand.result.winner)
    assert openers[0] == 6 % 4
    assert openers == [(2 + i) % 4 for i in range(len(openers))]
    assert len(openers) >= 3


def test_the_first_opener_comes_from_a_lottery_input_from_outside() -> None:
    match = Match(BLOCK, 3)
    hands, boneyard = shuffle_and_deal(BLOCK, 3, random.Random(1))
    with pytest.raises(InvalidRecord, match="lottery"):
        match.start_hand(hands, boneyard)
    assert match.start_hand(hands, boneyard, lottery=2**200 + 1).opener == (2**200 + 1) % 3


def test_the_match_ends_only_after_a_fully_scored_hand_and_then_refuses_more_hands() -> None:
    match = Match(DRAW_RULES, 2, scores=[95, 0])
    hands, boneyard = shuffle_and_deal(DRAW_RULES, 2, random.Random(3))
    hand = match.start_hand(hands, boneyard, lottery=0)
    with pytest.raises(InvalidRecord, match="not finished"):
        match.finish_hand(hand)
    assert not match.outcome.over
