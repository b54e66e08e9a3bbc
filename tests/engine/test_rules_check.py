"""The rules editor's check, row by row, as a player building a house rule set meets it: start
from a preset, change a switch or two, and read what the editor says (in both languages)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2p_dominoes.engine.errors import InvalidRecord
from p2p_dominoes.engine.rules import FIELD, FIELDS, PRESETS, Rules, draft_of
from p2p_dominoes.engine.rules_check import (
    ROWS,
    Finding,
    check_rules,
    conflicts,
    greyed_fields,
    players_text,
)
from p2p_dominoes.engine.wire_range import MSGPACK_INT_MAX, MSGPACK_INT_MIN


def draft(base: str, later: dict[str, Any] | None = None, **switches: Any) -> dict[str, Any]:
    """`base` with `switches` changed as the editor (or a rules file) changes them, then
    `later`: values of fields this version does not play yet, which only a draft can hold."""
    out = draft_of({"base": base, **switches})
    for name, value in (later or {}).items():
        assert name in FIELD, name
        out[name] = value
    return out


def the(code: str, found: list[Finding], fields: tuple[str, ...] | None = None) -> Finding:
    """The one finding of row `code` (with those fields, when given)."""
    hits = [f for f in found if f.code == code and (fields is None or f.fields == fields)]
    assert len(hits) == 1, (code, found)
    return hits[0]


def said(finding: Finding, en: str, ru: str) -> None:
    assert finding.text == {"en": en, "ru": ru}


# --- no preset conflicts, and each greys what the design says ----------------------------------


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_no_preset_has_a_conflict(name: str) -> None:
    assert conflicts(check_rules(draft_of(name))) == []


ALWAYS_GREY = {
    "assigned_double",
    "weekday",
    "cross_quota",
    "ends_modulus",
    "ends_award",
    "target_check",
    "hands_limit",
    "winner_reset",
    "doubles",
}
DRAW_SWITCHES = {
    "must_draw_when_stuck",
    "draw_limit",
    "reserve",
    "play_drawn_at_once",
    "forced_draw_sum",
    "end_when_boneyard_empty",
    "fish_counts",
}


@pytest.mark.parametrize(
    ("name", "greyed"),
    [
        ("draw", ALWAYS_GREY | {"first_fallback", "next_fallback"}),
        ("draw-until-play", ALWAYS_GREY | {"play_drawn_at_once"}),
        ("block", ALWAYS_GREY | {"first_fallback", "next_fallback"} | DRAW_SWITCHES),
        # house: the design's table omits play_drawn_at_once, but it is inert at every count
        # (N2 with 2–3 players, N1 with 4), exactly as in draw-until-play.
        ("house", ALWAYS_GREY | {"play_drawn_at_once"}),
    ],
)
def test_each_preset_greys_what_the_design_says(name: str, greyed: set[str]) -> None:
    rules = draft_of(name)
    counts = [n for n, _ in rules["hand_sizes"]]
    assert set(greyed_fields(check_rules(rules), counts)) == greyed


def test_house_notes_the_draw_switches_as_dead_with_four_players_only() -> None:
    found = check_rules(draft_of("house"))
    note = the("N1", found)
    assert note.players == (4,) and not note.greyed
    assert {"drawing", "draw_limit", "reserve", "must_draw_when_stuck"} <= set(note.fields)
    said(
        note,
        "No boneyard: nothing to draw (with 4 players the whole set is dealt).",
        "Базара нет — прикупать нечего (при 4 игроках весь набор на руках).",
    )
    fallbacks = [f for f in found if f.code == "N6"]
    assert [f.fields for f in fallbacks] == [("first_fallback",), ("next_fallback",)]
    assert all(f.players == (4,) for f in fallbacks)


def test_every_row_has_both_texts_and_a_unique_code() -> None:
    codes = [row.code for row in ROWS]
    assert len(codes) == len(set(codes))
    # K2 (a redealt block without a boneyard) became the no-effect row N21 (issue 24).
    for needed in [f"K{i}" for i in range(1, 18) if i != 2] + [f"N{i}" for i in range(1, 22)]:
        assert needed in codes
    assert "K2" not in codes
    assert [r.code for r in ROWS if r.kind == "conflict"][:4] == ["V1", "V2", "V3", "V4"]


def test_a_rule_set_with_a_conflict_cannot_be_built() -> None:
    with pytest.raises(InvalidRecord, match="^rules: The goal contradicts what is recorded"):
        Rules.from_dict({"base": "house", "goal": "reach-wins"})


def test_players_text_reads_as_a_sentence() -> None:
    assert players_text([4], "en") == "4"
    assert players_text([2, 3], "en") == "2 and 3"
    assert players_text([2, 3, 4], "ru") == "2, 3 и 4"


# --- structure -----------------------------------------------------------------------------------


def test_v1_hand_sizes_out_of_order() -> None:
    found = check_rules(draft("draw", hand_sizes=[[3, 7], [2, 7]], targets=[[3, 61], [2, 100]]))
    said(
        the("V1", found),
        "Hand sizes name 2, 3 or 4 players, in ascending order without repeats, at least one "
        "tile each.",
        "Раздача задаётся для 2, 3 или 4 игроков, по возрастанию и без повторов, хотя бы по "
        "одной кости каждому.",
    )


def test_v2_eight_each_for_four() -> None:
    finding = the("V2", check_rules(draft("house", hand_sizes=[[2, 7], [3, 7], [4, 8]])))
    assert finding.players == (4,) and finding.fields == ("hand_sizes",)
    said(
        finding,
        "Not enough tiles: 8 each for 4 players exceed the 28 of the set.",
        "Столько костей в наборе нет: при 4 игроках по 8 не помещаются в 28 костей.",
    )


@pytest.mark.parametrize(
    "rules",
    [
        {"base": "house", "reserve": 1},
        {"base": "draw", "hand_sizes": [[2, 7], [3, 7], [4, 7]]},  # the draw reserve of 2
    ],
)
def test_a_reserve_where_the_whole_set_is_dealt_has_no_effect_there_and_is_no_conflict(
    rules: dict[str, Any],
) -> None:
    """A set covers 2, 3 and 4 players: the reserve applies where the deal leaves a boneyard
    and has no effect (a note, not a conflict, not greyed) where four take the whole set."""
    found = check_rules(draft_of(rules))
    assert conflicts(found) == []
    note = the("N1", found)
    assert note.players == (4,) and "reserve" in note.fields and not note.greyed
    assert (
        note.text["en"] == "No boneyard: nothing to draw (with 4 players the whole set is dealt)."
    )
    assert "reserve" not in greyed_fields(found, [2, 3, 4])
    Rules.from_dict(rules)  # and it can be built, so played


def test_a_reserve_on_block_is_greyed_and_not_a_conflict() -> None:
    """Block has no boneyard at any count: the reserve has no effect anywhere (greyed), and is
    not also named in a conflict (it used to be both)."""
    found = check_rules(draft("block", reserve=1))
    assert conflicts(found) == []
    assert "reserve" in greyed_fields(found, [2, 3, 4])
    said(
        the("N1", found),
        "No boneyard: nothing to draw (with 2, 3 and 4 players the rules have none).",
        "Базара нет — прикупать нечего (при 2, 3 и 4 игроках базара нет по правилам).",
    )


def test_v3_a_target_missing_for_three_and_four() -> None:
    said(
        the("V3", check_rules(draft("draw", targets=[[2, 100]]))),
        "The targets do not match the deal: each player count needs a target of at least 1.",
        "Цели не совпадают с раздачей: нужна цель не меньше 1 для каждого числа игроков.",
    )


def test_v4_the_first_hand_cannot_go_to_the_previous_winner() -> None:
    finding = the("V4", check_rules(draft("house", later={"first_opener": "previous-winner"})))
    assert finding.fields == ("first_opener",)
    said(
        finding,
        "The first hand has no previous hand: 'the previous hand's winner' cannot decide it.",
        "В первой раздаче прошлой ещё нет: правило «победитель прошлой партии» для неё не годится.",
    )


# --- conflicts -----------------------------------------------------------------------------------


def test_k1_partners_with_two_or_three_players() -> None:
    finding = the("K1", check_rules(draft("house", later={"teams": "opposite-pairs"})))
    assert finding.players == (2, 3) and finding.fields == ("teams", "hand_sizes")
    said(
        finding,
        "Partnership play needs exactly four players (partners sit opposite).",
        "Игра парами — только вчетвером: партнёры сидят напротив.",
    )


def test_n21_a_redealt_block_where_four_take_the_whole_set_is_no_effect_not_a_conflict() -> None:
    """fish_counts off on house: blocks are redealt with 2 and 3 players (a boneyard), and count
    with 4 (none); the set is playable."""
    found = check_rules(draft("house", fish_counts=False))
    assert conflicts(found) == []
    finding = the("N21", found)
    assert finding.players == (4,) and finding.fields == ("fish_counts",)
    said(
        finding,
        "No boneyard, so a blocked hand counts (with 4 players): it is redealt only where there "
        "is a boneyard.",
        "Базара нет, и рыба засчитывается (при 4 игроках): пересдают её, только когда есть базар.",
    )
    assert "fish_counts" not in the("N1", found).fields  # N21 says why, once
    assert the("N10", found).players == (2, 3)  # block scoring is live with four
    assert "fish_counts" not in greyed_fields(found, [2, 3, 4])
    block = check_rules(draft("block", fish_counts=False))
    assert conflicts(block) == [] and the("N21", block).greyed


def test_k3_a_cross_with_doubles_lengthwise() -> None:
    found = check_rules(draft("house", doubles="along", later={"layout": "cross"}))
    finding = the("K3", found)
    assert finding.fields == ("layout", "doubles") and finding.players == ()
    said(
        finding,
        "Cross and telephone grow from a double laid crosswise; with every double lengthwise "
        "there is no centre.",
        "Крест и телефон растут из дубля, лежащего поперёк; когда все дубли вдоль, центра нет.",
    )


def test_k4_trains_opened_by_a_lottery() -> None:
    finding = the("K4", check_rules(draft("draw", later={"layout": "trains"})))
    assert finding.fields == ("layout", "first_opener", "next_opener")
    said(
        finding,
        "Trains start from a double: the lead must be a double (lowest, highest, assigned or "
        "weekday).",
        "Поезда начинаются от дубля: заходить должен дубль (младший, старший, назначенный или "
        "по дню недели).",
    )


def test_k5_trains_whose_double_may_not_be_dealt() -> None:
    finding = the("K5", check_rules(draft("house", later={"layout": "trains"})))
    assert finding.fields == ("layout", "first_fallback", "next_fallback")
    assert finding.players == (2, 3)
    said(
        finding,
        "Trains cannot start without a double: when nobody holds one the deal must be redone "
        "(fallback 'redeal'; with 2 and 3 players not every tile is dealt).",
        "Без дубля поезда не начать: если дубля ни у кого нет, раздачу нужно пересдать "
        "(запасное правило «пересдать»; при 2 и 3 игроках раздаётся не весь набор).",
    )
    fixed = draft(
        "house", first_fallback="redeal", next_fallback="redeal", later={"layout": "trains"}
    )
    assert conflicts(check_rules(fixed)) == []


def test_k6_trains_for_partners() -> None:
    four = draft("house", hand_sizes=[[4, 7]], targets=[[4, 101]])
    four.update(layout="trains", teams="opposite-pairs")
    finding = the("K6", check_rules(four))
    assert finding.fields == ("layout", "teams")
    said(
        finding,
        "Each player has their own train; trains are not defined for partnership play.",
        "Поезда у каждого свои; игра парами с поездами не определена.",
    )


def test_k7_losers_record_their_pips_and_open_ends_score_too() -> None:
    finding = the("K7", check_rules(draft("house", later={"move_scoring": "ends"})))
    assert finding.fields == ("hand_scoring", "move_scoring")
    said(
        finding,
        "Pips the losers record are penalties and points scored during play are gains; they "
        "cannot share one score.",
        "Очки на руках проигравших — штраф, а очки за ходы — выигрыш: их нельзя писать в один "
        "счёт.",
    )


def test_k8_the_goal_against_what_is_recorded() -> None:
    finding = the("K8", check_rules(draft("house", goal="reach-wins")))
    assert finding.fields == ("goal", "hand_scoring")
    said(
        finding,
        "The goal contradicts what is recorded: whoever reaches the target first is the worst "
        "player here.",
        "Цель противоречит записи очков: кто первым дойдёт до цели, тот здесь худший.",
    )
    said(
        the("K8", check_rules(draft("draw", goal="reach-loses"))),
        "The goal contradicts what is recorded: whoever reaches the target first is the best "
        "player here.",
        "Цель противоречит записи очков: кто первым дойдёт до цели, тот здесь лучший.",
    )


def test_k9_nobody_records_anything() -> None:
    finding = the("K9", check_rules(draft("draw", later={"hand_scoring": "none"})))
    assert finding.fields == ("hand_scoring", "move_scoring", "domino_bonus", "block_bonus")
    said(
        finding,
        "Nothing is ever recorded: choose who records what.",
        "Никто ничего не записывает: выберите, кто и что записывает.",
    )


def test_k10_the_whole_sum_to_the_loser_when_the_leader_takes() -> None:
    finding = the("K10", check_rules(draft("draw", block_scoring="all-to-worst")))
    assert finding.fields == ("block_scoring", "hand_scoring")
    said(
        finding,
        "'The whole sum to the loser' would reward the worst hand when recorded points are gains.",
        "«Вся сумма проигравшему» при «забирает лидер» наградила бы худшего.",
    )
    assert conflicts(check_rules(draft("house", block_scoring="all-to-worst"))) == []


def test_k11_wiping_the_winner_when_points_are_gains() -> None:
    finding = the("K11", check_rules(draft("draw", later={"winner_reset": True})))
    assert finding.fields == ("winner_reset", "hand_scoring")
    said(
        finding,
        "Wiping the winner's score only makes sense when points are penalties.",
        "Обнулять счёт победителя можно, только когда очки — штраф.",
    )


def test_k12_a_bonus_for_going_out_when_points_are_penalties() -> None:
    finding = the("K12", check_rules(draft("house", later={"domino_bonus": 2})))
    assert finding.fields == ("domino_bonus", "block_bonus", "hand_scoring")
    said(
        finding,
        "Bonuses are gains, but here recorded points are penalties.",
        "Надбавки — выигрыш, а записанные очки здесь — штраф.",
    )


def test_k13_extra_turn_and_draw_two_on_the_same_seven() -> None:
    finding = the("K13", check_rules(draft("house", extra_turn_sum=7, forced_draw_sum=7)))
    assert finding.fields == ("extra_turn_sum", "forced_draw_sum")
    said(
        finding,
        "Extra turn and draw-two cannot fire on the same end total 7.",
        "Лишний ход и прикуп двух не могут срабатывать на одну сумму 7.",
    )
    assert conflicts(check_rules(draft("house", extra_turn_sum=7, forced_draw_sum=8))) == []
    assert finding.players == (2, 3)  # four take the whole set: no draw-two to clash with
    block = check_rules(draft("block", extra_turn_sum=7, forced_draw_sum=7))
    assert conflicts(block) == [] and "forced_draw_sum" in greyed_fields(block, [2, 3, 4])


def test_k14_luck_scoring_without_its_settlement() -> None:
    finding = the("K14", check_rules(draft("draw", later={"move_scoring": "luck"})))
    assert finding.fields == ("move_scoring", "hand_scoring")
    said(
        finding,
        "Threes-for-luck scoring during play goes only with its own end-of-hand settlement.",
        "Счёт «на счастье» идёт только со своим расчётом в конце партии.",
    )


def test_k15_a_fixed_number_of_hands_with_no_number() -> None:
    finding = the("K15", check_rules(draft("house", goal="fixed-hands", targets=[])))
    assert finding.fields == ("goal", "hands_limit")
    said(finding, "Say how many hands to play.", "Укажите, сколько раздач играть.")
    assert (
        conflicts(check_rules(draft("house", goal="fixed-hands", targets=[], hands_limit=5))) == []
    )


def test_k16_the_weekday_rule_without_a_day() -> None:
    finding = the("K16", check_rules(draft("house", first_opener="weekday-double")))
    assert finding.fields == ("first_opener", "weekday")
    said(finding, "Choose the day of the week.", "Укажите день недели.")
    rules = draft("house", first_opener="weekday-double", weekday=3)
    assert conflicts(check_rules(rules)) == []


def test_k17_redeal_after_a_hand_nobody_won() -> None:
    finding = the("K17", check_rules(draft("draw-until-play", next_fallback="redeal")))
    assert finding.fields == ("next_opener", "next_fallback")
    said(
        finding,
        "After a hand with no winner the redeal would repeat for ever: choose another fallback.",
        "После ничьей пересдача повторялась бы без конца: выберите другое запасное правило.",
    )


def test_k18_a_minimum_no_hand_can_reach() -> None:
    rules = draft("block", hand_scoring="losers-own", goal="reach-loses", min_record=80)
    finding = the("K18", check_rules(rules))
    assert finding.players == () and finding.fields == ("min_record", "hand_sizes")
    said(
        finding,
        "The minimum to record is more than any hand can give (with 2, 3 and 4 players at most "
        "69): nothing would ever be recorded and nobody would reach the target.",
        "Минимум для записи больше любой суммы партии (при 2, 3 и 4 игроках не больше 69): "
        "никто ничего не запишет и до цели не дойдёт.",
    )
    # With a boneyard a hand can grow past 69 by drawing: only the full deal of four conflicts.
    assert the("K18", check_rules(draft("house", min_record=80))).players == (4,)


# --- switches with no effect ---------------------------------------------------------------------


def test_n1_no_drawing_at_all() -> None:
    finding = the("N1", check_rules(draft_of("block")))
    assert finding.greyed and "drawing" not in finding.fields  # the switch that did it
    said(
        finding,
        "No boneyard: nothing to draw (with 2, 3 and 4 players the rules have none).",
        "Базара нет — прикупать нечего (при 2, 3 и 4 игроках базара нет по правилам).",
    )
    reserve = the("N1", check_rules(draft("draw", hand_sizes=[[2, 13]], targets=[[2, 100]])))
    assert "reserve" not in reserve.fields
    assert reserve.text["en"].endswith("(with 2 players the rest is the reserve, never drawn).")


def test_n2_play_a_drawn_tile_at_once_when_you_draw_only_when_stuck() -> None:
    finding = the("N2", check_rules(draft_of("draw-until-play")))
    assert finding.fields == ("play_drawn_at_once",) and finding.greyed
    said(
        finding,
        "You draw only when you cannot play, so a drawn tile that fits is your only play anyway.",
        "Брать можно, только когда ходить нечем, — подходящая взятая кость и так единственный ход.",
    )
    forced = check_rules(draft("draw-until-play", forced_draw_sum=7))
    assert not [f for f in forced if f.code == "N2"]


def test_n3_the_cross_quota_on_a_line() -> None:
    finding = the("N3", check_rules(draft_of("house")))
    assert finding.fields == ("cross_quota",)
    said(
        finding,
        "Cross only: a line and trains have no side rays, and telephone opens them at once.",
        "Только для креста: у линии и поездов боковых лучей нет, у телефона они открыты сразу.",
    )


def test_n4_the_assigned_double_without_its_rule() -> None:
    finding = the("N4", check_rules(draft_of("house")))
    assert finding.fields == ("assigned_double",)
    said(
        finding,
        "Only the 'assigned double' rule uses it.",
        "Дубль назначает только правило «назначенный дубль».",
    )
    used = check_rules(draft("house", next_opener="assigned-double"))
    assert not [f for f in used if f.code == "N4"]


def test_n5_the_weekday_without_its_rule() -> None:
    finding = the("N5", check_rules(draft("house", weekday=2)))
    assert finding.fields == ("weekday",)
    said(
        finding,
        "Only the weekday rule uses it.",
        "День недели нужен только правилу «очередь по дню недели».",
    )


def test_n6_a_fallback_for_a_rule_that_never_fails() -> None:
    finding = the("N6", check_rules(draft_of("draw")), ("first_fallback",))
    said(
        finding,
        "The main rule always applies (it always names an opener).",
        "Основное правило применимо всегда (оно всегда называет заходящего).",
    )
    four = the(
        "N6",
        check_rules(draft("house", hand_sizes=[[4, 7]], targets=[[4, 101]])),
        ("next_fallback",),
    )
    said(
        four,
        "The main rule always applies (the whole set is dealt, so the double is always in "
        "someone's hand).",
        "Основное правило применимо всегда (раздаётся весь набор — нужный дубль всегда у "
        "кого-то на руках).",
    )


def test_n7_the_winner_reset_without_a_ceremony() -> None:
    finding = the("N7", check_rules(draft_of("house")))
    assert finding.fields == ("winner_reset",)
    said(
        finding,
        "No ceremony is on, so nothing triggers the reset.",
        "Ни одной церемонии — обнулять не после чего.",
    )
    ceremony = check_rules(draft("house", later={"admiral": True}))
    assert not [f for f in ceremony if f.code == "N7"]


def test_n8_doubles_lengthwise_in_a_line_where_ends_are_not_counted() -> None:
    finding = the("N8", check_rules(draft("house", doubles="along")))
    assert finding.fields == ("doubles",)
    said(
        finding,
        "In a line or trains a double's orientation changes nothing unless the end total counts.",
        "В линии и в поездах положение дубля ни на что не влияет, пока сумма концов не считается.",
    )
    for live in ({"extra_turn_sum": 7}, {"forced_draw_sum": 7}):
        assert not [f for f in check_rules(draft("house", **live)) if f.code == "N8"], live


def test_n9_rounding_with_no_end_of_hand_amount() -> None:
    found = check_rules(draft("draw", later={"hand_scoring": "none", "move_scoring": "ends"}))
    finding = the("N9", found)
    assert finding.fields == ("rounding", "min_record", "block_scoring")
    said(
        finding,
        "There is no end-of-hand pip amount: points come during play.",
        "Итога партии по очкам на руках нет — очки идут по ходу игры.",
    )


def test_n10_block_scoring_when_blocks_are_redealt() -> None:
    finding = the("N10", check_rules(draft("draw-until-play", fish_counts=False)))
    assert finding.fields == ("block_scoring", "block_bonus") and finding.greyed
    said(
        finding,
        "Blocked hands do not count: they are redealt (with 2, 3 and 4 players).",
        "Рыба не засчитывается — её пересдают (при 2, 3 и 4 игроках).",
    )


def test_n11_end_scoring_details_when_ends_are_not_scored() -> None:
    found = check_rules(draft_of("house"))
    for name in ("ends_modulus", "ends_award"):
        said(
            the("N11", found, (name,)),
            "Only used when open ends are scored.",
            "Нужно только при подсчёте концов.",
        )
    luck = check_rules(
        draft("draw", later={"move_scoring": "luck", "hand_scoring": "luck-settlement"})
    )
    assert [f.fields for f in luck if f.code == "N11"] == [("ends_award",)]


def test_n12_targets_in_a_match_of_fixed_length_and_the_reverse() -> None:
    fixed = check_rules(draft("house", goal="fixed-hands", targets=[], hands_limit=3))
    said(
        the("N12", fixed),
        "The match is a fixed number of hands: no target.",
        "Матч идёт заданное число раздач — цель в очках не нужна.",
    )
    assert the("N12", fixed).fields == ("targets", "target_check")
    said(
        the("N12", check_rules(draft_of("house"))),
        "The match is played to a target: no hand count.",
        "Матч идёт до цели — число раздач не нужно.",
    )


def test_n13_checking_the_target_mid_hand_with_no_points_during_play() -> None:
    finding = the("N13", check_rules(draft_of("house")))
    assert finding.fields == ("target_check",)
    said(
        finding,
        "No points count towards the match during play, so there is nothing to check mid-hand.",
        "Во время партии очки в матч не идут — проверять цель посреди раздачи нечего.",
    )
    # Threes for luck scores during play but settles at the hand's end: greyed too, once a
    # target (not its one hand) ends the match; Fives' points count at once: not greyed.
    luck = draft("threes-luck", goal="reach-wins", targets=[[2, 50], [3, 50], [4, 50]])
    assert the("N13", check_rules(luck)).fields == ("target_check",)
    assert not [f for f in check_rules(draft_of("fives")) if f.code == "N13"]


def test_k19_a_losing_target_checked_mid_hand() -> None:
    rules = draft("fives", goal="reach-loses")  # Fives checks its target at once
    finding = the("K19", check_rules(rules))
    assert finding.fields == ("target_check", "goal") and not finding.greyed
    said(
        finding,
        "A target that loses cannot end the match in the middle of a hand: check it at the "
        "hand's end.",
        "Цель, до которой доходят на свою беду, нельзя проверять посреди раздачи: проверяйте в "
        "конце раздачи.",
    )
    assert not [
        f
        for f in check_rules(draft("house", goal="reach-wins", target_check="immediate"))
        if f.code == "K19"
    ]


def test_n14_an_end_total_a_line_never_shows() -> None:
    finding = the("N14", check_rules(draft("house", extra_turn_sum=30)))
    assert finding.fields == ("extra_turn_sum",)
    said(
        finding,
        "The open ends never total 30 (at most 22).",
        "Такой суммы концов не бывает (наибольшая — 22).",
    )
    along = the("N14", check_rules(draft("house", forced_draw_sum=13, doubles="along")))
    assert along.fields == ("forced_draw_sum",)
    assert along.text["en"] == "The open ends never total 13 (at most 12)."


def test_n15_only_the_worst_records_with_one_loser() -> None:
    finding = the("N15", check_rules(draft("house", hand_scoring="worst-own")))
    assert finding.fields == ("hand_scoring",)
    assert finding.players == (2,)
    said(
        finding,
        "With two players the only loser is the worst one ('only the worst records' = 'the "
        "losers record their own pips').",
        "Игроков двое: единственный проигравший и есть худший («пишет только худший» = "
        "«проигравшие пишут свои очки»).",
    )
    pairs = draft("house", hand_scoring="worst-own", hand_sizes=[[4, 7]], targets=[[4, 101]])
    pairs["teams"] = "opposite-pairs"
    assert the("N15", check_rules(pairs)).text["en"].startswith("With two sides the only loser")


def test_n16_the_next_opener_of_a_one_hand_match() -> None:
    found = check_rules(draft("house", goal="fixed-hands", targets=[], hands_limit=1))
    finding = the("N16", found)
    assert finding.fields == ("next_opener", "next_fallback")
    said(
        finding,
        "A one-hand match has no next hand.",
        "Матч из одной раздачи — следующего захода нет.",
    )


def test_n17_no_true_block_when_the_hand_ends_with_the_boneyard() -> None:
    finding = the("N17", check_rules(draft("house", later={"end_when_boneyard_empty": True})))
    assert finding.players == (2, 3) and finding.fields == ("fish_counts", "block_scoring")
    said(
        finding,
        "The hand ends as soon as the boneyard runs out, and until then a stuck player must "
        "draw, so a true block never happens.",
        "Партия кончается, как только базар исчерпан, а пока в нём есть кости, застрявший обязан "
        "брать, — настоящей рыбы не бывает.",
    )


def test_n18_a_draw_limit_the_boneyard_never_reaches() -> None:
    found = check_rules(draft("house", draw_limit=14))
    finding = the("N18", [f for f in found if f.players == (2,)])
    assert finding.fields == ("draw_limit",)
    said(
        finding,
        "At most 14 tiles can ever be drawn (with 2 players), so a limit of 14 limits nothing.",
        "Больше 14 костей с базара не взять (при 2 игроках) — предел 14 ничего не ограничивает.",
    )


def test_n19_a_minimum_of_one() -> None:
    finding = the("N19", check_rules(draft("house", min_record=1)))
    assert finding.fields == ("min_record",)
    said(
        finding,
        "Every recorded amount is at least 1 anyway: a minimum of 1 drops nothing.",
        "Записывают и так не меньше 1 очка — минимум 1 ничего не отсекает.",
    )


def test_n20_a_cross_whose_sides_never_fill() -> None:
    rules = draft("block", later={"layout": "cross", "cross_quota": 7})
    finding = the("N20", check_rules(rules))
    assert finding.fields == ("cross_quota", "layout")
    assert finding.players == (2,)
    said(
        finding,
        "At most 14 tiles are in play (with 2 players): with 7 on each side the cross never "
        "opens, so it is a line.",
        "В игре не больше 14 костей (при 2 игроках): с 7 по каждую сторону крест не откроется "
        "— это линия.",
    )


# --- any set a player can write ------------------------------------------------------------------


LATER_CONFLICTS: set[str] = set()  # Kozel (issue 15) and the shapes (issue 16) play now


@st.composite
def drafts(draw: st.DrawFn) -> dict[str, Any]:
    """A rules object as a player could write it: a preset, then any played values."""
    out = draft_of(draw(st.sampled_from(sorted(PRESETS))))
    for spec in FIELDS:
        if spec.name in ("name", "hand_sizes", "targets") or not draw(st.booleans()):
            continue
        if spec.kind == "enum":
            out[spec.name] = draw(st.sampled_from(spec.choices))
        elif spec.kind == "bool":
            out[spec.name] = draw(st.booleans()) if spec.low is None else False
        elif spec.int_choices:
            out[spec.name] = draw(st.sampled_from(spec.int_choices))
        else:
            assert spec.low is not None and spec.high is not None
            out[spec.name] = draw(st.integers(spec.low, min(spec.high, 200)))
    if draw(st.booleans()):
        counts = draw(st.lists(st.integers(2, 4), min_size=1, max_size=3, unique=True))
        out["hand_sizes"] = [[n, draw(st.integers(1, 28 // n))] for n in sorted(counts)]
        out["targets"] = [[n, draw(st.integers(1, 200))] for n in sorted(counts)]
    if out["goal"] == "fixed-hands" and draw(st.booleans()):
        out["targets"] = []
    return out


@settings(max_examples=300, deadline=None)
@given(drafts())
def test_a_set_is_refused_exactly_when_the_check_names_a_conflict(rules: dict[str, Any]) -> None:
    found = check_rules(rules)
    counts = [n for n, _ in rules["hand_sizes"]]
    for finding in found:
        assert set(finding.fields) <= set(FIELD)
        assert set(finding.players) <= set(counts)
        assert "{" not in finding.text["en"] and "{" not in finding.text["ru"]
    bad = conflicts(found)
    # Rows about switches this version does not play never fire while those sit at defaults.
    assert not {f.code for f in bad} & LATER_CONFLICTS
    try:
        Rules.from_dict(rules)
    except InvalidRecord as exc:
        assert bad and str(exc) == f"rules: {bad[0].text['en']}"
    else:
        assert not bad
    # A switch that only matters with a boneyard is never refused for the lack of one: it is
    # "no effect" where there is none, never also a conflict (issue 24).
    grey = set(greyed_fields(found, counts))
    for finding in bad:
        assert not set(finding.fields) & grey & (DRAW_SWITCHES | {"drawing"}), finding
        assert not {"reserve", "fish_counts"} & set(finding.fields), finding


@pytest.mark.parametrize("field", ["hand_sizes", "targets"])
@pytest.mark.parametrize("number", [MSGPACK_INT_MIN - 1, MSGPACK_INT_MAX + 1])
def test_every_number_of_a_rules_object_fits_the_wire(field: str, number: int) -> None:
    """The rules travel in the genesis, whose schema takes msgpack's whole numbers only: a
    rules object with any other is refused where it is read, naming the field and the bounds."""
    pairs = [[2, 7], [3, number], [4, 7]]
    with pytest.raises(InvalidRecord) as refused:
        draft_of({"base": "house", field: pairs})
    assert str(refused.value) == (
        f"rules: {field}: {number} is outside [{MSGPACK_INT_MIN}, {MSGPACK_INT_MAX}], "
        "the whole numbers a table's messages can carry"
    )


def test_a_conflict_supersedes_no_effect_on_the_same_switch() -> None:
    """The editor showed "Conflict: …" and "No effect here: …" on one switch: `draw` with the
    winner's reset on is a conflict (K11: its points are gains) and the reset had no effect
    (N7: no ceremony). The conflict is what must be resolved; the switch is not greyed."""
    found = check_rules(draft("draw", winner_reset=True))
    assert [f.code for f in conflicts(found)] == ["K11"]
    assert all("winner_reset" not in f.fields for f in found if f.kind == "inert")
    assert "winner_reset" not in greyed_fields(found, [2, 3, 4])
    # An inert finding keeps the switches no conflict names: a one-hand match has no next
    # hand (N16), and the weekday rule without a day is a conflict (K16) on next_opener.
    found = check_rules(draft("threes-luck", next_opener="weekday-double"))
    assert [f.code for f in conflicts(found)] == ["K16"]
    n16 = [f for f in found if f.code == "N16"]
    assert [f.fields for f in n16] == [("next_fallback",)]
    # A playable set keeps every no-effect finding.
    assert any(f.code == "N7" for f in check_rules(draft("draw")))
