"""House-rule switches of the hand's end and the score (RULES_V2 §1.1 E1, S1–S5; §1.3; the
sketch §4.4 end-of-hand scoring, §4.6 the match), and the records they write.

Worked examples use three seats holding 0, 8 and 15 pips (a domino by seat 0) or 3, 8 and 10
(a block), the numbers a player would add up at the table.
"""

import json
from typing import Any

import pytest

from p2p_dominoes.engine import (
    PASS,
    TILES,
    HandEnd,
    HandResult,
    InvalidRecord,
    Match,
    Place,
    Play,
    Rules,
    Side,
    load_record,
    match_outcome,
    parse_tile,
    record_of,
    replay,
    tile_of,
)
from p2p_dominoes.engine.actions import SKIP
from p2p_dominoes.engine.scoring import score_hand
from tests.engine.dealing import deal


def house(**overrides: Any) -> Rules:
    """The house preset with some switches changed (the editor's «base + overrides»)."""
    return Rules.from_dict({"base": "house", **overrides})


GOOD = {"hand_scoring": "leader-takes", "goal": "reach-wins"}
"""Recorded points are gains: the winner takes the others' pips, reaching the target wins."""


def play(tile: str, at: str | None = None, side: str | None = None) -> Play:
    if at is None:
        return Play(parse_tile(tile))
    assert side is not None
    return Play(parse_tile(tile), Place.of(parse_tile(at), Side(side)))


def domino(rules: Rules, pips: tuple[int, ...], closer: int = 0) -> tuple[int, ...]:
    return score_hand(rules, HandEnd.DOMINO, pips, closer).points


def block(rules: Rules, pips: tuple[int, ...]) -> tuple[int, ...]:
    return score_hand(rules, HandEnd.BLOCK, pips).points


# -- E1 a block that does not count ------------------------------------------------------

E1_RULES = {"fish_counts": False, "must_draw_when_stuck": False}
E1_SIZES = [[2, 7], [3, 7], [4, 6]]
E1_HANDS = ["0|0 3|3 3|4 3|5 3|6 4|4 4|5", "1|1 1|2 1|3 1|4 1|5 1|6 2|2"]


def test_e1_a_block_is_redealt_only_at_the_player_counts_with_a_boneyard() -> None:
    """«только при наличии базара»: house deals 4 × 7, the whole set. The set is not refused
    for that (it covers 2 and 3 players too): with four the block counts (N21), with two or
    three it is redealt."""
    rules = house(fish_counts=False)
    four = score_hand(rules, HandEnd.BLOCK, (3, 8, 10, 12))
    assert four.end is HandEnd.BLOCK and four.points == (0, 8, 10, 12)  # the losers record
    for pips in ((3, 8), (3, 8, 10)):
        assert score_hand(rules, HandEnd.BLOCK, pips).end is HandEnd.VOID
    # A reserve that eats the whole boneyard leaves nothing to draw: the block counts there too.
    kept = house(fish_counts=False, hand_sizes=[[2, 7], [3, 7]], targets=[[2, 101], [3, 101]])
    assert score_hand(kept, HandEnd.BLOCK, (3, 8, 10)).end is HandEnd.VOID
    eaten = house(
        fish_counts=False, reserve=7, hand_sizes=[[2, 7], [3, 7]], targets=[[2, 101], [3, 101]]
    )
    assert score_hand(eaten, HandEnd.BLOCK, (3, 8, 10)).end is HandEnd.BLOCK
    assert score_hand(eaten, HandEnd.BLOCK, (3, 8)).end is HandEnd.VOID  # 14 left, 7 drawable


def test_e1_off_a_block_is_void_scores_nothing_and_the_match_does_not_count_it() -> None:
    rules = house(**E1_RULES, hand_sizes=E1_SIZES, next_opener="highest-double")
    match = Match(rules, 2)
    dealt = deal(rules, E1_HANDS)
    state = match.start_hand([dealt.hand_of(0), dealt.hand_of(1)], dealt.boneyard)
    assert state is not None and state.must_lead is tile_of(0, 0)
    state.apply(0, play("0|0"))
    state.apply(1, PASS)
    state.apply(0, PASS)
    assert state.result is not None
    assert state.result.end is HandEnd.VOID and state.result.points == (0, 0)
    outcome = match.finish_hand(state)
    assert not outcome.over
    assert match.counted_hands == 0 and match.scores == [0, 0]
    # The redeal opens as the first hand again: lowest double, not the later hands' highest.
    assert match.rank_list()[0] is tile_of(0, 0)


def test_e1_off_a_void_hand_does_not_move_the_rotation() -> None:
    """Hand 1 (counted) was opened by seat 0; hand 2 by seat 1 is a void block; the redeal is
    opened by seat 1 again, one on from the last counted opener (A10)."""
    rules = house(**E1_RULES, hand_sizes=E1_SIZES, first_opener="lottery", next_opener="rotate")
    match = Match(rules, 2)
    dealt = deal(rules, E1_HANDS)
    deal_again = ([dealt.hand_of(1), dealt.hand_of(0)], dealt.boneyard)
    first = match.start_hand(*deal_again, lottery=0)
    assert first is not None and first.opener == 0
    won = HandResult(HandEnd.DOMINO, 0, (0, 20), (0, 20), (0, 20), 0, first.rules.hand_scoring)
    match.finish_result(won, 0)
    second = match.start_hand(*deal_again)
    assert second is not None and second.opener == 1
    second.apply(1, play("0|0"))
    second.apply(0, PASS)
    second.apply(1, PASS)
    assert second.result is not None and second.result.end is HandEnd.VOID
    match.finish_hand(second)
    assert match.scores == [0, 20] and match.counted_hands == 1
    third = match.start_hand(*deal_again)
    assert third is not None and third.opener == 1


def test_e1_on_a_block_counts_and_the_next_hand_uses_the_later_rule() -> None:
    rules = house(must_draw_when_stuck=False, next_opener="highest-double")
    match = Match(rules, 2)
    dealt = deal(rules, E1_HANDS)
    state = match.start_hand([dealt.hand_of(0), dealt.hand_of(1)], dealt.boneyard)
    assert state is not None
    state.apply(0, play("0|0"))
    state.apply(1, PASS)
    state.apply(0, PASS)
    assert state.result is not None and state.result.end is HandEnd.BLOCK
    match.finish_hand(state)
    assert match.counted_hands == 1
    assert match.rank_list()[0] is tile_of(6, 6)


# -- S1 who records what -----------------------------------------------------------------


def test_s1_losers_own_every_loser_records_their_own_pips() -> None:
    assert domino(house(), (0, 8, 15)) == (0, 8, 15)


def test_s1_worst_own_only_the_worst_loser_records() -> None:
    assert domino(house(hand_scoring="worst-own"), (0, 8, 15)) == (0, 0, 15)


def test_s1_worst_own_tied_worst_losers_all_record() -> None:
    """[P] A11: all tied worst record."""
    assert domino(house(hand_scoring="worst-own"), (0, 15, 15)) == (0, 15, 15)


def test_s1_leader_takes_the_winner_records_the_others_pips() -> None:
    assert domino(house(**GOOD), (0, 8, 15)) == (23, 0, 0)


# -- S2 the block ------------------------------------------------------------------------

BLOCK_CASES = [
    # (overrides, block_scoring, points for pips 3, 8, 10)
    ({}, "lowest-takes", (0, 8, 10)),
    ({}, "lowest-takes-difference", (0, 5, 7)),
    ({}, "all-to-worst", (0, 0, 21)),
    ({"hand_scoring": "worst-own"}, "lowest-takes", (0, 0, 10)),
    ({"hand_scoring": "worst-own"}, "lowest-takes-difference", (0, 0, 7)),
    ({"hand_scoring": "worst-own"}, "all-to-worst", (0, 0, 21)),
    (GOOD, "lowest-takes", (18, 0, 0)),
    (GOOD, "lowest-takes-difference", (15, 0, 0)),
]


@pytest.mark.parametrize(("overrides", "how", "points"), BLOCK_CASES)
def test_s2_at_a_block(overrides: dict[str, str], how: str, points: tuple[int, ...]) -> None:
    assert block(house(**overrides, block_scoring=how), (3, 8, 10)) == points


@pytest.mark.parametrize(("overrides", "how", "points"), BLOCK_CASES)
def test_s2_at_a_domino_the_block_rule_does_not_apply(
    overrides: dict[str, str], how: str, points: tuple[int, ...]
) -> None:
    rules = house(**overrides, block_scoring=how)
    expected = domino(house(**overrides), (0, 8, 15))
    assert domino(rules, (0, 8, 15)) == expected


def test_s2_a_shared_lowest_wins_nothing_and_the_others_are_the_losers() -> None:
    assert block(house(), (3, 3, 10)) == (0, 0, 10)
    result = score_hand(house(**GOOD, block_scoring="lowest-takes"), HandEnd.BLOCK, (3, 3, 10))
    assert result.winner is None and result.points == (0, 0, 0)


def test_s2_all_to_worst_with_a_shared_worst_nobody_records() -> None:
    assert block(house(block_scoring="all-to-worst"), (3, 10, 10)) == (0, 0, 0)


def test_s2_all_to_worst_is_refused_when_the_leader_takes() -> None:
    with pytest.raises(InvalidRecord, match="would reward the worst hand"):
        house(**GOOD, block_scoring="all-to-worst")


# -- S3 rounding, S4 the minimum ---------------------------------------------------------


@pytest.mark.parametrize(
    ("rounding", "pips", "points"),
    [(5, (0, 12, 13), (0, 10, 15)), (10, (0, 14, 15), (0, 10, 20)), (1, (0, 12, 13), (0, 12, 13))],
)
def test_s3_rounding_to_the_nearest_multiple_halves_up(
    rounding: int, pips: tuple[int, ...], points: tuple[int, ...]
) -> None:
    result = score_hand(house(rounding=rounding), HandEnd.DOMINO, pips, 0)
    assert result.points == points
    assert result.amounts == pips  # the arithmetic still shows what was added up


def test_s4_below_the_minimum_nothing_is_recorded() -> None:
    """«меньше 13 не пишут»: 12 is dropped (not carried), 13 is written."""
    assert domino(house(min_record=13), (0, 12, 13)) == (0, 0, 13)


def test_s4_the_minimum_is_checked_after_rounding() -> None:
    """[P] A17: 13 rounds to 10 and is dropped; with a minimum of 14, 13 rounds to 15 and is
    written."""
    assert domino(house(min_record=13, rounding=10), (0, 13, 3)) == (0, 0, 0)
    assert domino(house(min_record=14, rounding=5), (0, 13, 3)) == (0, 15, 0)


# -- S5 the goal -------------------------------------------------------------------------


def test_s5_reach_wins_the_highest_at_the_target_wins_and_equal_best_draw() -> None:
    rules = house(**GOOD, targets=[[2, 100], [3, 100], [4, 100]])
    assert not match_outcome(rules, [99, 40]).over
    outcome = match_outcome(rules, [104, 40])
    assert outcome.over and outcome.winner == 0 and not outcome.draw
    assert match_outcome(rules, [100, 100]).draw


def test_s5_reach_loses_everyone_at_the_target_loses_and_the_lowest_wins() -> None:
    rules = house()  # 101 loses («козёл»)
    assert not match_outcome(rules, [100, 0, 50]).over
    outcome = match_outcome(rules, [101, 50, 120])
    assert outcome.over and outcome.winner == 1 and outcome.losers == (0, 2)


def test_s5_reach_loses_with_an_equal_lowest_is_a_draw() -> None:
    outcome = match_outcome(house(), [101, 50, 50])
    assert outcome.over and outcome.draw and outcome.winner is None
    assert outcome.losers == (0,)


def test_s5_fixed_hands_penalties_the_lowest_wins_after_the_agreed_hands() -> None:
    rules = house(goal="fixed-hands", hands_limit=3, targets=[])
    assert not match_outcome(rules, [5, 30], 2).over
    outcome = match_outcome(rules, [5, 30], 3)
    assert outcome.over and outcome.winner == 0
    assert match_outcome(rules, [5, 5], 3).draw


def test_s5_fixed_hands_gains_the_highest_wins() -> None:
    rules = house(**{**GOOD, "goal": "fixed-hands"}, hands_limit=3, targets=[])
    outcome = match_outcome(rules, [5, 30], 3)
    assert outcome.over and outcome.winner == 1


def test_s5_fixed_hands_a_void_hand_does_not_count() -> None:
    rules = house(**E1_RULES, hand_sizes=E1_SIZES, goal="fixed-hands", hands_limit=1, targets=[])
    match = Match(rules, 2)
    dealt = deal(rules, E1_HANDS)
    state = match.start_hand([dealt.hand_of(0), dealt.hand_of(1)], dealt.boneyard)
    assert state is not None
    state.apply(0, play("0|0"))
    state.apply(1, PASS)
    state.apply(0, PASS)
    assert not match.finish_hand(state).over


# -- records -----------------------------------------------------------------------------


def test_a_skip_is_written_to_the_record_and_replays() -> None:
    rules = house(two_doubles=True, drawing="never", first_opener="lottery")
    state = deal(rules, ["2|5 0|1 0|3 0|4 1|3 1|4 3|4", "2|2 5|5 2|3 1|1 0|0 0|2 0|5"])
    state.apply(0, play("2|5"))
    state.apply(1, play("2|2", "2|5", "low"))
    state.apply(1, SKIP)
    record = record_of(state, (0, 0))
    data = record.to_dict()
    assert data["actions"][-1] == {"seat": 1, "skip": True}
    replayed = replay(load_record(json.dumps(data)))
    assert replayed.state.history == state.history
    assert replayed.state.turn == 0


SIDE_RECORD: dict[str, Any] = {
    "rules": {"base": "house", "first_opener": "lottery", "drawing": "never"},
    "opener": 0,
    "hands": [
        ["0|3", "3|4", "1|1", "1|2", "1|3", "1|4", "1|5"],
        ["0|4", "1|6", "2|2", "2|3", "2|4", "2|5", "2|6"],
    ],
    "boneyard": [],
    "actions": [
        {"seat": 0, "play": "0|3"},
        {"seat": 1, "play": "0|4", "at": "0|3", "side": "low"},
        {"seat": 0, "play": "3|4", "side": "high"},
    ],
}


def side_record(**changes: Any) -> str:
    data = json.loads(json.dumps(SIDE_RECORD))
    data.update(changes)
    dealt = {parse_tile(t) for hand in data["hands"] for t in hand}
    data["boneyard"] = [t.key for t in TILES if t not in dealt]
    return json.dumps(data)


def test_a_side_without_at_is_refused_when_the_tile_fits_two_tiles_on_that_side() -> None:
    """[3|4] fits the high end of [0|3] (3) and the high end of [0|4] (4)."""
    with pytest.raises(InvalidRecord, match=r"fits open places on \[0\|3\] and \[0\|4\]"):
        replay(load_record(side_record()))
    actions = json.loads(json.dumps(SIDE_RECORD["actions"]))
    actions[2]["at"] = "0|4"
    outcome = replay(load_record(side_record(actions=actions)))
    assert outcome.state.line.connections[-1].table_tile is tile_of(0, 4)


def test_scores_may_be_negative_in_a_record() -> None:
    outcome = replay(load_record(side_record(scores=[-5, 12], actions=[])))
    assert outcome.scores == (-5, 12)
    assert Match(house(), 2, scores=[-5, 12]).scores == [-5, 12]


def test_the_record_of_the_hand_after_a_void_hand_replays() -> None:
    """The redeal after a void block is opened by the first hand's rule (lowest double), as if
    the void hand had not been played; its record carries the opening number (counted hands + 1,
    as the session writes it) and replays with that opening."""
    rules = house(**E1_RULES, hand_sizes=E1_SIZES, next_opener="highest-double")
    match = Match(rules, 2)
    dealt = deal(rules, E1_HANDS)
    first = match.start_hand([dealt.hand_of(0), dealt.hand_of(1)], dealt.boneyard)
    assert first is not None
    first.apply(0, play("0|0"))
    first.apply(1, PASS)
    first.apply(0, PASS)
    match.finish_hand(first)
    assert match.hand_number == 2  # the second hand dealt …
    number = match.opening_number
    assert number == 1  # … is opened as the first
    second = match.start_hand([dealt.hand_of(1), dealt.hand_of(0)], dealt.boneyard)
    assert second is not None and second.must_lead is tile_of(0, 0)
    second.apply(1, play("0|0"))
    record = record_of(second, tuple(match.scores), number)
    replayed = replay(load_record(json.dumps(record.to_dict())))
    assert replayed.state.history == second.history
