"""The `draw-until-play` and `block` presets."""

import pytest

from p2p_dominoes.engine import (
    BLOCK,
    DRAW,
    DRAW_UNTIL_PLAY,
    PASS,
    HandEnd,
    IllegalAction,
    Match,
    Place,
    Play,
    Side,
    highest_double_lead,
    parse_tile,
)
from tests.engine.dealing import deal, tiles


def play(tile: str, at: str | None = None, side: str | None = None) -> Play:
    if at is None:
        return Play(parse_tile(tile))
    assert side is not None
    return Play(parse_tile(tile), Place.of(parse_tile(at), Side(side)))


@pytest.mark.parametrize(("players", "each"), [(2, 7), (3, 5), (4, 5)])
def test_draw_until_play_deals_seven_for_two_and_five_for_three_or_four(
    players: int, each: int
) -> None:
    assert DRAW_UNTIL_PLAY.hand_size(players) == each
    assert DRAW_UNTIL_PLAY.target(players) == 100


def test_draw_until_play_forbids_drawing_while_you_can_play() -> None:
    state = deal(DRAW_UNTIL_PLAY, ["6|6", "3|6"], boneyard="1|2")
    state.apply(0, play("6|6"))
    with pytest.raises(IllegalAction, match=r"drawing is allowed only with no playable tile"):
        state.apply(1, DRAW)


def test_a_drawn_tile_that_fits_must_be_played_at_once_and_that_ends_the_turn() -> None:
    state = deal(
        DRAW_UNTIL_PLAY,
        ["6|6 0|0 0|1 0|2 0|3 0|4 0|5", "1|1 1|2 1|3 1|4 1|5 2|2 2|3"],
        boneyard="2|4 4|6 3|6",
    )
    state.apply(0, play("6|6"))
    state.apply(1, DRAW)  # [2|4] does not fit: draw again
    assert state.pending is None
    state.apply(1, DRAW)  # [4|6] fits
    assert state.legal_actions() == [play("4|6", "6|6", "A")]  # one place: A and B are alike
    with pytest.raises(IllegalAction, match=r"the drawn tile \[4\|6\] fits and must be played"):
        state.apply(1, play("1|1"))
    with pytest.raises(IllegalAction, match=r"must be played at once"):
        state.apply(1, DRAW)
    state.apply(1, play("4|6", "6|6", "A"))
    assert state.turn == 0


def test_the_whole_boneyard_may_be_drawn_then_a_stuck_player_passes() -> None:
    hands = ["6|6 0|6 1|6 2|6 3|6", "1|1 1|2 1|3 1|4 1|5", "4|6 5|6 0|0 0|1 0|2"]
    state = deal(DRAW_UNTIL_PLAY, hands)
    assert state.boneyard_size == 13
    state.apply(0, play("6|6"))
    for _ in range(13):
        state.apply(1, DRAW)
    assert state.boneyard_size == 0
    with pytest.raises(IllegalAction, match="seat 1 cannot draw: the boneyard is empty"):
        state.apply(1, DRAW)
    assert state.legal_actions() == [PASS]
    state.apply(1, PASS)
    assert state.turn == 2


def test_draw_until_play_first_hand_is_led_by_the_highest_double_with_that_double() -> None:
    hands = [tiles("0|1 0|2 0|3 0|4 0|5 0|6 5|5"), tiles("1|2 1|3 1|4 1|5 1|6 3|3 2|3")]
    assert highest_double_lead(hands) == (0, parse_tile("5|5"))
    no_doubles = [tiles("3|6 1|2"), tiles("4|5 0|1")]
    assert highest_double_lead(no_doubles) == (0, parse_tile("3|6"))  # 9 pips each: higher half
    state = deal(DRAW_UNTIL_PLAY, ["5|5 0|1", "3|3"], opener=0, must_lead=parse_tile("5|5"))
    assert [p.tile.text for p in state.legal_plays()] == ["[5|5]"]
    with pytest.raises(IllegalAction, match=r"this hand must be led with \[5\|5\]"):
        state.apply(0, play("0|1"))


def test_draw_until_play_later_hands_are_led_by_the_previous_winner() -> None:
    match = Match(DRAW_UNTIL_PLAY, 2)
    first = deal(DRAW_UNTIL_PLAY, ["", ""])
    opener, must = match.next_opener([first.hand_of(0), first.hand_of(1)], lottery=None)
    assert must is not None and must.is_double
    match.openers.append(opener)
    from p2p_dominoes.engine import HandResult

    match.finish_result(HandResult(HandEnd.DOMINO, 1, (0, 10), (10, 0)), opener)
    assert match.next_opener([], None) == (1, None)
    match.openers.append(1)
    match.finish_result(HandResult(HandEnd.BLOCK, None, (0, 0), (5, 5)), 1)
    assert match.next_opener([], None) == (1, None)  # nobody won: the previous opener again


def test_block_preset_has_no_drawing_and_deals_all_28_to_four() -> None:
    state = deal(BLOCK, ["", "", "", ""])
    assert state.boneyard_size == 0
    assert all(len(state.hand_of(s)) == 7 for s in range(4))
    two = deal(BLOCK, ["0|0 1|1 1|2 2|2 2|3 3|3 3|4", "1|3 1|4 1|5 1|6 2|4 2|5 2|6"])
    two.apply(0, play("0|0"))
    assert two.legal_actions() == [PASS]
    with pytest.raises(IllegalAction, match="these rules have no drawing"):
        two.apply(1, DRAW)


def test_when_every_player_in_turn_passes_the_hand_is_blocked_and_scored() -> None:
    state = deal(BLOCK, ["0|0 1|1 1|2 2|2 2|3 3|3 3|4", "1|3 1|4 1|5 1|6 2|4 2|5 2|6"])
    state.apply(0, play("0|0"))
    state.apply(1, PASS)
    assert state.result is None
    state.apply(0, PASS)
    assert state.result is not None
    assert state.result.end is HandEnd.BLOCK
    assert state.result.pips == (2 + 3 + 4 + 5 + 6 + 7, 4 + 5 + 6 + 7 + 6 + 7 + 8)
    assert state.result.winner == 0
    assert state.result.points == (43 - 27, 0)
    assert state.result.arithmetic() == "43 − 27 = 16"
