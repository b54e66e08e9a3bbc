"""House-rule switches of the turn (RULES_V2 §1.1 T1, T2, X1, X2, X3, W1, W2, W3; the sketch
§4.1 the turn in order, §4.2 how a hand ends, §3.4 the end total, §3.5 the donkey rule).

Hands are dealt from tile lists and stepped action by action, as a player would at the table.
"""

import json
import random
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from p2p_dominoes.engine import (
    DRAW,
    PASS,
    PRESETS,
    Action,
    HandEnd,
    HandState,
    HandView,
    IllegalAction,
    InvalidRecord,
    Match,
    PeerView,
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
)
from p2p_dominoes.engine.actions import SKIP
from p2p_dominoes.engine.description import note_text
from p2p_dominoes.engine.rules import FIELDS, Doubles, Drawing, FieldSpec
from p2p_dominoes.engine.tiles import tiles_in
from p2p_dominoes.engine.turns import TurnNote
from p2p_dominoes.engine.view import legal_actions
from p2p_dominoes.simulation import deal as shuffle_and_deal
from tests.engine.dealing import deal
from tests.engine.end_count_oracle import PlayScorer, play_points
from tests.engine.test_properties import assert_tiles_conserved, recount


def house(**overrides: Any) -> Rules:
    """The house preset with some switches changed (the editor's «base + overrides»)."""
    return Rules.from_dict({"base": "house", **overrides})


def play(tile: str, at: str | None = None, side: str | None = None) -> Play:
    if at is None:
        return Play(parse_tile(tile))
    assert side is not None
    return Play(parse_tile(tile), Place.of(parse_tile(at), Side(side)))


def place(tile: str, side: str) -> Place:
    return Place.of(parse_tile(tile), Side(side))


def told(state: HandState, lang: str = "en") -> list[str]:
    """What the players are told the rules made happen after the last action."""
    return [note_text(note, lang) for note in state.notes]


def kinds(state: HandState) -> list[str]:
    """The legal actions in words: 'draw', 'pass', 'skip' or the tile played."""
    return [a.tile.text if isinstance(a, Play) else str(a) for a in state.legal_actions()]


# -- T1 doubles along ----------------------------------------------------------------------


def test_t1_a_double_along_has_ends_a_and_b_and_counts_once_in_the_end_total() -> None:
    """A lengthwise double is like any other tile: its two ends are «конец A»/«конец B» [P]
    and it adds its number once to S (the sketch §3.4: [4|4] along, [4|6] on end A → 10)."""
    state = deal(house(doubles="along"), ["4|4 6|6", "4|6"])
    state.apply(0, play("4|4"))
    assert state.end_total() == 8  # a lone lead double: 4 + 4
    state.apply(1, play("4|6", "4|4", "A"))
    assert state.end_total() == 10
    assert describe(state.line) == (
        "Tiles: [4|4], [4|6]. Connections: [4|4] (end A) – [4|6] (low end). "
        "Open places: [4|4] (end B, 4); [4|6] (high end, 6)."
    )
    assert "[4|4] (конец A) – [4|6]" in describe(state.line, "ru")
    assert "[4|4] (конец B, 4)" in describe(state.line, "ru")
    state.apply(0, play("6|6", "4|6", "high"))
    assert state.end_total() == 10  # [6|6] along counts 6, not 12


def test_t1_a_double_across_counts_both_halves_while_it_ends_the_line() -> None:
    state = deal(house(), ["4|4 6|6", "4|6"])
    state.apply(0, play("4|4"))
    state.apply(1, play("4|6", "4|4", "A"))
    assert state.end_total() == 14
    state.apply(0, play("6|6", "4|6", "high"))
    assert state.end_total() == 20


# -- T2 two doubles a turn -------------------------------------------------------------------

T2_HANDS = ["2|5 0|1 0|3 0|4 1|3 1|4 3|4", "2|2 5|5 2|3 1|1 0|0 0|2 0|5"]


def test_t2_after_a_double_only_a_second_double_or_skip_may_follow() -> None:
    state = deal(house(two_doubles=True, drawing="never"), T2_HANDS)
    state.apply(0, play("2|5"))
    state.apply(1, play("2|2", "2|5", "low"))
    assert state.turn == 1 and state.second_double
    assert told(state) == ["Seat 2 may lay a second double, or skip."]
    assert kinds(state) == ["[5|5]", "skip"]
    with pytest.raises(IllegalAction, match="after a double only a second double may follow"):
        state.apply(1, play("0|5", "2|5", "high"))
    with pytest.raises(IllegalAction, match="seat 1 cannot pass"):
        state.apply(1, PASS)
    public = PublicHand(state.rules, 2, 0)
    public.play(0, play("2|5"))
    public.play(1, play("2|2", "2|5", "low"))
    with pytest.raises(IllegalAction, match="only a second double or skip may follow"):
        public.check_pass(1)
    state.apply(1, play("5|5", "2|5", "high"))
    assert state.turn == 0 and not state.second_double  # at most two: the turn is over


def test_t2_the_russian_note_starts_its_sentence_with_a_capital() -> None:
    state = deal(house(two_doubles=True, drawing="never"), T2_HANDS)
    state.apply(0, play("2|5"))
    state.apply(1, play("2|2", "2|5", "low"))
    assert told(state, "ru") == ["Место 2 может положить второй дубль или пропустить."]


def test_t2_skip_declines_the_second_double_and_ends_the_turn() -> None:
    state = deal(house(two_doubles=True, drawing="never"), T2_HANDS)
    state.apply(0, play("2|5"))
    state.apply(1, play("2|2", "2|5", "low"))
    state.apply(1, SKIP)
    assert state.turn == 0 and not state.second_double
    assert state.history[-1] == (1, SKIP)


def test_t2_a_double_lead_also_offers_a_second_double_or_skip() -> None:
    """[P] the sketch §4.1: after any double (the lead too) the seat gets one more action,
    publicly: no second double fits a lone [3|3], so only skip is left."""
    state = deal(house(two_doubles=True, drawing="never"), ["3|3 5|5", "0|0"])
    state.apply(0, play("3|3"))
    assert state.turn == 0 and state.legal_actions() == [SKIP]
    state.apply(0, SKIP)
    assert state.turn == 1


def test_t2_skip_is_refused_except_right_after_a_double() -> None:
    state = deal(house(two_doubles=True, drawing="never"), T2_HANDS)
    with pytest.raises(IllegalAction, match="there is no second double to decline"):
        state.apply(0, SKIP)
    state.apply(0, play("2|5"))
    with pytest.raises(IllegalAction, match="there is no second double to decline"):
        state.apply(1, SKIP)


def test_t2_with_the_switch_off_a_double_ends_the_turn() -> None:
    state = deal(house(drawing="never"), T2_HANDS)
    state.apply(0, play("2|5"))
    state.apply(1, play("2|2", "2|5", "low"))
    assert state.turn == 0 and not state.second_double
    with pytest.raises(IllegalAction, match="there is no second double to decline"):
        state.apply(0, SKIP)


def test_t2_a_second_double_may_not_be_drawn_for() -> None:
    """While a second double may follow, drawing is not one of the choices."""
    state = deal(house(two_doubles=True), T2_HANDS)
    state.apply(0, play("2|5"))
    state.apply(1, play("2|2", "2|5", "low"))
    with pytest.raises(IllegalAction, match="only a second double or skip may follow"):
        state.apply(1, DRAW)


# -- X1 the donkey rule ------------------------------------------------------------------

X1_HANDS = [
    "1|2 3|4 0|0 0|1 0|2 0|3 0|4",
    "2|2 4|5 1|1 1|4 1|5 1|6 2|5",
    "1|3 2|6 0|6 2|3 2|4 0|5 3|3",
]


def donkey_start(**overrides: Any) -> HandState:
    """[1|2] led, [2|2] laid on its 2 by seat 1: seat 1's double starts a clock."""
    state = deal(house(double_closes_ray=True, drawing="never", **overrides), X1_HANDS)
    state.apply(0, play("1|2"))
    state.apply(1, play("2|2", "1|2", "high"))
    return state


def test_x1_an_uncovered_double_closes_at_the_end_of_its_layers_next_turn() -> None:
    state = donkey_start()
    state.apply(2, play("1|3", "1|2", "low"))
    state.apply(0, play("3|4", "1|3", "high"))
    assert place("2|2", "B") in state.line.places  # not yet: seat 1 has not had its turn
    state.apply(1, play("4|5", "3|4", "high"))
    assert state.closed == [place("2|2", "B")]
    assert told(state) == ["Nobody covered [2|2]: that place is closed for good."]
    assert told(state, "ru") == ["[2|2] никто не покрыл: это место закрыто навсегда."]
    assert state.line.places == [place("4|5", "high")]
    assert state.end_total() == 5  # the closed double adds nothing
    with pytest.raises(IllegalAction, match="that place is closed"):
        state.apply(2, play("2|6", "2|2", "B"))
    assert describe(state.line).endswith("Closed places: [2|2] (side B, 2).")
    assert "Закрытые места: [2|2] (линия B, 2)." in describe(state.line, "ru")


def test_x1_the_double_may_be_covered_until_then_even_by_its_layer() -> None:
    state = donkey_start()
    state.apply(2, play("1|3", "1|2", "low"))
    state.apply(0, play("3|4", "1|3", "high"))
    state.apply(1, play("2|5", "2|2", "B"))
    assert state.closed == []
    assert {p.value for p in state.line.places} == {4, 5}


def test_x1_a_double_covered_at_once_never_closes() -> None:
    state = donkey_start()
    state.apply(2, play("2|6", "2|2", "B"))
    state.apply(0, play("0|1", "1|2", "low"))
    state.apply(1, play("1|6", "2|6", "high"))
    assert state.closed == []


def test_x1_an_extra_turn_does_not_shorten_the_window() -> None:
    """Seat 1's [2|2] makes S = 1 + 4 = 5, an extra turn; that turn began before the others
    had one, so the clock runs on to seat 1's next turn (the sketch §3.5)."""
    hands = [
        "1|2 0|6 3|3 3|5 3|6 5|5 5|6",
        "2|2 1|4 0|5 0|0 0|1 0|2 0|3",
        "4|6 0|4 1|1 1|3 1|5 1|6 2|3",
    ]
    state = deal(house(double_closes_ray=True, drawing="never", extra_turn_sum=5), hands)
    state.apply(0, play("1|2"))
    state.apply(1, play("2|2", "1|2", "high"))
    assert state.turn == 1  # S = 5: the extra turn
    state.apply(1, play("1|4", "1|2", "low"))
    assert state.turn == 2 and state.closed == []
    state.apply(2, play("4|6", "1|4", "high"))
    state.apply(0, play("0|6", "4|6", "high"))
    assert state.closed == []
    state.apply(1, play("0|5", "0|6", "low"))
    assert state.closed == [place("2|2", "B")]


def test_x1_an_extra_turn_after_the_window_does_not_lengthen_it() -> None:
    """Seat 1's next turn ends on S = 10, an extra turn: the double still closes at the end of
    that turn, and the extra turn cannot cover it."""
    state = deal(
        house(double_closes_ray=True, drawing="never", extra_turn_sum=10),
        ["1|2 1|3 0|0 0|1 0|3 0|4 0|5", "2|2 3|3 2|5 1|1 1|4 1|5 1|6"],
    )
    state.apply(0, play("1|2"))
    state.apply(1, play("2|2", "1|2", "high"))
    state.apply(0, play("1|3", "1|2", "low"))
    state.apply(1, play("3|3", "1|3", "high"))
    assert state.turn == 1  # S = 6 + 4 = 10
    assert state.closed == [place("2|2", "B")]
    assert state.end_total() == 6
    with pytest.raises(IllegalAction, match="that place is closed"):
        state.apply(1, play("2|5", "2|2", "B"))


def test_x1_when_every_place_is_closed_the_hand_is_blocked_at_once() -> None:
    """Both ends become uncovered doubles; each closes after its layer's draw-and-pass turn.
    The draws reset the pass counter, so it is the closures, not the passes, that block."""
    rules = house(double_closes_ray=True, draw_limit=1)
    state = deal(
        rules,
        ["1|2 1|1 0|0 0|3 0|4 0|5 0|6", "2|2 3|3 3|4 3|5 3|6 4|4 4|5"],
        boneyard="4|6 5|5",
    )
    state.apply(0, play("1|2"))
    state.apply(1, play("2|2", "1|2", "high"))
    state.apply(0, play("1|1", "1|2", "low"))
    state.apply(1, DRAW)
    state.apply(1, PASS)
    assert state.closed == [place("2|2", "B")] and state.result is None
    state.apply(0, DRAW)
    state.apply(0, PASS)
    assert state.passes == 1
    assert state.result is not None and state.result.end is HandEnd.BLOCK
    assert state.line.places == []


def test_x1_off_an_uncovered_double_stays_open() -> None:
    state = deal(house(drawing="never"), X1_HANDS)
    state.apply(0, play("1|2"))
    state.apply(1, play("2|2", "1|2", "high"))
    state.apply(2, play("1|3", "1|2", "low"))
    state.apply(0, play("3|4", "1|3", "high"))
    state.apply(1, play("4|5", "3|4", "high"))
    assert state.closed == [] and place("2|2", "B") in state.line.places


# -- X2 extra turn on an exact end total -----------------------------------------------------


def test_x2_an_end_total_of_exactly_n_gives_the_same_seat_another_turn() -> None:
    state = deal(house(extra_turn_sum=7, drawing="never"), ["3|4 4|5", "0|0"])
    state.apply(0, play("3|4"))
    assert state.end_total() == 7 and state.turn == 0
    assert told(state) == ["The ends total 7: seat 1 moves again."]
    assert told(state, "ru") == ["Сумма концов 7: место 1 ходит ещё раз."]
    state.apply(0, play("4|5", "3|4", "high"))
    assert state.end_total() == 8 and state.turn == 1
    assert told(state) == []


def test_x2_a_multiple_of_n_is_not_n() -> None:
    state = deal(house(extra_turn_sum=7, drawing="never"), ["2|6 0|0", "6|6 0|1"])
    state.apply(0, play("2|6"))
    state.apply(1, play("6|6", "2|6", "high"))
    assert state.end_total() == 14 and state.turn == 0


def test_x2_extra_turns_chain_while_the_total_stays_n() -> None:
    state = deal(house(extra_turn_sum=7, doubles="along", drawing="never"), ["3|4 4|4 3|5", "0|0"])
    state.apply(0, play("3|4"))
    state.apply(0, play("4|4", "3|4", "high"))
    assert state.end_total() == 7 and state.turn == 0
    state.apply(0, play("3|5", "3|4", "low"))
    assert state.end_total() == 9 and state.turn == 1


def test_x2_a_turn_that_ends_in_a_pass_gives_no_extra_turn() -> None:
    state = deal(
        house(extra_turn_sum=6, drawing="never"),
        ["3|3 0|0 0|1 0|2 0|4 0|5 0|6", "1|1 1|2 1|4 1|5 1|6 2|2 2|4"],
    )
    state.apply(0, play("3|3"))
    assert state.turn == 0  # S = 6
    assert state.legal_actions() == [PASS]
    state.apply(0, PASS)
    assert state.turn == 1


# -- X3 the next seat draws two first ------------------------------------------------------

X3_HANDS = ["3|4 0|0 0|1 0|2 0|5 0|6 1|1", "4|5 1|2 1|5 1|6 2|2 2|5 2|6"]


def test_x3_the_next_seat_must_first_draw_two_even_holding_a_playable_tile() -> None:
    """Under «draw only when stuck» too: forced draws come first (A27, the sketch §4.1)."""
    state = deal(house(forced_draw_sum=7), X3_HANDS, boneyard="0|3 0|4 1|3")
    state.apply(0, play("3|4"))
    assert state.turn == 1 and state.forced_due == 2
    assert told(state) == ["The ends total 7: seat 2 must first draw 2."]
    assert told(state, "ru") == ["Сумма концов 7: место 2 сначала берёт из базара 2."]
    assert state.legal_actions() == [DRAW]
    with pytest.raises(IllegalAction, match="they must first draw 2"):
        state.apply(1, play("4|5", "3|4", "high"))
    with pytest.raises(IllegalAction, match="seat 1 cannot pass"):
        state.apply(1, PASS)
    public = PublicHand(state.rules, 2, 0)
    public.play(0, play("3|4"))
    with pytest.raises(IllegalAction, match="they must first draw 2"):
        public.check_pass(1)
    state.apply(1, DRAW)
    assert state.forced_due == 1
    state.apply(1, DRAW)
    assert state.forced_due == 0 and state.drawn_this_turn == 0
    assert DRAW not in state.legal_actions()  # holding [4|5]: when-stuck forbids more
    state.apply(1, play("4|5", "3|4", "high"))
    assert state.turn == 0


def test_x3_forced_draws_do_not_count_against_the_draw_limit() -> None:
    """One draw a turn (W1 «одну кость и пас»), and still one after the two forced ones."""
    hands = ["3|4 0|0 0|1 0|2 0|5 0|6 1|1", "1|2 1|5 1|6 2|2 2|5 2|6 5|5"]
    state = deal(house(forced_draw_sum=7, draw_limit=1), hands, boneyard="5|6 6|6 0|3")
    state.apply(0, play("3|4"))
    state.apply(1, DRAW)
    state.apply(1, DRAW)
    assert state.forced_due == 0 and state.drawn_this_turn == 0
    assert state.legal_actions() == [DRAW]  # still stuck, and the limit is not used up
    state.apply(1, DRAW)
    assert state.drawn_this_turn == 1
    assert kinds(state) == ["[0|3]"]


def test_x3_only_as_many_as_the_boneyard_can_give() -> None:
    """Thirteen each and a reserve of one: one drawable tile, so one forced draw."""
    rules = house(hand_sizes=[[2, 13], [3, 7], [4, 6]], reserve=1, forced_draw_sum=7)
    state = deal(
        rules,
        ["3|4 0|0 0|1 0|2 0|5 0|6 1|1 0|3 0|4 1|2 1|3 1|4 1|5", "4|5"],
        boneyard="6|6 5|5",
    )
    state.apply(0, play("3|4"))
    assert state.forced_due == 2
    state.apply(1, DRAW)
    assert state.forced_due == 0 and state.boneyard_size == 1
    state.apply(1, play("4|5", "3|4", "high"))


def test_x3_with_nothing_drawable_no_draw_is_due() -> None:
    state = deal(house(forced_draw_sum=7, drawing="never"), X3_HANDS)
    state.apply(0, play("3|4"))
    assert state.forced_due == 0
    state.apply(1, play("4|5", "3|4", "high"))


# -- W1 the three draw rules, W2 the last tile, W3 drawing while holding a play ----------------

W_HANDS = ["0|0 3|3 3|4 3|5 3|6 4|4 4|5", "1|1 1|2 1|3 1|4 1|5 1|6 2|2"]
"""Seat 0 leads [0|0]; seat 1 holds no blank, so it is stuck."""


def test_w1_until_play_a_stuck_seat_draws_until_a_tile_fits_then_must_play() -> None:
    state = deal(house(), W_HANDS, boneyard="2|3 5|5 0|2 0|3")
    state.apply(0, play("0|0"))
    assert state.legal_actions() == [DRAW]
    with pytest.raises(IllegalAction, match="they must draw while the boneyard holds more"):
        state.apply(1, PASS)
    state.apply(1, DRAW)
    state.apply(1, DRAW)
    assert state.legal_actions() == [DRAW]
    state.apply(1, DRAW)  # [0|2] fits
    assert kinds(state) == ["[0|2]"]
    with pytest.raises(IllegalAction, match=r"drawing is allowed only with no playable tile"):
        state.apply(1, DRAW)


def test_w1_one_then_pass_a_stuck_seat_draws_one_and_passes_if_it_does_not_fit() -> None:
    state = deal(house(draw_limit=1), W_HANDS, boneyard="2|3 0|2")
    state.apply(0, play("0|0"))
    state.apply(1, DRAW)
    assert state.legal_actions() == [PASS]
    with pytest.raises(IllegalAction, match="at most 1 draws a turn"):
        state.apply(1, DRAW)
    state.apply(1, PASS)
    assert state.turn == 0 and state.boneyard_size == 13


def test_w1_one_then_pass_every_turn_has_its_own_draw() -> None:
    """The limit is per turn: after seat 1 drew its one tile and passed, seat 0 (stuck too)
    must draw its own one."""
    state = deal(
        house(draw_limit=1),
        ["0|0 3|3 3|4 3|5 3|6 4|4 4|5", W_HANDS[1]],
        boneyard="2|3 5|5 0|2",
    )
    state.apply(0, play("0|0"))
    state.apply(1, DRAW)
    state.apply(1, PASS)
    assert state.turn == 0 and state.drawn_this_turn == 0
    assert state.legal_actions() == [DRAW]


def test_w1_one_then_pass_a_drawn_tile_that_fits_must_be_played() -> None:
    state = deal(house(draw_limit=1), W_HANDS, boneyard="0|2 2|3")
    state.apply(0, play("0|0"))
    state.apply(1, DRAW)
    assert kinds(state) == ["[0|2]"]
    with pytest.raises(IllegalAction, match=r"they hold a playable tile \(\[0\|2\]\)"):
        state.apply(1, PASS)


def test_w1_at_will_a_stuck_seat_may_pass_instead_of_drawing() -> None:
    """«прикуп по желанию» [P] A8: a seat with no play may draw or pass, as it likes."""
    state = deal(house(must_draw_when_stuck=False), W_HANDS, boneyard="2|3 0|2")
    state.apply(0, play("0|0"))
    assert state.legal_actions() == [DRAW, PASS]
    state.apply(1, PASS)
    assert state.turn == 0 and state.boneyard_size == 14


def test_w1_at_will_a_seat_holding_a_playable_tile_may_not_pass() -> None:
    state = deal(house(must_draw_when_stuck=False), W_HANDS, boneyard="2|3 0|2")
    state.apply(0, play("0|0"))
    state.apply(1, DRAW)
    state.apply(1, DRAW)  # [0|2] fits now
    with pytest.raises(IllegalAction, match=r"they hold a playable tile"):
        state.apply(1, PASS)


def test_the_pass_counter_resets_on_draws_so_only_pass_only_turns_block() -> None:
    """With voluntary passes, a pass, then a draw-and-pass, then a pass is not a block yet."""
    state = deal(
        house(must_draw_when_stuck=False),
        ["0|0 3|3 3|4 3|5 3|6 4|4 4|5", W_HANDS[1]],
        boneyard="2|3 5|5",
    )
    state.apply(0, play("0|0"))
    state.apply(1, PASS)
    assert state.passes == 1
    state.apply(0, DRAW)
    assert state.passes == 0
    state.apply(0, PASS)
    assert state.passes == 1 and state.result is None
    state.apply(1, PASS)
    assert state.result is not None and state.result.end is HandEnd.BLOCK


THIRTEEN = [
    "0|0 0|1 0|2 0|3 0|4 0|5 0|6 1|1 1|2 1|3 1|4 1|5 1|6",
    "2|2 2|3 2|4 2|5 2|6 3|3 3|4 3|5 3|6 4|4 4|5 4|6 5|5",
]
"""Thirteen each: seat 1 holds no blank and the boneyard is [5|6] [6|6]."""


def test_w2_reserve_zero_the_last_tile_may_be_taken() -> None:
    state = deal(house(hand_sizes=[[2, 13], [3, 7], [4, 6]]), THIRTEEN)
    state.apply(0, play("0|0"))
    state.apply(1, DRAW)
    state.apply(1, DRAW)
    assert state.boneyard_size == 0
    with pytest.raises(IllegalAction, match="the boneyard is empty"):
        state.apply(1, DRAW)
    assert state.legal_actions() == [PASS]


def test_w2_reserve_one_the_last_tile_is_never_taken() -> None:
    state = deal(house(hand_sizes=[[2, 13], [3, 7], [4, 6]], reserve=1), THIRTEEN)
    state.apply(0, play("0|0"))
    state.apply(1, DRAW)
    assert state.boneyard_size == 1
    with pytest.raises(IllegalAction, match="holds 1 tiles, and the last 1 are never drawn"):
        state.apply(1, DRAW)
    assert state.legal_actions() == [PASS]


def test_w2_reserve_one_on_house_keeps_a_reserve_with_two_players() -> None:
    """house with `reserve: 1` (no longer refused for the four-player deal): two players deal
    7 each and leave 14; seat 1, holding no blank, draws 13 and the last tile stays."""
    rules = house(reserve=1)
    state = deal(rules, ["0|0 0|1 0|2 0|3 0|4 0|5 0|6", "1|1 1|2 1|3 1|4 1|5 1|6 2|2"])
    state.apply(0, play("0|0"))
    for _ in range(13):
        state.apply(1, DRAW)
    assert state.boneyard_size == 1 and state.drawable == 0
    with pytest.raises(IllegalAction, match="holds 1 tiles, and the last 1 are never drawn"):
        state.apply(1, DRAW)
    assert state.legal_actions() == [PASS]


def test_w2_reserve_one_on_house_with_four_players_plays_normally() -> None:
    """Four take the whole set: no boneyard, so no reserve; a stuck seat passes, and nothing
    speaks of a reserve the table does not have."""
    rules = house(reserve=1)
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
    assert state.legal_actions() == [PASS] and state.drawable == 0
    with pytest.raises(IllegalAction, match="the boneyard is empty"):
        state.apply(1, DRAW)
    for seat in (1, 2, 3):
        state.apply(seat, PASS)
    state.apply(0, play("0|1", "0|0", "A"))
    state.apply(1, play("1|1", "0|1", "high"))
    assert state.result is None and state.turn == 2


def test_w3_any_time_a_seat_may_draw_while_holding_a_playable_tile() -> None:
    state = deal(house(drawing="any-time"), W_HANDS, boneyard="0|2 0|3 2|3")
    state.apply(0, play("0|0"))
    state.apply(1, DRAW)  # [0|2] fits
    assert DRAW in state.legal_actions()
    state.apply(1, DRAW)
    state.apply(1, DRAW)
    assert state.turn == 1 and state.drawn_this_turn == 3


def test_w3_when_stuck_a_seat_holding_a_playable_tile_may_not_draw() -> None:
    state = deal(house(), W_HANDS, boneyard="0|2 0|3 2|3")
    state.apply(0, play("0|0"))
    state.apply(1, DRAW)
    with pytest.raises(
        IllegalAction, match=r"drawing is allowed only with no playable tile, and \[0\|2\] fits"
    ):
        state.apply(1, DRAW)


def test_t2_x2_the_end_total_is_read_once_after_the_turns_last_placement() -> None:
    """[P] RULES_V2 T2: S after the first double (5 + 4 = 9) does not count by itself
    while a second double may follow; after the skip it does."""
    rules = house(two_doubles=True, extra_turn_sum=9, drawing="never")
    state = deal(rules, T2_HANDS)
    state.apply(0, play("2|5"))
    state.apply(1, play("2|2", "2|5", "low"))
    assert state.end_total() == 9 and state.turn == 1 and state.second_double
    state.apply(1, SKIP)
    assert state.turn == 1 and not state.second_double  # S = 9 after the skip: again
    other = deal(rules, T2_HANDS)
    other.apply(0, play("2|5"))
    other.apply(1, play("2|2", "2|5", "low"))
    other.apply(1, play("5|5", "2|5", "high"))
    assert other.end_total() == 14 and other.turn == 0


def test_a_tile_drawn_before_a_claimed_lead_does_not_replace_it() -> None:
    """Drawing any time, a drawn tile that fits must be played at once — but before the lead
    only [0|0] may be led (house: lowest double), so the drawn tile does not fit yet."""
    rules = house(drawing="any-time", play_drawn_at_once=True)
    state = deal(rules, W_HANDS, boneyard="2|3", must_lead=parse_tile("0|0"))
    state.apply(0, DRAW)
    assert kinds(state) == ["[0|0]", "draw"]
    state.apply(0, play("0|0"))


# -- PublicHand and HandState agree, over random switch sets ---------------------------------

_SKIP_FIELDS = {"name", "stall_timeout_s", "targets", "layout", "cross_quota"}
"""The oracle here lays a line; the shapes have their own (tests/engine/test_shapes.py)."""
_SMALL_INTS = {
    "reserve": (0, 1, 2),
    "draw_limit": (0, 0, 1, 2, 5),
    "forced_draw_sum": (0, 0, 5, 6, 7, 8, 10),
    "extra_turn_sum": (0, 0, 5, 6, 7, 8, 10),
    "min_record": (0, 0, 5, 13),
    "hands_limit": (0, 1, 3),
}


def _random_value(spec: FieldSpec, rng: random.Random) -> Any:
    if spec.kind == "enum":
        return rng.choice(spec.choices)
    if spec.kind == "bool":
        return rng.random() < 0.5
    if spec.kind == "pairs":  # hand_sizes: any size the set allows, for each player count
        counts = [n for n in (2, 3, 4) if rng.random() < 0.8] or [rng.choice((2, 3, 4))]
        return [[n, rng.randint(1, 28 // n)] for n in counts]
    if spec.int_choices:
        return rng.choice(spec.int_choices)
    if spec.name in _SMALL_INTS:
        return rng.choice(_SMALL_INTS[spec.name])
    assert spec.low is not None and spec.high is not None
    return rng.randint(spec.low, spec.high)


_LINE_PRESETS = [name for name, rules in PRESETS.items() if rules.layout.value == "line"]


def random_rules(rng: random.Random) -> Rules:
    """A base preset with every playable switch drawn at random; only sets the checker
    accepts are kept (targets follow the player counts and the goal)."""
    for _ in range(500):
        draft = PRESETS[rng.choice(sorted(_LINE_PRESETS))].to_dict()
        for spec in FIELDS:
            if spec.playable and spec.name not in _SKIP_FIELDS and rng.random() < 0.6:
                draft[spec.name] = _random_value(spec, rng)
        counts = [n for n, _ in draft["hand_sizes"]]
        fixed = draft["goal"] == "fixed-hands"
        draft["targets"] = [] if fixed else [[n, rng.choice((30, 61, 101))] for n in counts]
        try:
            return Rules.from_dict(draft)
        except InvalidRecord:
            continue
    raise AssertionError("no accepted switch set in 500 draws")


def _mirror(public: PublicHand, seat: int, action: Action, from_draw: bool = False) -> None:
    if isinstance(action, Play):
        public.play(seat, action, from_draw)
    elif action == DRAW:
        public.draw(seat)
    elif action == PASS:
        public.pass_turn(seat)
    else:
        assert action == SKIP
        public.skip(seat)


def _assert_agree(state: HandState, public: PublicHand) -> None:
    for name in (
        "turn",
        "passes",
        "forced_due",
        "second_double",
        "drawn_this_turn",
        "boneyard_size",
        "end",
        "must_lead",
    ):
        assert getattr(public, name) == getattr(state, name), name
    assert public.counts == [h.bit_count() for h in state.hands]
    assert public.line.tiles == state.line.tiles
    assert public.line.places == state.line.places
    assert public.closed == state.closed
    assert public.end_total() == state.end_total()
    assert public.notes == state.notes
    assert public.move_points == state.move_points
    assert public.luck_tallies() == state.luck_tallies()
    assert public.reached == state.reached


def spec_end_total(places: list[Place], along: bool, along_mask: int = 0) -> int:
    """S as the sketch §3.4 defines it: a crosswise double at an end counts 2v once, any
    other tile (a double laid along by choice too: `along_mask`) the numbers of its open
    places."""
    total, seen = 0, set()
    for at in places:
        if at.tile.is_double and not along and not along_mask & at.tile.bit:
            if at.tile.index not in seen:
                seen.add(at.tile.index)
                total += at.tile.pips
        else:
            total += at.value
    return total


@dataclass
class _SpecClock:
    place: Place
    layer: int
    begun: set[int] = field(default_factory=set)
    armed: bool = False


def _told(note: TurnNote) -> object:
    """A note as the oracle states it (awards and penalties: kind, seat and points)."""
    return (note.kind, note.seat, note.points) if note.kind in ("score", "penalty") else note


class TurnOracle:
    """The public turn written again from the sketch §4.1, §4.2 and §3.5, step by step, to
    check the engine's turn, passes, draws, forced draws, second double, closures and the
    notes the players are told."""

    def __init__(self, rules: Rules, players: int, opener: int) -> None:
        self.rules, self.players = rules, players
        self.turn, self.passes, self.drawn, self.forced = opener, 0, 0, 0
        self.second, self.doubles = False, 0
        self.clocks: list[_SpecClock] = []
        self.closed: list[Place] = []
        self.end: HandEnd | None = None
        self.notes: list[TurnNote] = []
        """What the players are told after the last action."""
        self.exhausting = False
        self.scorer = PlayScorer(rules, players, (0,) * players)
        """Points during play, recounted (RULES_V2 §4)."""

    def expected_actions(self, state: HandState) -> set[Action]:
        rules, line, seat = self.rules, state.line, self.turn
        drawable = state.drawable
        if self.forced and drawable:
            return {DRAW}
        held = list(tiles_in(state.hands[seat]))
        if self.second:
            held = [t for t in held if t.is_double]
        elif state.pending is not None:
            held = [state.pending]
        if not line.tiles:
            lead = [t for t in held if state.must_lead in (None, t)]
            plays: set[Action] = {Play(t) for t in lead}
        else:
            lone_double = len(line.tiles) == 1 and line.tiles[0].is_double
            places = line.places[:1] if lone_double else line.places  # sides A, B: one place
            plays = {Play(t, at) for at in places for t in held if t.has(at.value)}
        if rules.doubles is Doubles.CHOICE:  # each double also along, the lead included
            plays |= {Play(p.tile, p.place, True) for p in plays if p.tile.is_double}
        if self.second:
            return plays | {SKIP}
        limit = rules.draw_limit
        can_draw = (
            rules.drawing is not Drawing.NEVER
            and drawable > 0
            and state.pending is None
            and (not limit or self.drawn < limit)
        )
        out = set(plays)
        if can_draw and (rules.drawing is Drawing.ANY_TIME or not plays):
            out.add(DRAW)
        if not plays and (not rules.must_draw_when_stuck or not can_draw):
            out.add(PASS)
        return out

    def after(self, seat: int, action: Action, state: HandState) -> None:
        rules = self.rules
        self.notes = []
        drawn = state.drawn_tiles[-1] if action == DRAW else None
        self.scorer.after(seat, action, state, drawn)
        if action == DRAW:
            self.passes = 0
            if self.forced:
                self.forced -= 1
            else:
                self.drawn += 1
            if not state.drawable:
                self.forced = 0
                self.exhausting = rules.end_when_boneyard_empty
            return
        if action == PASS:
            self.passes += 1
            if self.passes >= self.players:
                self.notes = self.told()
                self.end = HandEnd.BLOCK
                return
            self._end_turn(seat, placed=False, state=state)
            return
        if isinstance(action, Play):
            self.passes = 0
            self.clocks = [c for c in self.clocks if c.place is not action.place]
            self.notes = self.told()
            if not state.hands[seat]:
                self.end = HandEnd.DOMINO
                return
            if self.scorer.reached is not None:
                self.end = HandEnd.TARGET
                return
            tile = action.tile
            if tile.is_double and action.place is not None and rules.double_closes_ray:
                free = next(at for at in state.line.places if at.tile is tile)
                self.clocks.append(_SpecClock(free, seat))
            if tile.is_double and rules.two_doubles and not self.second:
                self.second = True
                self.notes.append(TurnNote("second_double", seat))
                return
        self._end_turn(seat, placed=True, state=state)

    def told(self) -> list[TurnNote]:
        """The awards and penalties the recount says the last action brought, as notes."""
        return [TurnNote(kind, who, points=points) for kind, who, points in self.scorer.told]

    def _end_turn(self, seat: int, placed: bool, state: HandState) -> None:
        rules, players = self.rules, self.players
        penalties = [n for n in self.told() if n.kind == "penalty"]
        if self.exhausting:
            self.end = HandEnd.EXHAUSTED
            self.notes = [*[n for n in self.notes if n.kind == "score"], *penalties]
            return
        newly = [at for at in state.closed if at not in self.closed]
        expiring = [c for c in self.clocks if c.armed and c.layer == seat]
        assert newly == [c.place for c in expiring], "a double closed at the wrong moment"
        self.clocks = [c for c in self.clocks if c not in expiring]
        self.closed += newly
        scores = [n for n in self.notes if n.kind == "score"]
        closed = [TurnNote("closed", c.layer, place=c.place) for c in expiring]
        self.notes = [*scores, *penalties, *closed]
        total = spec_end_total(
            state.line.places + newly, rules.doubles is Doubles.ALONG, state.line.along_mask
        )
        if not state.line.places:
            self.end = HandEnd.BLOCK
            return
        again = placed and bool(rules.extra_turn_sum) and total == rules.extra_turn_sum
        following = seat if again else (seat + 1) % players
        self.turn, self.drawn, self.second = following, 0, False
        due = placed and rules.forced_draw_sum and total == rules.forced_draw_sum
        self.forced = 2 if due and state.drawable else 0
        if again:
            self.notes.append(TurnNote("extra_turn", seat, total))
        if self.forced:
            count = min(2, state.drawable)
            self.notes.append(TurnNote("forced_draw", following, total, count))
        for clock in self.clocks:
            if following != clock.layer:
                clock.begun.add(following)
            elif len(clock.begun) == players - 1:
                clock.armed = True

    def check(self, state: HandState) -> None:
        assert state.end == self.end
        assert [_told(n) for n in state.notes] == [_told(n) for n in self.notes]
        self.scorer.check(state)
        if self.end is not None:
            return
        assert state.turn == self.turn
        assert state.passes == self.passes
        assert state.forced_due == self.forced
        assert state.second_double == self.second
        assert state.drawn_this_turn == self.drawn


@settings(max_examples=50, deadline=None)
@given(seed=st.integers(0, 2**32))
@example(seed=875)  # a previous winner's fallback ranked the deal: the record says the lead
@example(seed=149664)  # partners at a block: the bonus is the pair's with the lower total
def test_public_hand_and_hand_state_agree_under_random_switches(seed: int) -> None:
    """Random legal play on a HandState, each action mirrored on a PublicHand and offered
    alike by the mover's PeerView: the public facts agree after every action and with the
    turn written again from the sketch (TurnOracle), a hand always
    ends, never without a legal action, tiles are conserved, scores recount, and every
    hand's record replays to the same result."""
    rng = random.Random(seed)
    rules = random_rules(rng)
    assert Rules.from_dict(json.loads(json.dumps(rules.to_dict()))) == rules
    assert Rules.from_wire(rules.to_wire()) == rules
    players = rng.choice(rules.player_counts)
    match = Match(rules, players)
    for _ in range(3):
        if match.outcome.over:
            break
        dealt, boneyard = shuffle_and_deal(rules, players, rng)
        state = match.start_hand(dealt, boneyard, lottery=rng.getrandbits(32))
        if state is None:
            match.void_hand()
            continue
        public = PublicHand(rules, players, state.opener, state.must_lead)
        public.match_scores = state.match_scores  # what an immediate target check adds to
        oracle = TurnOracle(rules, players, state.opener)
        oracle.scorer = PlayScorer.for_hand(state)
        for _step in range(1000):
            if state.result is not None:
                break
            seat = state.turn
            actions = state.legal_actions()
            assert actions, f"no legal action for seat {seat} under {rules.to_dict()}"
            view = PeerView(public, seat, state.hands[seat], state.pending)
            assert set(legal_actions(view)) == set(actions)
            assert set(legal_actions(HandView(state, seat))) == set(actions)  # the bots' view
            assert set(actions) == oracle.expected_actions(state)
            action = rng.choice(actions)
            recent = state.drawn_tiles[len(state.drawn_tiles) - state.draws_this_turn :]
            from_draw = isinstance(action, Play) and action.tile in recent
            state.apply(seat, action)
            _mirror(public, seat, action, from_draw)
            _assert_agree(state, public)
            oracle.after(seat, action, state)
            oracle.check(state)
            assert_tiles_conserved(state)
        assert state.result is not None, "the hand did not end"
        if rules.pairs:  # partners: every amount is the pair's (seats 0+2, 1+3)
            extra = play_points(state, oracle.scorer, (0,) * players)
            base = recount(state)
            pairs = (base[0] + extra[0] + extra[2], base[1] + extra[1] + extra[3])
            assert state.result.points == pairs
        else:
            assert state.result.points == play_points(state, oracle.scorer, recount(state))
        # A record's hand is its opening number (counted hands + 1): it replays alone.
        scores = tuple(match.scores)
        text = json.dumps(record_of(state, scores, match.opening_number).to_dict())
        replayed = replay(load_record(text))
        assert replayed.state.history == state.history
        assert replayed.result == state.result
        counted, previous = match.counted_hands, match.previous
        match.finish_hand(state)
        if state.result.end is HandEnd.VOID:  # not counted, and not "the previous hand"
            assert (match.counted_hands, match.previous) == (counted, previous)
        else:
            assert match.counted_hands == counted + 1
            assert match.previous.opener == state.opener
