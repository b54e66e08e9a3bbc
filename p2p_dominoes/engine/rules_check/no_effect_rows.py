"""No-effect rows (N1–N21, the sketch's §2.3): a switch that changes nothing in the assembled
game is greyed, saying why (for every supported player count), or noted (for some)."""

from __future__ import annotations

from typing import Final

from p2p_dominoes.engine.rule_fields import (
    DOUBLE_RULES,
    Drawing,
    Goal,
    HandScoring,
    Layout,
    MoveScoring,
    Opener,
)
from p2p_dominoes.engine.rules_check.draft import END_TOTAL_SCORING, NEVER_FAILING, Draft
from p2p_dominoes.engine.rules_check.rows import Hit, Say, row, when

_DRAW_SWITCHES: Final = (
    "drawing",
    "must_draw_when_stuck",
    "draw_limit",
    "reserve",
    "play_drawn_at_once",
    "forced_draw_sum",
    "end_when_boneyard_empty",
    "fish_counts",
)
"""The switches that only matter with a boneyard (N1)."""


@row(
    "inert",
    "N1",
    _DRAW_SWITCHES,
    doc="no boneyard at the count (`drawing = never`, the whole set dealt, or the rest is the "
    "reserve); the switch that caused it (`drawing` or `reserve`) stays live",
)
def _n1(d: Draft, n: int) -> Hit | None:
    if d.drawable(n) > 0:
        return None
    said = set() if d.b("fish_counts") else {"fish_counts"}  # N21 says why
    if d.s("drawing") == Drawing.NEVER:
        # `drawing` is the switch that removed the boneyard: it stays live.
        why = Say("engine.check.n1_the_rules_have_none")
        skip = {"drawing"}
    elif d.full_deal(n):
        why = Say("engine.check.n1_the_whole_set_is")
        skip = set()
    else:
        why = Say("engine.check.n1_the_rest_is_the")
        skip = {"reserve"}
    return Hit(tuple(f for f in _DRAW_SWITCHES if f not in skip | said), {"why": why})


@row(
    "inert",
    "N2",
    ("play_drawn_at_once",),
    doc="a boneyard, `drawing = when-stuck` and `forced_draw_sum = 0`",
)
def _n2(d: Draft, n: int) -> Hit | None:
    return when(
        d.drawable(n) > 0 and d.s("drawing") == Drawing.WHEN_STUCK and d.i("forced_draw_sum") == 0
    )


@row(
    "inert",
    "N3",
    ("cross_quota",),
    doc="`layout ≠ cross`",
    each_count=False,
)
def _n3(d: Draft, n: int) -> Hit | None:
    return when(d.s("layout") != Layout.CROSS)


@row(
    "inert",
    "N4",
    ("assigned_double",),
    doc="no opener is `assigned-double`",
    each_count=False,
)
def _n4(d: Draft, n: int) -> Hit | None:
    return when(not d.uses_opener(Opener.ASSIGNED_DOUBLE))


@row(
    "inert",
    "N5",
    ("weekday",),
    doc="no opener is `weekday-double`",
    each_count=False,
)
def _n5(d: Draft, n: int) -> Hit | None:
    return when(not d.uses_opener(Opener.WEEKDAY_DOUBLE))


@row(
    "inert",
    "N6",
    ("first_fallback", "next_fallback"),
    doc="that hand's opener never fails (`lottery`, `rotate`, `heaviest-tile`), or is a double "
    "rule with the whole set dealt at the count",
)
def _n6(d: Draft, n: int) -> list[Hit]:
    hits = []
    for _, rule, fallback_field, _ in d.openers():
        if rule in NEVER_FAILING:
            why = Say("engine.check.n6_it_always_names_an")
        elif rule in DOUBLE_RULES and d.full_deal(n):
            why = Say("engine.check.n6_the_whole_set_is")
        else:
            continue
        hits.append(Hit((fallback_field,), {"why": why}))
    return hits


@row(
    "inert",
    "N7",
    ("winner_reset",),
    doc="`general`, `admiral`, `snotty_goat` all off",
    each_count=False,
)
def _n7(d: Draft, n: int) -> Hit | None:
    return when(not (d.b("general") or d.b("admiral") or d.b("snotty_goat")))


@row(
    "inert",
    "N8",
    ("doubles",),
    doc="`layout` line or trains, nothing reads the end total (`move_scoring` ends/luck, "
    "`extra_turn_sum`, `forced_draw_sum`) (the donkey rule closes a double's ray whichever "
    "way it lies)",
    each_count=False,
)
def _n8(d: Draft, n: int) -> Hit | None:
    # The donkey rule closes a double's ray whichever way the double lies.
    return when(d.s("layout") in (Layout.LINE, Layout.TRAINS) and not d.reads_end_total)


@row(
    "inert",
    "N9",
    ("rounding", "min_record", "block_scoring"),
    doc="`hand_scoring` none or luck-settlement",
    each_count=False,
)
def _n9(d: Draft, n: int) -> Hit | None:
    return when(d.s("hand_scoring") in (HandScoring.NONE, HandScoring.LUCK_SETTLEMENT))


@row(
    "inert",
    "N10",
    ("block_scoring", "block_bonus"),
    doc="`fish_counts = false`, `end_when_boneyard_empty = false` and a boneyard at the count",
)
def _n10(d: Draft, n: int) -> Hit | None:
    redealt = not d.b("fish_counts") and not d.b("end_when_boneyard_empty")
    return when(redealt and d.drawable(n) > 0)  # without a boneyard a block counts (N21)


@row(
    "inert",
    "N11",
    ("ends_modulus", "ends_award"),
    doc="`ends_modulus` unless `move_scoring` is ends/luck; `ends_award` unless ends",
    each_count=False,
)
def _n11(d: Draft, n: int) -> list[Hit]:
    hits = []
    if d.s("move_scoring") not in END_TOTAL_SCORING:
        hits.append(Hit(("ends_modulus",)))
    if d.s("move_scoring") != MoveScoring.ENDS:
        hits.append(Hit(("ends_award",)))
    return hits


@row(
    "inert",
    "N12",
    ("targets", "target_check", "hands_limit"),
    doc="`targets`, `target_check` with `goal = fixed-hands`; `hands_limit` otherwise",
    each_count=False,
)
def _n12(d: Draft, n: int) -> Hit:
    if d.s("goal") == Goal.FIXED_HANDS:
        return Hit(
            ("targets", "target_check"),
            {"why": Say("engine.check.n12_the_match_is_a")},
        )
    return Hit(
        ("hands_limit",),
        {"why": Say("engine.check.n12_the_match_is_played")},
    )


@row(
    "inert",
    "N13",
    ("target_check",),
    doc="`move_scoring = none` or `luck` (Threes for luck settles at the hand's end), and the "
    "goal is a target",
    each_count=False,
)
def _n13(d: Draft, n: int) -> Hit | None:
    # Threes for luck scores during play but settles at the hand's end: nothing to check either.
    return when(
        d.s("move_scoring") in (MoveScoring.NONE, MoveScoring.LUCK)
        and d.s("goal") != Goal.FIXED_HANDS
    )


@row(
    "inert",
    "N14",
    ("extra_turn_sum", "forced_draw_sum"),
    doc="the sum is above the largest end total at the count: line 22 (12 with `doubles = "
    "along`), cross/telephone 36 (24 along), trains 30/36/40 for 2/3/4 players (6 per train "
    "end along)",
)
def _n14(d: Draft, n: int) -> list[Hit]:
    most = d.max_end_total(n)
    return [
        Hit((name,), {"N": d.i(name), "max": most})
        for name in ("extra_turn_sum", "forced_draw_sum")
        if d.i(name) > most
    ]


@row(
    "inert",
    "N15",
    ("hand_scoring",),
    doc="`hand_scoring = worst-own` with `teams = opposite-pairs`, or **(added here)** with 2 "
    "players",
)
def _n15(d: Draft, n: int) -> Hit | None:
    if d.s("hand_scoring") != HandScoring.WORST_OWN:
        return None
    if d.pairs_play:
        return Hit(params={"sides": Say("engine.check.n15_with_two_sides")})
    if n == 2:  # an addition: two players have one loser too
        return Hit(params={"sides": Say("engine.check.n15_with_two_players")})
    return None


@row(
    "inert",
    "N16",
    ("next_opener", "next_fallback"),
    doc="`goal = fixed-hands` with `hands_limit = 1`",
    each_count=False,
)
def _n16(d: Draft, n: int) -> Hit | None:
    return when(d.s("goal") == Goal.FIXED_HANDS and d.i("hands_limit") == 1)


@row(
    "inert",
    "N17",
    ("fish_counts", "block_scoring"),
    doc="`end_when_boneyard_empty`, `must_draw_when_stuck`, **(added here)** `draw_limit = 0`, "
    "and a boneyard at the count",
)
def _n17(d: Draft, n: int) -> Hit | None:
    return when(
        d.b("end_when_boneyard_empty")
        and d.b("must_draw_when_stuck")
        and d.i("draw_limit") == 0
        and d.drawable(n) > 0
    )


@row(
    "inert",
    "N18",
    ("draw_limit",),
    doc="**(found here)** `draw_limit` at or above the tiles that can ever be drawn at the count",
)
def _n18(d: Draft, n: int) -> Hit | None:
    # An addition: a limit at or above what the boneyard can ever hold never binds.
    limit = d.i("draw_limit")
    drawable = d.drawable(n)
    return when(0 < drawable <= limit, limit=limit, drawable=drawable)


@row(
    "inert",
    "N19",
    ("min_record",),
    doc="**(found here)** `min_record = 1` with an end-of-hand amount (an amount of 0 is "
    "nothing recorded anyway)",
    each_count=False,
)
def _n19(d: Draft, n: int) -> Hit | None:
    # An addition: min_record 1 drops nothing (every recorded amount is at least 1 already).
    return when(
        d.i("min_record") == 1
        and d.s("hand_scoring") not in (HandScoring.NONE, HandScoring.LUCK_SETTLEMENT)
    )


@row(
    "inert",
    "N20",
    ("cross_quota", "layout"),
    doc="**(found here)** `layout = cross` and 2 × `cross_quota` + 1 above the tiles in play at "
    "the count",
)
def _n20(d: Draft, n: int) -> Hit | None:
    # An addition: on a cross whose sides can never both hold the quota, no side ray opens.
    if d.s("layout") != Layout.CROSS:
        return None
    in_play = d.in_play(n)
    quota = d.i("cross_quota")
    return when(2 * quota + 1 > in_play, quota=quota, tiles=in_play)


@row(
    "inert",
    "N21",
    ("fish_counts",),
    doc="**(found here)** `fish_counts = false` and no boneyard at the count (it was the "
    "conflict K2): a set covers several player counts, and a redeal needs a boneyard, so "
    "there the block counts as usual; N1 then leaves `fish_counts` to this row",
)
def _n21(d: Draft, n: int) -> Hit | None:
    # Found here (was the conflict K2): a redeal needs a boneyard; where none, the block counts.
    return when(not d.b("fish_counts") and d.drawable(n) == 0)
