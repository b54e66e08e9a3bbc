"""Threes for luck (RULES_V2 §4.3): the awards 8, 5, 7 and +10, the penalties for drawn tiles,
cancelling, the five-draw limit and the settlement, played move by move."""

import json

import pytest

from p2p_dominoes.engine import (
    DRAW,
    PASS,
    PRESETS,
    HandEnd,
    HandState,
    IllegalAction,
    Place,
    Play,
    Rules,
    Side,
    actions_scored,
    load_record,
    parse_tile,
    record_of,
    replay,
    result_text,
    score_hand,
)
from tests.engine.dealing import deal

LUCK = PRESETS["threes-luck"]


def lay(tile: str, at: str | None = None, side: str | None = None, along: bool = False) -> Play:
    place = None if at is None else Place.of(parse_tile(at), Side(side or "A"))
    return Play(parse_tile(tile), place, along)


def told(state: HandState) -> list[tuple[str, int, str]]:
    """The awards and penalties the last action brought: (kind, points, why)."""
    return [(n.kind, n.points, n.why) for n in state.notes if n.kind in ("score", "penalty")]


def test_the_preset_has_the_values_of_the_rules_study() -> None:
    assert LUCK.hand_sizes == ((2, 6), (3, 6), (4, 5))
    assert LUCK.draw_limit == 5 and LUCK.ends_modulus == 3
    assert LUCK.move_scoring.value == "luck" and LUCK.hand_scoring.value == "luck-settlement"
    assert LUCK.goal.value == "fixed-hands" and LUCK.hands_limit == 1 and LUCK.targets == ()
    assert (LUCK.domino_bonus, LUCK.block_bonus) == (0, 0)


def _two_player_example() -> HandState:
    """§4.3's two-player example up to a9."""
    state = deal(LUCK, ["2|2 4|5 1|2", "2|4 0|5 1|4"], boneyard="1|1 0|3 2|5")
    state.apply(0, lay("2|2"))  # a1: S = 4
    assert told(state) == [("score", 8, "first-double")]
    state.apply(1, lay("2|4", "2|2", "A"))  # a2: S = 8
    assert told(state) == []
    state.apply(0, lay("4|5", "2|4", "high"))  # a3: S = 9
    assert told(state) == [("score", 5, "scoring-move")]
    for _ in range(3):  # a4–a6: voluntary draws while holding [0|5] (fits, scores nothing)
        assert lay("0|5", "4|5", "high") in state.legal_actions()
        state.apply(1, DRAW)
    state.apply(1, lay("2|5", "4|5", "high"))  # a7: S = 6 with the third drawn tile
    assert state.end_total() == 6
    assert told(state) == [("score", 10, "lucky-draw"), ("penalty", 10, "draws")]
    assert state.luck_tallies()[1] == (0, 0)  # +10 and 2 × 5 cancel
    state.apply(0, lay("1|2", "2|2", "B"))  # a8: S = 1 + 2 = 3
    assert told(state) == [("score", 5, "scoring-move")]
    state.apply(1, lay("1|4", "1|2", "low"))  # a9: S = 4 + 2 = 6
    assert told(state) == [("score", 5, "scoring-move")]
    return state


def test_the_two_player_example_totals_18_and_5() -> None:
    state = _two_player_example()
    assert state.luck_tallies() == ((18, 0), (5, 0))


def test_the_example_replays_from_its_record_with_each_actions_points() -> None:
    state = _two_player_example()
    data = record_of(state, (0, 0)).to_dict()
    data["rules"] = {"base": "threes-luck", "first_opener": "lottery"}  # no lead claim
    again = replay(load_record(json.dumps(data)))
    assert actions_scored(again.steps) == [
        {"action": 0, "seat": 0, "points": 8, "why": "first-double"},
        {"action": 2, "seat": 0, "points": 5, "why": "scoring-move"},
        {"action": 6, "seat": 1, "points": 10, "why": "lucky-draw"},
        {"action": 6, "seat": 1, "points": -10, "why": "penalty"},
        {"action": 7, "seat": 0, "points": 5, "why": "scoring-move"},
        {"action": 8, "seat": 1, "points": 5, "why": "scoring-move"},
    ]


def _ends_4_and_1() -> HandState:
    """Lead [3|3] (the first double, +8), [3|4] on side A (S = 10), [1|3] on side B (S = 5):
    the open ends are 4 and 1, and seat 1 holds a dealt [1|1]."""
    state = deal(LUCK, ["3|3 1|3", "3|4 1|1"])
    state.apply(0, lay("3|3"))
    state.apply(1, lay("3|4", "3|3", "A"))
    state.apply(0, lay("1|3", "3|3", "B"))
    assert sorted(p.value for p in state.line.places) == [1, 4]
    return state


def test_a_later_double_that_scores_brings_seven() -> None:
    state = _ends_4_and_1()
    state.apply(1, lay("1|1", "1|3", "low"))  # across: S = 4 + 2 = 6
    assert told(state) == [("score", 7, "scoring-double")]


def test_the_same_double_along_scores_nothing() -> None:
    state = _ends_4_and_1()
    state.apply(1, lay("1|1", "1|3", "low", along=True))  # along: S = 4 + 1 = 5
    assert told(state) == []


def test_the_first_double_brings_eight_whatever_the_ends_show() -> None:
    """[0|0] led: S = 0 is no scoring total, yet the first double of the hand gets 8."""
    state = deal(LUCK, ["0|0", "1|4"])
    state.apply(0, lay("0|0"))
    assert told(state) == [("score", 8, "first-double")]


def test_five_unproductive_draws_cost_25_and_a_sixth_is_refused() -> None:
    state = deal(LUCK, ["6|6", "5|6 0|1"], boneyard="0|2 0|3 0|4 0|5 1|2 1|3")
    state.apply(0, lay("6|6"))
    for _ in range(5):
        state.apply(1, DRAW)
    assert DRAW not in state.legal_actions()
    with pytest.raises(IllegalAction, match="at most 5 draws a turn"):
        state.apply(1, DRAW)
    state.apply(1, lay("5|6", "6|6", "A"))  # a dealt tile: S = 12 + 5 = 17, no score
    assert told(state) == [("penalty", 25, "draws")]
    assert state.luck_tallies() == ((8, 0), (0, 25))


def test_a_stuck_player_draws_until_five_then_passes_and_pays_for_each() -> None:
    state = deal(LUCK, ["6|6", "0|1 0|2 0|3 0|4 0|5 1|2"], boneyard="1|3 1|4 1|5 2|3 2|4")
    state.apply(0, lay("6|6"))
    for _ in range(5):
        assert state.legal_actions() == [DRAW]
        state.apply(1, DRAW)
    assert state.legal_actions() == [PASS]
    state.apply(1, PASS)
    assert told(state) == [("penalty", 25, "draws")]


def test_wins_cancel_penalties_as_they_come() -> None:
    """Seat 1 pays 25 for five draws, then scores 5 with a dealt tile: 0 wins, 20 penalty."""
    state = deal(LUCK, ["6|6 2|6", "5|6 1|5"], boneyard="0|2 0|3 0|4 0|5 1|2")
    state.apply(0, lay("6|6"))
    for _ in range(5):
        state.apply(1, DRAW)
    state.apply(1, lay("5|6", "6|6", "A"))  # S = 12 + 5 = 17
    assert state.luck_tallies()[1] == (0, 25)
    state.apply(0, lay("2|6", "6|6", "B"))  # S = 2 + 5 = 7
    state.apply(1, lay("1|5", "5|6", "low"))  # S = 2 + 1 = 3: +5
    assert told(state) == [("score", 5, "scoring-move")]
    assert state.luck_tallies()[1] == (0, 20)


def test_the_settlement_takes_the_losers_nets_from_the_winners() -> None:
    """A net +22, B −10, C +5: A wins and records 22 − (−10 + 5) = 27; with B at 0, 17."""
    result = score_hand(LUCK, HandEnd.DOMINO, [3, 4, 5], 0, tallies=[(22, 0), (0, 10), (5, 0)])
    assert result.points == (22, -10, 5)
    assert result.winner == 0 and result.settlement == (27, 0, 0) and result.recorded == (27, 0, 0)
    assert result_text(result) == (
        "Domino by seat 1; nets (wins − penalties): seat 1 +22, seat 2 -10, seat 3 +5; "
        "seat 1 wins and records 27."
    )
    again = score_hand(LUCK, HandEnd.DOMINO, [3, 4, 5], 0, tallies=[(22, 0), (0, 0), (5, 0)])
    assert again.settlement == (17, 0, 0)


def test_an_equal_best_net_settles_nothing() -> None:
    result = score_hand(LUCK, HandEnd.BLOCK, [3, 4], None, tallies=[(5, 0), (5, 0)])
    assert result.winner is None and result.recorded == (0, 0)


def test_a_settlement_is_never_negative() -> None:
    result = score_hand(LUCK, HandEnd.BLOCK, [3, 4, 5], None, tallies=[(5, 0), (4, 0), (3, 0)])
    assert result.winner == 0 and result.recorded == (0, 0, 0)


def test_no_bonus_for_going_out_in_threes_for_luck() -> None:
    one = Rules.from_dict({"base": "threes-luck", "hand_sizes": [[2, 1]]})
    state = deal(one, ["1|2", "4|6"])
    state.apply(0, lay("1|2"))  # S = 3: +5, and the hand is over
    assert state.result is not None and state.result.end is HandEnd.DOMINO
    assert state.result.points == (5, 0) and state.result.recorded == (5, 0)
