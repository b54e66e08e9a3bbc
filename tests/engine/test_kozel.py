"""Kozel («Козёл») as a player states it: two pairs, "us and them", 1:1 opens, under 13 is not
written, a fish compares the pairs' totals, the pair that reaches 101 is the goat, and the old
ceremonies (RULES_V2 §2)."""

from __future__ import annotations

import json
import random

import pytest

from p2p_dominoes.commands.replay import replay_summary
from p2p_dominoes.engine import (
    TILES,
    HandEnd,
    InvalidRecord,
    Match,
    Rules,
    load_record,
    match_text,
    parse_tile,
    preset,
    record_of,
    replay,
    result_text,
    score_hand,
)
from p2p_dominoes.engine.actions import PASS, Action, Play
from p2p_dominoes.engine.ceremonies import title_text
from p2p_dominoes.engine.rules import draft_of
from p2p_dominoes.engine.rules_check import check_rules

KOZEL = preset("kozel")
CEREMONIES = preset("kozel-ceremonies")
NAMES = ("Ann", "Bob", "Cid", "Dan")  # Ann & Cid (seats 0, 2) against Bob & Dan (1, 3)
DOMINO, BLOCK = HandEnd.DOMINO, HandEnd.BLOCK


def plays(*laid: tuple[int, str]) -> list[tuple[int, Action]]:
    """A hand's history from (seat, tile) pairs; "pass" for a pass."""
    return [(seat, PASS if tile == "pass" else Play(parse_tile(tile))) for seat, tile in laid]


def shuffled_deal(seed: int) -> list[list[object]]:
    deck = list(TILES)
    random.Random(seed).shuffle(deck)
    return [deck[7 * s : 7 * (s + 1)] for s in range(4)]


# -- the preset ---------------------------------------------------------------------------


def test_kozel_is_four_in_two_pairs_with_the_whole_set_dealt() -> None:
    assert KOZEL.player_counts == (4,) and KOZEL.hand_size(4) == 7
    assert KOZEL.pairs and KOZEL.units(4) == 2
    assert [KOZEL.unit_of(seat) for seat in range(4)] == [0, 1, 0, 1]  # partners opposite
    assert KOZEL.drawing.value == "never" and KOZEL.min_record == 13 and KOZEL.target(4) == 101
    assert KOZEL.goal.value == "reach-loses" and KOZEL.ceremonies == ()
    assert (
        CEREMONIES.ceremonies == ("general", "admiral", "snotty_goat") and CEREMONIES.winner_reset
    )
    assert CEREMONIES.differences(KOZEL) == ["general", "admiral", "snotty_goat", "winner_reset"]


@pytest.mark.parametrize("seed", range(6))
def test_the_holder_of_1_1_leads_it_in_every_hand(seed: int) -> None:
    match = Match(KOZEL, 4)
    one_one = parse_tile("1|1")
    for number in range(2):
        dealt = shuffled_deal(seed * 10 + number)
        hand = match.start_hand(dealt, [])
        assert hand is not None
        assert one_one in dealt[hand.opener] and hand.must_lead is one_one
        assert hand.legal_actions() == [Play(one_one)]  # nothing else may lead, no pass
        rng = random.Random(seed)
        while hand.result is None:
            hand.apply(hand.turn, rng.choice(hand.legal_actions()))
        match.finish_hand(hand)
        if match.outcome.over:
            break


# -- what a hand writes -------------------------------------------------------------------


def test_at_a_domino_the_other_pair_writes_both_partners_pips() -> None:
    # Ann went out; Cid still holds 9, which nobody counts; Bob 5 + Dan 8 = 13 is written.
    result = score_hand(KOZEL, DOMINO, [0, 5, 9, 8], closer=0)
    assert result.winner == 0 and result.points == (0, 13) and result.pips == (9, 13)
    assert result.seat_pips == (0, 5, 9, 8)
    assert (
        result_text(result, "en", NAMES)
        == "Domino by Ann (Ann & Cid); Bob & Dan record 5 + 8 = 13."
    )
    assert result_text(result, "ru", NAMES) == (
        "Домино: Ann (Ann & Cid) выкладывает последнюю кость; Bob & Dan записывают 5 + 8 = 13."
    )


def test_under_13_is_not_written() -> None:
    result = score_hand(KOZEL, DOMINO, [3, 5, 0, 7], closer=2)
    assert result.amounts == (0, 12) and result.points == (0, 0)
    assert "Bob & Dan: 5 + 7 = 12 — not written, under 13" in result_text(result, "en", NAMES)
    assert "не пишут, меньше 13" in result_text(result, "ru", NAMES)


def test_a_fish_compares_the_pairs_totals_not_the_lowest_player() -> None:
    # Ann holds the single lowest hand (1), but her pair's total 21 is the larger: Bob & Dan win.
    result = score_hand(KOZEL, BLOCK, [1, 6, 20, 7])
    assert result.winner == 1 and result.pips == (21, 13) and result.points == (21, 0)
    assert result_text(result, "en", NAMES) == (
        "Fish: Bob & Dan have the smaller pair total (13 against 21); Ann & Cid record 1 + 20 = 21."
    )


def test_a_fish_s_totals_follow_the_sheet_of_the_seat_reading_them() -> None:
    """Issue 28 L8: after the pair it names, a fish's sentence gave the other pair's total first
    ("(21 : 13)" for Bob & Dan's 13). Read at a seat, it follows that seat's «Мы / Они» sheet,
    us first and each named; with no reader (the log), the named pair's total comes first."""
    result = score_hand(KOZEL, BLOCK, [1, 6, 20, 7])  # pairs: Ann & Cid 21, Bob & Dan 13
    assert "(мы 21 : они 13)" in result_text(result, "ru", NAMES, seat=0)
    assert "(мы 21 : они 13)" in result_text(result, "ru", NAMES, seat=2)
    assert "(мы 13 : они 21)" in result_text(result, "ru", NAMES, seat=1)
    assert "(us 13 : them 21)" in result_text(result, "en", NAMES, seat=3)
    assert "у пары Bob & Dan сумма меньше (13 против 21)" in result_text(result, "ru", NAMES)


def test_a_fish_with_equal_pair_totals_writes_nothing() -> None:
    result = score_hand(KOZEL, BLOCK, [10, 5, 5, 10])
    assert result.winner is None and result.points == (0, 0)
    assert result_text(result, "en", NAMES) == (
        "Fish: the pair totals are equal (15 : 15), nobody records."
    )
    assert result_text(result, "ru", NAMES) == (
        "Рыба: суммы пар равны (15 : 15), никто не записывает."
    )


def test_the_pair_that_reaches_101_is_the_goat_and_loses() -> None:
    match = Match(KOZEL, 4, [88, 40])
    assert not match.outcome.over
    hand = score_hand(KOZEL, DOMINO, [6, 0, 7, 9], closer=1)  # Ann & Cid write 13: 101
    match.openers.append(1)
    outcome = match.finish_result(hand, 1)
    assert match.scores == [101, 40]
    assert outcome.over and outcome.losers == (0,) and outcome.winner == 1
    assert outcome.title == "goat" and outcome.pairs
    assert match_text(outcome, match.scores, "en", NAMES) == (
        "Ann & Cid reached the target: the goat. Bob & Dan win the match: "
        "Ann & Cid 101, Bob & Dan 40."
    )
    assert match_text(outcome, match.scores, "ru", NAMES) == (
        "Ann & Cid доходят до цели — «козёл». Матч выигрывают Bob & Dan: "
        "Ann & Cid 101, Bob & Dan 40."
    )


def test_100_is_not_yet_the_goat() -> None:
    match = Match(KOZEL, 4, [87, 0])
    match.openers.append(1)
    assert not match.finish_result(score_hand(KOZEL, DOMINO, [6, 0, 7, 9], closer=1), 1).over
    assert match.scores == [100, 0]


def test_a_match_keeps_one_total_per_pair_and_a_record_two_scores() -> None:
    match = Match(KOZEL, 4)
    assert match.scores == [0, 0]
    rng = random.Random(3)
    hand = match.start_hand(shuffled_deal(3), [])
    assert hand is not None
    while hand.result is None:
        hand.apply(hand.turn, rng.choice(hand.legal_actions()))
    record = record_of(hand, (20, 30), 2).to_dict()
    assert record["scores"] == [20, 30]
    replayed = replay(load_record(json.dumps({**record, "players": list(NAMES)})))
    summary = replay_summary(replayed, "en")
    assert len(summary["result"]["points"]) == 2 and len(summary["scores"]) == 2
    assert summary["scores"] == [20 + hand.result.points[0], 30 + hand.result.points[1]]
    assert summary["match"]["title"] is None and summary["result"]["title"] is None
    with pytest.raises(InvalidRecord, match="'scores' must be 2 integers, one per pair"):
        load_record(json.dumps({**record, "scores": [0, 0, 0, 0]}))


# -- ceremonies ---------------------------------------------------------------------------


def test_closing_on_6_6_makes_the_losers_generals_goats() -> None:
    history = plays((3, "1|1"), (0, "5|6"), (1, "6|6"))
    result = score_hand(CEREMONIES, DOMINO, [8, 0, 7, 9], closer=1, history=history)
    assert result.ceremonies == ("general",) and result.title == "general"
    assert title_text("general", "ru") == "генеральские козлы"
    text = result_text(result, "en", NAMES)
    assert (
        "General: the hand was closed on 6:6" in text
        and "Ann & Cid are the generals' goats" in text
    )
    assert "Ann & Cid — «генеральские козлы»" in result_text(result, "ru", NAMES)


def test_the_closer_who_laid_both_key_doubles_himself_is_a_general() -> None:
    history = plays((1, "6|6"), (2, "0|6"), (3, "0|0"), (0, "0|1"), (1, "1|4"))
    partner = score_hand(CEREMONIES, DOMINO, [8, 0, 7, 9], closer=1, history=history)
    assert partner.ceremonies == ()  # Dan, the partner, laid the 0:0: it does not count
    own = plays((1, "6|6"), (2, "0|6"), (1, "0|0"), (0, "0|1"), (1, "1|4"))
    result = score_hand(CEREMONIES, DOMINO, [8, 0, 7, 9], closer=1, history=own)
    assert result.ceremonies == ("general",)


def test_closing_on_0_0_makes_the_losers_snotty_goats() -> None:
    history = plays((0, "0|3"), (1, "pass"), (2, "0|0"))
    result = score_hand(CEREMONIES, DOMINO, [4, 8, 0, 9], closer=2, history=history)
    assert result.ceremonies == ("snotty_goat",) and result.title == "snotty_goat"
    assert "Bob & Dan — «сопливые козлы»" in result_text(result, "ru", NAMES)


def test_the_two_key_doubles_in_a_row_make_admirals_whoever_laid_them() -> None:
    # 6:6 by Ann, three passes, 0:0 by Bob: passes between are allowed; admiral is the senior.
    history = plays((0, "6|6"), (1, "pass"), (2, "pass"), (3, "pass"), (0, "pass"), (1, "0|0"))
    result = score_hand(CEREMONIES, DOMINO, [8, 0, 7, 9], closer=1, history=history)
    assert result.ceremonies == ("admiral", "snotty_goat") and result.title == "admiral"
    either = plays((0, "0|0"), (1, "6|6"))
    assert score_hand(CEREMONIES, DOMINO, [8, 0, 7, 9], 1, history=either).ceremonies == (
        "admiral",
        "general",
    )
    between = plays((0, "6|6"), (1, "0|4"), (2, "0|0"))
    assert score_hand(CEREMONIES, DOMINO, [8, 9, 0, 9], 2, history=between).title == "snotty_goat"


def test_a_fish_is_never_ceremonial_and_kozel_has_the_ceremonies_off() -> None:
    history = plays((0, "0|6"), (1, "6|6"))
    assert score_hand(CEREMONIES, BLOCK, [8, 2, 7, 9], history=history).ceremonies == ()
    assert score_hand(KOZEL, DOMINO, [8, 0, 7, 9], closer=1, history=history).ceremonies == ()


def test_only_the_enabled_ceremonies_trigger() -> None:
    general_only = Rules.from_dict({"base": "kozel", "general": True})
    history = plays((0, "6|6"), (1, "0|0"))  # an admiral ending, by different players
    result = score_hand(general_only, DOMINO, [8, 0, 7, 9], closer=1, history=history)
    assert result.ceremonies == () and result.title is None


def test_the_winner_is_wiped_after_a_ceremony_even_when_nothing_is_written() -> None:
    match = Match(CEREMONIES, 4, [30, 50])
    history = plays((0, "0|5"), (1, "6|6"))
    hand = score_hand(CEREMONIES, DOMINO, [4, 0, 5, 2], closer=1, history=history)
    assert hand.points == (0, 0) and hand.title == "general"  # 9 is under 13: not written
    match.openers.append(1)
    match.finish_result(hand, 1)
    assert match.scores == [30, 0]
    assert "The winner's score is wiped: Bob & Dan now have 0." in result_text(hand, "en", NAMES)
    assert "Победитель обнуляется: счёт Bob & Dan — 0." in result_text(hand, "ru", NAMES)


def test_a_ceremonial_hand_that_reaches_101_names_the_goats_by_its_title() -> None:
    match = Match(CEREMONIES, 4, [90, 60])
    history = plays((2, "0|4"), (3, "0|0"))
    hand = score_hand(CEREMONIES, DOMINO, [9, 7, 8, 0], closer=3, history=history)
    match.openers.append(3)
    outcome = match.finish_result(hand, 3)
    assert match.scores == [107, 0]
    assert outcome.losers == (0,) and outcome.title == "snotty_goat"
    assert "«сопливые козлы»" in match_text(outcome, match.scores, "ru", NAMES)
    assert "the snotty goats" in match_text(outcome, match.scores, "en", NAMES)


TWO_DOUBLES_HAND = {
    "rules": {"base": "kozel-ceremonies", "two_doubles": True},
    "players": list(NAMES),
    "hands": [
        ["0|2", "1|1", "1|6", "2|3", "3|4", "4|4", "5|6"],
        ["0|0", "0|6", "1|3", "1|5", "3|6", "4|6", "6|6"],
        ["0|1", "2|4", "2|6", "3|3", "3|5", "4|5", "5|5"],
        ["0|3", "0|4", "0|5", "1|2", "1|4", "2|2", "2|5"],
    ],
    "boneyard": [],
    "opener": 0,
    "scores": [40, 10],
    "actions": [
        {"seat": 0, "play": "1|1"},
        {"seat": 0, "skip": True},
        {"seat": 1, "play": "1|3", "at": "1|1", "side": "A"},
        {"seat": 2, "play": "3|3", "at": "1|3", "side": "high"},
        {"seat": 2, "skip": True},
        {"seat": 3, "play": "1|2", "at": "1|1", "side": "B"},
        {"seat": 0, "play": "0|2", "at": "1|2", "side": "high"},
        {"seat": 1, "play": "3|6", "at": "3|3", "side": "B"},
        {"seat": 2, "play": "0|1", "at": "0|2", "side": "low"},
        {"seat": 3, "play": "1|4", "at": "0|1", "side": "high"},
        {"seat": 0, "play": "5|6", "at": "3|6", "side": "high"},
        {"seat": 1, "play": "1|5", "at": "5|6", "side": "low"},
        {"seat": 2, "play": "2|4", "at": "1|4", "side": "high"},
        {"seat": 3, "play": "2|5", "at": "2|4", "side": "low"},
        {"seat": 0, "play": "1|6", "at": "1|5", "side": "low"},
        {"seat": 1, "play": "0|6", "at": "1|6", "side": "high"},
        {"seat": 2, "play": "5|5", "at": "2|5", "side": "high"},
        {"seat": 2, "skip": True},
        {"seat": 3, "play": "0|3", "at": "0|6", "side": "low"},
        {"seat": 0, "play": "3|4", "at": "0|3", "side": "high"},
        {"seat": 1, "play": "4|6", "at": "3|4", "side": "high"},
        {"seat": 2, "play": "4|5", "at": "5|5", "side": "B"},
        {"seat": 3, "play": "0|4", "at": "4|5", "side": "low"},
        {"seat": 0, "pass": True},
        {"seat": 1, "play": "6|6", "at": "4|6", "side": "high"},
        {"seat": 1, "play": "0|0", "at": "0|4", "side": "low"},
    ],
}


def test_two_doubles_in_one_turn_let_one_player_make_admirals_by_himself() -> None:
    # Bob lays 6:6 and then 0:0 in one turn (two_doubles) and goes out.
    replayed = replay(load_record(json.dumps(TWO_DOUBLES_HAND)))
    result = replayed.result
    assert result.end is DOMINO and result.closer == 1
    assert result.ceremonies == ("admiral", "snotty_goat", "general")
    assert result.seat_pips == (13, 0, 16, 9) and result.points == (29, 0)
    summary = replay_summary(replayed, "en")
    assert summary["result"]["ceremonies"] == ["admiral", "snotty_goat", "general"]
    assert summary["result"]["title"] == "admiral"
    assert summary["scores"] == [69, 0]  # 40 + 29; Bob & Dan's 10 wiped
    assert summary["match"] == {
        "over": False,
        "winner": None,
        "draw": False,
        "losers": [],
        "title": None,
    }
    assert "Ann & Cid are the admirals" in summary["text"]


# -- the editor ---------------------------------------------------------------------------


@pytest.mark.parametrize("counts", [[[2, 7]], [[3, 7]], [[2, 7], [4, 7]]])
def test_pairs_are_refused_with_other_than_four_players(counts: list[list[int]]) -> None:
    targets = [[n, 101] for n, _ in counts]
    with pytest.raises(InvalidRecord, match="Partnership play needs exactly four players"):
        Rules.from_dict({"base": "kozel", "hand_sizes": counts, "targets": targets})
    finding = next(
        f
        for f in check_rules(draft_of({"base": "house", "teams": "opposite-pairs"}))
        if f.code == "K1"
    )
    assert finding.text["ru"] == "Игра парами — только вчетвером: партнёры сидят напротив."


def test_the_winner_reset_is_greyed_without_a_ceremony_and_refused_for_good_points() -> None:
    greyed = [f for f in check_rules(draft_of("kozel")) if f.code == "N7"]
    assert greyed and greyed[0].greyed and greyed[0].fields == ("winner_reset",)
    assert greyed[0].text["ru"] == "Ни одной церемонии — обнулять не после чего."
    assert not [f for f in check_rules(draft_of("kozel-ceremonies")) if f.code == "N7"]
    good = {"base": "kozel-ceremonies", "hand_scoring": "leader-takes", "goal": "reach-wins"}
    with pytest.raises(InvalidRecord, match="Wiping the winner's score only makes sense"):
        Rules.from_dict(good)
    refused = [f for f in check_rules(draft_of({**good, "winner_reset": False})) if f.code == "K11"]
    assert not refused
