"""The `draw` preset hand by hand: deal sizes, the lead, matching, drawing, the reserve, passing."""

import pytest

from p2p_dominoes.engine import (
    DRAW,
    DRAW_RULES,
    PASS,
    HandEnd,
    HandState,
    IllegalAction,
    InvalidRecord,
    Place,
    Play,
    Side,
    parse_tile,
)
from tests.engine.dealing import deal, tiles

SIXES = "0|6 1|6 2|6 3|6 4|6 5|6 6|6"
NO_SIX = "0|0 0|1 0|2 0|3 0|4 0|5 1|1"
TWELVE_WITHOUT_SIX = "1|2 1|3 1|4 1|5 2|2 2|3 2|4 2|5 3|3 3|4 3|5 4|4"


def play(tile: str, at: str | None = None, side: str | None = None) -> Play:
    if at is None:
        return Play(parse_tile(tile))
    assert side is not None
    return Play(parse_tile(tile), Place.of(parse_tile(at), Side(side)))


@pytest.mark.parametrize(("players", "each", "boneyard"), [(2, 7, 14), (3, 7, 7), (4, 6, 4)])
def test_seven_each_for_two_or_three_six_each_for_four(
    players: int, each: int, boneyard: int
) -> None:
    assert DRAW_RULES.hand_size(players) == each
    state = deal(DRAW_RULES, [""] * players)
    assert [len(state.hand_of(s)) for s in range(players)] == [each] * players
    assert state.boneyard_size == boneyard


def test_a_deal_of_the_wrong_size_or_with_a_repeated_tile_is_refused() -> None:
    with pytest.raises(InvalidRecord, match="seat 1 was dealt 6 tiles; the rules deal 7"):
        HandState(DRAW_RULES, [tiles(SIXES), tiles(NO_SIX)[:6]], tiles(TWELVE_WITHOUT_SIX), 0)
    with pytest.raises(InvalidRecord, match=r"\[0\|6\] is dealt twice"):
        HandState(DRAW_RULES, [tiles(SIXES), tiles("0|6 " + NO_SIX)[:7]], [], 0)
    with pytest.raises(InvalidRecord, match="rules 'draw' are for 2, 3, 4 players, not 5"):
        deal(DRAW_RULES, [""] * 5)


def test_the_opener_may_lead_any_tile() -> None:
    state = deal(DRAW_RULES, ["1|2 3|3 0|6", ""], opener=0)
    leads = {p.tile.text for p in state.legal_plays()}
    assert leads == {t.text for t in state.hand_of(0)}
    state.apply(0, play("3|3"))
    assert state.turn == 1


def test_a_tile_must_match_an_open_end_and_a_blank_only_matches_a_blank() -> None:
    state = deal(DRAW_RULES, ["0|3", "3|5 4|5 0|1"])
    state.apply(0, play("0|3"))
    with pytest.raises(IllegalAction, match=r"seat 1 cannot play \[4\|5\]: \[4\|5\] fits no open"):
        state.apply(1, play("4|5", "0|3", "high"))
    with pytest.raises(IllegalAction, match=r"does not fit the 3 on \[0\|3\]"):
        state.apply(1, play("0|1", "0|3", "high"))
    state.apply(1, play("0|1", "0|3", "low"))
    assert [(p.tile.text, p.value) for p in state.line.sorted_places()] == [
        ("[0|1]", 1),
        ("[0|3]", 3),
    ]


def test_acting_out_of_turn_is_refused_and_changes_nothing() -> None:
    state = deal(DRAW_RULES, ["0|3", "3|5"])
    with pytest.raises(IllegalAction, match="seat 1 cannot play .*it is seat 0's turn"):
        state.apply(1, play("3|5"))
    assert state.line.is_empty and state.history == []


def test_playing_a_tile_you_do_not_hold_is_refused() -> None:
    state = deal(DRAW_RULES, ["0|3", "3|5"])
    with pytest.raises(IllegalAction, match=r"they do not hold \[3\|5\]"):
        state.apply(0, play("3|5"))


def test_you_may_draw_while_holding_a_playable_tile_and_the_turn_stays_with_you() -> None:
    state = deal(
        DRAW_RULES,
        ["0|6 1|6 2|6 4|6 5|6 6|6 1|1", "3|6 0|0 0|1 0|2 0|3 0|4 0|5"],
        boneyard="1|2 1|3",
    )
    state.apply(0, play("6|6"))
    assert DRAW in state.legal_actions()  # seat 1 holds [3|6], which fits, and may still draw
    state.apply(1, DRAW)
    assert state.turn == 1
    assert parse_tile("1|2") in state.hand_of(1)
    state.apply(1, DRAW)
    # Now play any fitting tile from the hand, not necessarily a new one.
    state.apply(1, play("3|6", "6|6", "A"))
    assert state.turn == 0


def test_with_no_matching_tile_you_must_draw_and_may_not_pass() -> None:
    state = deal(DRAW_RULES, [SIXES, NO_SIX], boneyard=TWELVE_WITHOUT_SIX)
    state.apply(0, play("6|6"))
    assert state.legal_actions() == [DRAW]
    with pytest.raises(
        IllegalAction, match="seat 1 cannot pass: they must draw while the boneyard"
    ):
        state.apply(1, PASS)


def test_the_last_two_tiles_are_never_drawn_and_only_then_may_you_pass() -> None:
    state = deal(DRAW_RULES, [SIXES, NO_SIX], boneyard=TWELVE_WITHOUT_SIX)
    state.apply(0, play("6|6"))
    for _ in range(12):
        state.apply(1, DRAW)
    assert state.boneyard_size == 2
    with pytest.raises(IllegalAction, match="holds 2 tiles, and the last 2 are never drawn"):
        state.apply(1, DRAW)
    assert state.legal_actions() == [PASS]
    state.apply(1, PASS)
    assert state.turn == 0 and state.passes == 1


def test_passing_while_holding_a_playable_tile_is_refused() -> None:
    state = deal(DRAW_RULES, [SIXES, NO_SIX], boneyard=TWELVE_WITHOUT_SIX)
    state.apply(0, play("6|6"))
    for _ in range(12):
        state.apply(1, DRAW)
    state.apply(1, PASS)
    state.apply(0, play("5|6", "6|6", "A"))
    with pytest.raises(IllegalAction, match=r"seat 1 cannot pass: they hold a playable tile"):
        state.apply(1, PASS)


def test_a_double_lies_crosswise_and_is_continued_with_its_own_number_only() -> None:
    state = deal(DRAW_RULES, ["1|4 6|6", "1|1 0|2"])
    state.apply(0, play("1|4"))
    state.apply(1, play("1|1", "1|4", "low"))
    assert sorted((p.side.value, p.value) for p in state.line.places) == [("B", 1), ("high", 4)]
    assert len(state.line.places) == 2  # two open ends, never a branch


def test_going_out_ends_the_hand_and_the_winner_scores_the_pips_left_in_hands() -> None:
    state = deal(
        DRAW_RULES,
        ["0|0 0|1 1|1 1|2 2|2 2|3 3|3", "0|4 4|4 4|5 5|5 5|6 6|6 4|6"],
        boneyard="1|3 1|4",
    )
    script = [
        play("0|0"),
        play("0|4", "0|0", "A"),
        play("0|1", "0|0", "B"),
        play("4|4", "0|4", "high"),
        play("1|1", "0|1", "high"),
        play("4|5", "4|4", "B"),
        play("1|2", "1|1", "B"),
        play("5|5", "4|5", "high"),
        play("2|2", "1|2", "high"),
        play("5|6", "5|5", "B"),
        play("2|3", "2|2", "B"),
        play("6|6", "5|6", "high"),
        play("3|3", "2|3", "high"),
    ]
    for index, move in enumerate(script):
        state.apply(index % 2, move)
    assert state.result is not None
    assert state.result.end is HandEnd.DOMINO
    assert state.result.winner == 0
    assert state.result.pips == (0, 10)  # [4|6] left; the boneyard counts for nobody
    assert state.result.points == (10, 0)
    with pytest.raises(IllegalAction, match="the hand is over"):
        state.apply(1, DRAW)
