"""Fives and Threes (RULES_V2 §4.1, §4.2): every worked example, played move by move.

Each placement scores S / m when the end total S is a positive multiple of m (5 or 3); a double
lies across or along as its player says; +2 for going out, +1 for the single lowest hand when the
hand ends by a block or an exhausted boneyard.
"""

import json
from typing import Any

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
    PublicHand,
    Rules,
    Side,
    describe,
    load_record,
    parse_tile,
    record_of,
    replay,
    result_text,
)
from p2p_dominoes.engine.description import note_text
from tests.engine.dealing import deal

FIVES = PRESETS["fives"]
THREES = PRESETS["threes"]


def rules(base: str, **overrides: Any) -> Rules:
    return Rules.from_dict({"base": base, **overrides})


def lay(tile: str, at: str | None = None, side: str | None = None, along: bool = False) -> Play:
    """A play: the tile, the table tile and side it goes on (none for the lead), and how a
    double lies."""
    place = None if at is None else Place.of(parse_tile(at), Side(side or "A"))
    return Play(parse_tile(tile), place, along)


def scored(state: HandState) -> list[int]:
    """The points the last action scored (empty when it scored nothing)."""
    return [n.points for n in state.notes if n.kind == "score"]


def run(state: HandState, *plays: tuple[int, Play]) -> list[tuple[int, list[int]]]:
    """Apply the plays; for each, the end total after it and the points it scored."""
    out = []
    for seat, play in plays:
        state.apply(seat, play)
        out.append((state.end_total(), scored(state)))
    return out


# -- Fives -----------------------------------------------------------------------------------


def test_fives_presets_have_the_values_of_the_rules_study() -> None:
    assert FIVES.hand_sizes == ((2, 6), (3, 6), (4, 5))
    assert FIVES.targets == ((2, 25), (3, 20), (4, 20))
    assert (FIVES.draw_limit, FIVES.domino_bonus, FIVES.block_bonus) == (1, 2, 1)
    assert FIVES.ends_modulus == 5 and FIVES.end_when_boneyard_empty
    assert FIVES.doubles.value == "choice" and FIVES.target_check.value == "immediate"
    assert THREES.ends_modulus == 3 and THREES.targets == ((2, 33), (3, 22), (4, 22))
    assert THREES.differences(FIVES) == ["targets", "ends_modulus"]


def test_fives_lead_2_3_scores_one() -> None:
    """ "2+3 – 1 очко"."""
    state = deal(FIVES, ["2|3", "1|4"])
    assert run(state, (0, lay("2|3"))) == [(5, [1])]
    assert state.move_points == [1, 0]


def test_fives_4_and_6_at_the_ends_score_two() -> None:
    """Lead [1|4], then [1|6] on the 1: 5 → 1, then 4 + 6 = 10 → 2 ("4+6 – 2 очка")."""
    state = deal(FIVES, ["1|4", "1|6"])
    assert run(state, (0, lay("1|4")), (1, lay("1|6", "1|4", "low"))) == [(5, [1]), (10, [2])]
    assert state.move_points == [1, 2]


def test_fives_4_4_and_6_6_across_at_the_two_ends_score_four() -> None:
    """ "Четыре очка … 4-4 и 6-6": 8, 14, 20 → 0, 0, 4."""
    state = deal(FIVES, ["4|4 6|6", "4|6"])
    steps = run(
        state,
        (0, lay("4|4")),
        (1, lay("4|6", "4|4", "A")),
        (0, lay("6|6", "4|6", "high")),
    )
    assert steps == [(8, []), (14, []), (20, [4])]
    assert note_text(state.notes[0]) == "Seat 1: +4 (20 at the ends)."
    assert note_text(state.notes[0], "ru") == "Место 1: +4 (сумма концов 20)."


def test_fives_the_same_6_6_laid_along_scores_nothing() -> None:
    state = deal(FIVES, ["4|4 6|6", "4|6"])
    steps = run(
        state,
        (0, lay("4|4")),
        (1, lay("4|6", "4|4", "A")),
        (0, lay("6|6", "4|6", "high", along=True)),
    )
    assert steps == [(8, []), (14, []), (14, [])]
    board = describe(state.line, "en", end_total=True)
    assert "[6|6] (end A)" in board and board.endswith("End total: 14.")


def test_fives_along_or_across_is_the_players_choice_and_it_matters() -> None:
    """Lead [4|4] along, [4|6] on end A → 4 + 6 = 10 (2 points); then [6|6] along keeps 10
    (2 more), across makes 16 (nothing)."""
    for along, last in ((True, (10, [2])), (False, (16, []))):
        state = deal(FIVES, ["4|4 6|6", "4|6"])
        steps = run(
            state,
            (0, lay("4|4", along=True)),
            (1, lay("4|6", "4|4", "A")),
            (0, lay("6|6", "4|6", "high", along=along)),
        )
        assert steps == [(8, []), (10, [2]), last]


def test_fives_offers_each_double_both_ways_lead_included() -> None:
    state = deal(FIVES, ["4|4 2|3", "4|6"])
    plays = [a for a in state.legal_actions() if isinstance(a, Play)]
    assert lay("4|4") in plays and lay("4|4", along=True) in plays
    assert lay("2|3") in plays and lay("2|3", along=True) not in plays
    with pytest.raises(IllegalAction, match="only a double may be laid along"):
        state.apply(0, lay("2|3", along=True))


def test_a_double_along_is_refused_when_doubles_are_not_the_players_choice() -> None:
    state = deal(rules("fives", doubles="across"), ["4|4", "4|6"])
    with pytest.raises(IllegalAction, match="only a double may be laid along"):
        state.apply(0, lay("4|4", along=True))


def test_fives_a_lead_0_0_scores_nothing() -> None:
    """S = 0 is a multiple of five but scores nothing [P]."""
    state = deal(FIVES, ["0|0", "1|4"])
    assert run(state, (0, lay("0|0"))) == [(0, [])]


def test_fives_going_out_adds_two() -> None:
    """The last tile laid makes S = 8 (no points) and its player goes out: +2."""
    two = rules("fives", hand_sizes=[[2, 2]], targets=[[2, 25]])
    state = deal(two, ["3|3 2|3", "3|6 1|1"])
    steps = run(
        state,
        (0, lay("3|3")),
        (1, lay("3|6", "3|3", "A")),
        (0, lay("2|3", "3|3", "B")),
    )
    assert steps == [(6, []), (12, []), (8, [])]
    assert state.result is not None
    assert state.result.end is HandEnd.DOMINO
    assert state.result.points == (2, 0) and state.result.bonuses == (2, 0)
    assert state.result.recorded == (2, 0)


def _blocked(seat0: str, seat1: str) -> HandState:
    """Two tiles each and no boneyard; [0|0] is led, seat 1 answers with [0|6], both pass."""
    no_draw = rules("fives", hand_sizes=[[2, 2]], targets=[[2, 25]], drawing="never")
    state = deal(no_draw, [seat0, seat1])
    state.apply(0, lay("0|0"))
    state.apply(1, lay("0|6", "0|0", "A"))
    state.apply(0, PASS)
    state.apply(1, PASS)
    return state


def test_fives_block_gives_one_to_the_single_lowest_hand() -> None:
    state = _blocked("0|0 1|3", "0|6 1|4")
    assert state.result is not None and state.result.end is HandEnd.BLOCK
    assert state.result.pips == (4, 5)
    assert state.result.points == (1, 0)
    assert result_text(state.result) == (
        "Block; bonus +1 to seat 1; points this hand: seat 1 1, seat 2 0."
    )
    assert result_text(state.result, "ru") == (
        "Рыба; надбавка +1: место 1; очки за партию: место 1 1, место 2 0."
    )


def test_fives_block_with_a_shared_lowest_gives_nobody_anything() -> None:
    state = _blocked("0|0 2|3", "0|6 1|4")
    assert state.result is not None and state.result.pips == (5, 5)
    assert state.result.points == (0, 0) and state.result.bonuses == ()


def test_fives_one_draw_a_turn_then_play_or_pass() -> None:
    state = deal(FIVES, ["6|6", "0|1 0|2 0|3 0|4 0|5 1|2"], boneyard="1|3 2|2")
    state.apply(0, lay("6|6"))
    assert state.legal_actions() == [DRAW]  # nothing fits the 6: the one draw is due
    state.apply(1, DRAW)
    assert state.legal_actions() == [PASS]  # [1|3] does not fit either; one draw a turn
    with pytest.raises(IllegalAction, match="at most 1 draws a turn"):
        state.apply(1, DRAW)
    state.apply(1, PASS)
    assert state.turn == 0


def test_fives_may_draw_one_while_holding_a_play() -> None:
    state = deal(FIVES, ["6|6", "4|6"], boneyard="1|3")
    state.apply(0, lay("6|6"))
    assert DRAW in state.legal_actions()
    state.apply(1, DRAW)
    assert DRAW not in state.legal_actions()


def test_fives_the_hand_ends_at_the_end_of_the_turn_that_empties_the_boneyard() -> None:
    """12 tiles each for two: 4 in the boneyard. Each seat draws once a turn; the turn that
    takes the last tile still plays it, then the hand ends ("exhausted"), the single lowest hand
    taking +1."""
    big = rules("fives", hand_sizes=[[2, 12]], targets=[[2, 25]])
    state = HandState(
        big,
        [
            [
                parse_tile(t)
                for t in [
                    "0|0",
                    "0|1",
                    "0|2",
                    "0|3",
                    "0|4",
                    "0|5",
                    "0|6",
                    "1|1",
                    "1|2",
                    "1|3",
                    "1|4",
                    "1|5",
                ]
            ],
            [
                parse_tile(t)
                for t in [
                    "1|6",
                    "2|2",
                    "2|3",
                    "2|4",
                    "2|5",
                    "2|6",
                    "3|3",
                    "3|4",
                    "3|5",
                    "3|6",
                    "4|4",
                    "4|5",
                ]
            ],
        ],
        [parse_tile(t) for t in ["4|6", "5|5", "5|6", "6|6"]],
        0,
    )
    turns = 0
    while state.result is None:
        seat = state.turn
        if DRAW in state.legal_actions():
            state.apply(seat, DRAW)
        plays = [a for a in state.legal_actions() if isinstance(a, Play)]
        state.apply(seat, plays[0] if plays else PASS)
        turns += 1
    assert state.boneyard_size == 0 and turns == 4
    assert state.result.end is HandEnd.EXHAUSTED
    pips = state.result.pips
    lowest = pips.index(min(pips))
    assert state.result.bonuses == tuple(1 if s == lowest else 0 for s in range(2))
    assert state.result.points[lowest] == state.move_points[lowest] + 1


# -- Threes ----------------------------------------------------------------------------------


def test_threes_lead_1_2_scores_one() -> None:
    state = deal(THREES, ["1|2", "4|6"])
    assert run(state, (0, lay("1|2"))) == [(3, [1])]


def test_threes_six_is_the_most_one_move_scores() -> None:
    """Lead [6|6] → 12 → 4; [1|6] on side A → 13; [1|2] on the 1 → 14; [2|6] on the 2 →
    12 + 6 = 18 → 6 ("до 6 очков (18:3=6)")."""
    plays = (
        (0, lay("6|6")),
        (1, lay("1|6", "6|6", "A")),
        (0, lay("1|2", "1|6", "low")),
        (1, lay("2|6", "1|2", "high")),
    )
    steps = run(deal(THREES, ["6|6 1|2", "1|6 2|6"]), *plays)
    assert steps == [(12, [4]), (13, []), (14, []), (18, [6])]
    # The same sequence under Fives scores nothing.
    assert [p for _, p in run(deal(FIVES, ["6|6 1|2", "1|6 2|6"]), *plays)] == [[]] * 4


def test_threes_a_double_across_on_the_five_makes_eighteen() -> None:
    plays = ((0, lay("4|4")), (1, lay("4|5", "4|4", "A")), (0, lay("5|5", "4|5", "high")))
    steps = run(deal(THREES, ["4|4 5|5", "4|5"]), *plays)
    assert steps == [(8, []), (13, []), (18, [6])]
    assert [p for _, p in run(deal(FIVES, ["4|4 5|5", "4|5"]), *plays)] == [[]] * 3


def test_threes_fifteen_scores_five_not_eight() -> None:
    """Lead [3|6], then [6|6] across on the 6: 3 + 12 = 15 → 5 (not Fives-and-Threes' 8)."""
    steps = run(deal(THREES, ["3|6", "6|6"]), (0, lay("3|6")), (1, lay("6|6", "3|6", "high")))
    assert steps == [(9, [3]), (15, [5])]


def test_ends_award_total_scores_the_whole_end_total() -> None:
    muggins = rules("fives", ends_award="total")
    assert run(deal(muggins, ["2|3", "1|4"]), (0, lay("2|3"))) == [(5, [5])]


def test_placed_tile_scores_the_pips_of_the_tile_laid() -> None:
    placed = rules("fives", move_scoring="placed-tile")
    state = deal(placed, ["2|3 0|0", "3|6"])
    assert run(state, (0, lay("2|3")), (1, lay("3|6", "2|3", "high"))) == [(5, [5]), (8, [9])]


def test_a_record_keeps_each_doubles_orientation() -> None:
    drawn_lead = rules("fives", first_opener="lottery")  # any seat may lead: no claim to check
    state = deal(drawn_lead, ["4|4 6|6", "4|6"])
    run(
        state,
        (0, lay("4|4", along=True)),
        (1, lay("4|6", "4|4", "A")),
        (0, lay("6|6", "4|6", "high", along=True)),
    )
    data = record_of(state, (0, 0)).to_dict()
    assert data["actions"][0] == {"seat": 0, "play": "4|4", "orient": "along"}
    assert data["actions"][2]["orient"] == "along" and "orient" not in data["actions"][1]
    again = replay(load_record(json.dumps(data)))
    assert again.state.history == state.history
    assert again.state.move_points == [2, 2]
    assert [n.points for s in again.steps for n in s.notes] == [2, 2]


@pytest.mark.parametrize("preset", ["draw", "draw-until-play", "block"])
def test_the_first_versions_rules_refuse_any_play_laid_along(preset: str) -> None:
    """Their fast path too, and the public check every peer makes of a received play."""
    rules_ = PRESETS[preset]
    hands = ["4|4 2|3 1|5 0|1 0|2 0|3 0|4", "4|6 1|1 2|2 3|3 5|5 6|6 0|5"]
    state = deal(rules_, hands)
    for play in (lay("4|4", along=True), lay("2|3", along=True)):
        with pytest.raises(IllegalAction, match="only a double may be laid along"):
            state.apply(0, play)
        public = PublicHand(rules_, 2, 0)
        with pytest.raises(IllegalAction, match="only a double may be laid along"):
            public.check_play(0, play)
    state.apply(0, lay("4|4"))  # laid across, as these rules always lay it
    with pytest.raises(IllegalAction, match="only a double may be laid along"):
        state.apply(1, lay("4|6", "4|4", "A", along=True))
    assert len(state.history) == 1
