"""Conflict rows (K1–K19, the sketch's §2.2; K2 retired, now N21): switches that cannot hold
together. A set with one cannot be saved or played."""

from __future__ import annotations

from typing import Final

from p2p_dominoes.engine.rule_fields import (
    DOUBLE_RULES,
    BlockScoring,
    Doubles,
    Fallback,
    Goal,
    HandScoring,
    Layout,
    MoveScoring,
    Opener,
    TargetCheck,
)
from p2p_dominoes.engine.rules_check.draft import Draft
from p2p_dominoes.engine.rules_check.rows import Hit, Say, row, when

RETIRED: Final = {
    "K2": "retired (issue 24): `fish_counts = false` where a count has no boneyard is no longer "
    "refused; there the block counts (N21)",
}
"""Codes no longer checked, with why (their codes are never reused)."""


@row(
    "conflict",
    "K1",
    ("teams", "hand_sizes"),
    doc="`teams = opposite-pairs` and a supported count ≠ 4",
)
def _k1(d: Draft, n: int) -> Hit | None:
    return when(d.pairs_play and n != 4)


@row(
    "conflict",
    "K3",
    ("layout", "doubles"),
    doc="`layout` cross or telephone with `doubles = along`",
)
def _k3(d: Draft, n: int) -> Hit | None:
    return when(
        d.s("layout") in (Layout.CROSS, Layout.TELEPHONE) and d.s("doubles") == Doubles.ALONG
    )


@row(
    "conflict",
    "K4",
    ("layout", "first_opener", "next_opener"),
    doc="`layout = trains` and an opener that is not a double rule",
)
def _k4(d: Draft, n: int) -> Hit | None:
    if d.s("layout") != Layout.TRAINS:
        return None
    wrong = tuple(f for f, rule, _, _ in d.openers() if rule not in DOUBLE_RULES)
    return Hit(("layout", *wrong)) if wrong else None


@row(
    "conflict",
    "K5",
    ("layout", "first_fallback", "next_fallback"),
    doc="`layout = trains`, a double rule whose fallback is not `redeal`, at a count without "
    "the full deal",
)
def _k5(d: Draft, n: int) -> Hit | None:
    if d.s("layout") != Layout.TRAINS or d.full_deal(n):
        return None
    wrong = tuple(
        fb
        for _, rule, fb, fallback in d.openers()
        if rule in DOUBLE_RULES and fallback != Fallback.REDEAL
    )
    return Hit(("layout", *wrong)) if wrong else None


@row(
    "conflict",
    "K6",
    ("layout", "teams"),
    doc="`layout = trains` with `teams = opposite-pairs`",
)
def _k6(d: Draft, n: int) -> Hit | None:
    return when(d.s("layout") == Layout.TRAINS and d.pairs_play)


@row(
    "conflict",
    "K7",
    ("hand_scoring", "move_scoring"),
    doc="bad polarity (`hand_scoring` losers-own / worst-own) with `move_scoring ≠ none`",
)
def _k7(d: Draft, n: int) -> Hit | None:
    return when(d.bad and d.s("move_scoring") != MoveScoring.NONE)


@row(
    "conflict",
    "K8",
    ("goal", "hand_scoring"),
    doc="bad polarity with `goal = reach-wins`, or good polarity with `goal = reach-loses`",
)
def _k8(d: Draft, n: int) -> Hit | None:
    goal = d.s("goal")
    if d.bad and goal == Goal.REACH_WINS:
        return Hit(params={"who": Say("engine.check.k8_worst")})
    if not d.bad and goal == Goal.REACH_LOSES:
        return Hit(params={"who": Say("engine.check.k8_best")})
    return None


@row(
    "conflict",
    "K9",
    ("hand_scoring", "move_scoring", "domino_bonus", "block_bonus"),
    doc="`hand_scoring = none`, `move_scoring = none` and both bonuses 0",
)
def _k9(d: Draft, n: int) -> Hit | None:
    return when(
        d.s("hand_scoring") == HandScoring.NONE
        and d.s("move_scoring") == MoveScoring.NONE
        and d.i("domino_bonus") == 0
        and d.i("block_bonus") == 0
    )


@row(
    "conflict",
    "K10",
    ("block_scoring", "hand_scoring"),
    doc="`block_scoring = all-to-worst` with `hand_scoring = leader-takes`",
)
def _k10(d: Draft, n: int) -> Hit | None:
    return when(
        d.s("block_scoring") == BlockScoring.ALL_TO_WORST
        and d.s("hand_scoring") == HandScoring.LEADER_TAKES
    )


@row(
    "conflict",
    "K11",
    ("winner_reset", "hand_scoring"),
    doc="`winner_reset` with good polarity",
)
def _k11(d: Draft, n: int) -> Hit | None:
    return when(d.b("winner_reset") and not d.bad)


@row(
    "conflict",
    "K12",
    ("domino_bonus", "block_bonus", "hand_scoring"),
    doc="`domino_bonus` or `block_bonus` > 0 with bad polarity",
)
def _k12(d: Draft, n: int) -> Hit | None:
    return when(d.bad and (d.i("domino_bonus") > 0 or d.i("block_bonus") > 0))


@row(
    "conflict",
    "K13",
    ("extra_turn_sum", "forced_draw_sum"),
    doc="`extra_turn_sum = forced_draw_sum ≠ 0` at a count with a boneyard (without one the "
    "draw-two never fires, N1)",
)
def _k13(d: Draft, n: int) -> Hit | None:
    total = d.i("extra_turn_sum")  # neither fires without a boneyard (N1) or past the most (N14)
    reachable = 0 < total <= d.max_end_total(n)
    return when(reachable and total == d.i("forced_draw_sum") and d.drawable(n) > 0, N=total)


@row(
    "conflict",
    "K14",
    ("move_scoring", "hand_scoring"),
    doc="`move_scoring = luck` without `hand_scoring = luck-settlement`, or the reverse",
)
def _k14(d: Draft, n: int) -> Hit | None:
    return when(
        (d.s("move_scoring") == MoveScoring.LUCK)
        != (d.s("hand_scoring") == HandScoring.LUCK_SETTLEMENT)
    )


@row(
    "conflict",
    "K15",
    ("goal", "hands_limit"),
    doc="`goal = fixed-hands` with `hands_limit = 0`",
)
def _k15(d: Draft, n: int) -> Hit | None:
    return when(d.s("goal") == Goal.FIXED_HANDS and d.i("hands_limit") == 0)


@row(
    "conflict",
    "K16",
    ("first_opener", "next_opener", "weekday"),
    doc="an opener is `weekday-double` and `weekday = 0`",
)
def _k16(d: Draft, n: int) -> Hit | None:
    used = tuple(f for f, rule, _, _ in d.openers() if rule == Opener.WEEKDAY_DOUBLE)
    return Hit((*used, "weekday")) if used and d.i("weekday") == 0 else None


@row(
    "conflict",
    "K17",
    ("next_opener", "next_fallback"),
    doc="`next_opener = previous-winner` with `next_fallback = redeal`",
)
def _k17(d: Draft, n: int) -> Hit | None:
    return when(
        d.s("next_opener") == Opener.PREVIOUS_WINNER and d.s("next_fallback") == Fallback.REDEAL
    )


@row(
    "conflict",
    "K18",
    ("min_record", "hand_sizes"),
    doc="**(found here)** a match to a target scored at the hand's end whose `min_record` is "
    "above the largest amount a hand can record at some count (no boneyard: the heaviest "
    "hand that can be dealt; else every tile in play but one; after rounding), so nothing "
    "is ever recorded and the match never ends",
)
def _k18(d: Draft, n: int) -> Hit | None:
    # Found here, not in the sketch: a minimum above every amount a hand can record means
    # nothing is ever written, so no target is ever reached and the match never ends.
    if d.s("hand_scoring") not in (
        HandScoring.LOSERS_OWN,
        HandScoring.WORST_OWN,
        HandScoring.LEADER_TAKES,
    ):
        return None
    if d.s("goal") == Goal.FIXED_HANDS or d.s("move_scoring") != MoveScoring.NONE:
        return None
    most = _most_recorded(d, n)
    return when(d.i("min_record") > most, most=most)


@row(
    "conflict",
    "K19",
    ("target_check", "goal"),
    doc="**(found here)** `target_check = immediate` with `goal = reach-loses` while placements "
    "score (`move_scoring` ends or placed-tile): a target reached mid-hand ends the match "
    "naming the reacher the hand's winner, which a losing target contradicts",
)
def _k19(d: Draft, n: int) -> Hit | None:
    # Found here: a target reached mid-hand ends the match naming the reacher its hand's winner,
    # which a target that loses contradicts.
    counts_at_once = d.s("move_scoring") in (MoveScoring.ENDS, MoveScoring.PLACED_TILE)
    return when(
        counts_at_once
        and d.s("target_check") == TargetCheck.IMMEDIATE
        and d.s("goal") == Goal.REACH_LOSES
    )


def _most_recorded(d: Draft, n: int) -> int:
    """An upper bound of the end-of-hand amount one hand can record with `n` players, rounded
    as the rules round (at least one tile lies on the table when a hand ends)."""
    in_play = d.in_play(n)
    if d.s("hand_scoring") == HandScoring.LEADER_TAKES or (
        d.s("block_scoring") == BlockScoring.ALL_TO_WORST
    ):
        most = _heaviest_pips(in_play - 1)  # every pip in the other hands
    elif d.drawable(n) == 0:
        most = _heaviest_pips(d.sizes[n])  # a loser's own hand, never grown by drawing
    else:
        most = _heaviest_pips(in_play - 1)
    step = max(1, d.i("rounding"))
    return (most + step // 2) // step * step


def _heaviest_pips(count: int) -> int:
    weights = sorted((a + b for a in range(7) for b in range(a, 7)), reverse=True)
    return sum(weights[:count])
