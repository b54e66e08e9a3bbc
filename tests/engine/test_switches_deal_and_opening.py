"""House-rule switches of the deal and the opening (RULES_V2 §1.1 D2, D3, O1, O2; §1.2).

Each test is one switch value as a player would check it at the table: how many tiles each
seat gets, whether there is a boneyard, and who leads with what.
"""

from typing import Any

import pytest

from p2p_dominoes.engine import (
    DRAW,
    PASS,
    TILES,
    HandEnd,
    HandResult,
    IllegalAction,
    Match,
    Play,
    PublicHand,
    Rules,
    parse_tile,
    tile_of,
)
from p2p_dominoes.engine.opening import Opening, PreviousHands, opening
from tests.engine.dealing import deal, tiles


def house(**overrides: Any) -> Rules:
    """The house preset with some switches changed (the editor's «base + overrides»)."""
    return Rules.from_dict({"base": "house", **overrides})


def play(tile: str) -> Play:
    return Play(parse_tile(tile))


def hands(*texts: str) -> list[list[Any]]:
    return [tiles(t) for t in texts]


# -- D2 hand sizes, D3 no boneyard ---------------------------------------------------------


@pytest.mark.parametrize(("players", "each", "boneyard"), [(2, 5, 18), (3, 6, 10), (4, 7, 0)])
def test_d2_each_seat_is_dealt_the_hand_size_for_its_player_count(
    players: int, each: int, boneyard: int
) -> None:
    rules = house(hand_sizes=[[2, 5], [3, 6], [4, 7]])
    state = deal(rules, [""] * players)
    assert [len(state.hand_of(s)) for s in range(players)] == [each] * players
    assert state.boneyard_size == boneyard
    assert PublicHand(rules, players, 0).counts == [each] * players


def test_d2_four_times_seven_leaves_no_boneyard_so_a_stuck_seat_passes() -> None:
    """«вчетвером это весь набор и базара не остаётся»: nothing to draw, pass at once."""
    rules = house()
    state = deal(
        rules,
        [
            "0|0 0|1 0|2 0|3 0|4 0|5 0|6",
            "1|1 1|2 1|3 1|4 1|5 1|6 2|2",
            "2|3 2|4 2|5 2|6 3|3 3|4 3|5",
            "3|6 4|4 4|5 4|6 5|5 5|6 6|6",
        ],
    )
    assert state.boneyard_size == 0
    state.apply(0, play("0|0"))
    assert state.legal_actions() == [PASS]  # seat 1 holds no blank
    with pytest.raises(IllegalAction, match="the boneyard is empty"):
        state.apply(1, DRAW)


def test_d3_without_a_boneyard_nobody_ever_draws_and_a_stuck_seat_passes() -> None:
    """«вдвоём без базара … играешь тем, что дали»: the 14 undealt tiles stay out of play."""
    rules = house(drawing="never")
    state = deal(rules, ["0|0 0|1 0|2 0|3 0|4 0|5 0|6", "1|1 1|2 1|3 1|4 1|5 1|6 2|2"])
    assert state.boneyard_size == 14
    state.apply(0, play("0|0"))
    assert state.legal_actions() == [PASS]
    with pytest.raises(IllegalAction, match="these rules have no drawing"):
        state.apply(1, DRAW)
    public = PublicHand(rules, 2, 0)
    public.play(0, play("0|0"))
    with pytest.raises(IllegalAction, match="these rules have no drawing"):
        public.check_draw(1)
    state.apply(1, PASS)
    assert state.boneyard_size == 14 and state.turn == 0


# -- O1 every opening rule ---------------------------------------------------------------

NO_ZERO_DOUBLE = ("1|1 0|1 0|2 0|3 4|4 5|5 0|4", "2|2 3|3 0|5 0|6 1|2 1|3 6|6")


def opens(rules: Rules, dealt: list[list[Any]], hand: int = 1, **kw: Any) -> Opening:
    previous = kw.pop("previous", PreviousHands())
    return opening(rules, hand, dealt, kw.pop("lottery", None), previous)


def test_o1_lowest_double_the_holder_of_the_lowest_double_leads_it() -> None:
    """[0|0] is not dealt, so the holder of [1|1] leads it (and nothing else)."""
    found = opens(house(), hands(*NO_ZERO_DOUBLE))
    assert found == Opening(0, tile_of(1, 1))
    state = Match(house(), 2).start_hand(hands(*NO_ZERO_DOUBLE), tiles_except(*NO_ZERO_DOUBLE))
    assert state is not None and state.must_lead is tile_of(1, 1)
    assert [p.tile.text for p in state.legal_plays()] == ["[1|1]"]


def test_o1_highest_double_the_holder_of_the_highest_double_leads_it() -> None:
    rules = house(first_opener="highest-double")
    assert opens(rules, hands(*NO_ZERO_DOUBLE)) == Opening(1, tile_of(6, 6))
    dealt = hands("1|1 0|1 0|2 0|3 4|4 5|5 0|4", "2|2 3|3 0|5 0|6 1|2 1|3 1|6")
    assert opens(rules, dealt) == Opening(0, tile_of(5, 5))


@pytest.mark.parametrize(
    ("assigned", "seat", "double"),
    [(1, 0, 1), (2, 1, 2), (6, 1, 6), (0, 0, 1)],
)
def test_o2_assigned_double_then_the_next_ones_up_cyclically(
    assigned: int, seat: int, double: int
) -> None:
    """d:d, else (d+1):(d+1) … 6:6, then 0:0 … — with 0:0 undealt, d = 0 falls to 1:1."""
    rules = house(first_opener="assigned-double", assigned_double=assigned)
    assert opens(rules, hands(*NO_ZERO_DOUBLE)) == Opening(seat, tile_of(double, double))


def test_o2_assigned_double_wraps_from_six_six_to_zero_zero() -> None:
    """Kozel's order for d = 5: 5:5, 6:6, then 0:0, 1:1 … ([P] A3)."""
    dealt = hands("1|1 0|1 0|2 0|3 4|4 0|0 0|4", "2|2 3|3 0|5 0|6 1|2 1|3 1|4")
    rules = house(first_opener="assigned-double", assigned_double=5)
    assert opens(rules, dealt) == Opening(0, tile_of(0, 0))


ALL_DOUBLES = ("0|0 2|2 4|4 6|6 0|1 0|2 0|3", "1|1 3|3 5|5 0|4 0|5 0|6 1|2")


@pytest.mark.parametrize(
    ("weekday", "double", "seat"),
    [(1, 1, 1), (2, 2, 0), (3, 3, 1), (4, 4, 0), (5, 5, 1), (6, 6, 0), (7, 0, 0)],
)
def test_o1_weekday_double_monday_one_one_to_sunday_zero_zero(
    weekday: int, double: int, seat: int
) -> None:
    """[P] A4: the double of the day (Mon 1:1 … Sat 6:6, Sun 0:0)."""
    rules = house(first_opener="weekday-double", weekday=weekday)
    assert opens(rules, hands(*ALL_DOUBLES)) == Opening(seat, tile_of(double, double))


def test_o1_heaviest_tile_ties_go_to_the_higher_half() -> None:
    """[4|6] and [5|5] both weigh 10: [4|6] has the higher half ([P] A2)."""
    rules = house(first_opener="heaviest-tile")
    dealt = hands("5|5 0|1 0|2 0|3 1|1 1|2 1|3", "4|6 2|2 0|5 0|6 0|4 3|3 1|4")
    assert opens(rules, dealt) == Opening(1, tile_of(4, 6))
    dealt = hands("4|5 0|1 0|2 0|3 1|1 1|2 1|3", "3|6 2|2 0|5 0|6 0|4 3|3 1|4")
    assert opens(rules, dealt) == Opening(1, tile_of(3, 6))


@pytest.mark.parametrize(("lottery", "seat"), [(0, 0), (4, 1), (8, 2)])
def test_o1_lottery_the_random_input_picks_the_seat_who_leads_any_tile(
    lottery: int, seat: int
) -> None:
    rules = house(first_opener="lottery")
    assert opens(rules, three_hands(), lottery=lottery) == Opening(seat, None)


def test_o1_rotate_one_seat_on_from_the_previous_opener() -> None:
    rules = house(next_opener="rotate")
    dealt = hands(*NO_ZERO_DOUBLE)
    assert opens(rules, dealt, 2, previous=PreviousHands(1, 0)) == Opening(0, None)
    assert opens(rules, dealt, 2, previous=PreviousHands(0, 0)) == Opening(1, None)


def test_o1_previous_winner_leads_any_tile_in_the_next_hand() -> None:
    rules = house(next_opener="previous-winner")
    match = Match(rules, 3)
    three = three_hands()
    first = match.start_hand(three, tiles_except(*THREE))
    assert first is not None and first.opener == 0  # [0|0] opens the first hand
    match.finish_result(result(winner=2, players=3), first.opener)
    assert match.opening(three, None) == Opening(2, None)


def test_o1_previous_winner_after_a_hand_nobody_won_uses_the_fallback() -> None:
    rules = house(next_opener="previous-winner", next_fallback="rotate")
    match = Match(rules, 3)
    first = match.start_hand(three_hands(), tiles_except(*THREE))
    assert first is not None
    match.finish_result(result(winner=None, players=3), first.opener)
    assert match.opening(three_hands(), None) == Opening(1, None)


# -- O1 fallbacks ------------------------------------------------------------------------

NO_DOUBLE = ("0|1 0|2 0|3 0|4 1|2 1|3 4|5", "0|5 0|6 1|4 1|5 2|3 2|4 3|6")


def test_fallback_heaviest_tile_when_no_double_is_dealt() -> None:
    """House hands: the heaviest non-double ([3|6] of seat 1 beats [4|5]) opens."""
    assert opens(house(), hands(*NO_DOUBLE)) == Opening(1, tile_of(3, 6))


def test_fallback_lottery_when_no_double_is_dealt() -> None:
    rules = house(first_fallback="lottery")
    assert opens(rules, hands(*NO_DOUBLE), lottery=7) == Opening(1, None)


def test_fallback_previous_opener_opens_again() -> None:
    rules = house(next_fallback="previous-opener")
    previous = PreviousHands(opener=1, lead_seat=0)
    assert opens(rules, hands(*NO_DOUBLE), 2, previous=previous) == Opening(1, None)


def test_fallback_rotate_one_seat_on_from_the_previous_opener() -> None:
    rules = house(next_fallback="rotate")
    previous = PreviousHands(opener=1, lead_seat=0)
    assert opens(rules, hands(*NO_DOUBLE), 2, previous=previous) == Opening(0, None)


def test_fallback_redeal_makes_the_hand_void_and_the_redeal_opens_as_hand_one() -> None:
    """No double dealt → the hand is void before any turn; it is not counted, and the
    redeal is opened by the first hand's rule again (A10)."""
    rules = house(first_fallback="redeal", next_opener="highest-double")
    match = Match(rules, 2)
    dealt = hands(*NO_DOUBLE)
    assert opens(rules, dealt).void
    assert match.start_hand(dealt, tiles_except(*NO_DOUBLE)) is None
    outcome = match.void_hand()
    assert not outcome.over
    assert match.counted_hands == 0 and match.scores == [0, 0]
    assert match.results[-1].end is HandEnd.VOID
    again = match.start_hand(hands(*NO_ZERO_DOUBLE), tiles_except(*NO_ZERO_DOUBLE))
    assert again is not None and again.must_lead is tile_of(1, 1)  # lowest, not highest


# -- helpers ---------------------------------------------------------------------------------


def tiles_except(*texts: str) -> list[Any]:
    used = {t for text in texts for t in tiles(text)}
    return [t for t in TILES if t not in used]


THREE = (
    "0|0 0|1 0|2 0|3 0|4 0|5 0|6",
    "1|1 1|2 1|3 1|4 1|5 1|6 2|2",
    "2|3 2|4 2|5 2|6 3|3 3|4 3|5",
)


def three_hands() -> list[list[Any]]:
    return hands(*THREE)


def result(winner: int | None, players: int) -> HandResult:
    zeros = (0,) * players
    return HandResult(HandEnd.DOMINO if winner is not None else HandEnd.BLOCK, winner, zeros, zeros)
