"""Structure rows (V1–V4, the sketch's §1.4): a rules object that is not well formed — hand
sizes, targets, an opening rule the first hand cannot use. Reported like conflicts."""

from __future__ import annotations

from typing import Final

from p2p_dominoes.engine.rule_fields import Fallback, Goal, Opener
from p2p_dominoes.engine.rules_check.draft import TILES, Draft
from p2p_dominoes.engine.rules_check.rows import Hit, Say, row, when


@row(
    "conflict",
    "V1",
    ("hand_sizes",),
    doc="`hand_sizes` empty, out of order, repeated, a count outside 2–4 or a size below 1",
    each_count=False,
)
def _v1(d: Draft, n: int) -> Hit | None:
    counts = [p for p, _ in d.pairs]
    raw = d.raw("hand_sizes")
    shaped = isinstance(raw, (list, tuple)) and len(d.pairs) == len(raw)
    ok = (
        shaped
        and bool(counts)
        and counts == sorted(set(counts))
        and all(2 <= p <= 4 and size >= 1 for p, size in d.pairs)
    )
    return when(not ok)


@row(
    "conflict",
    "V2",
    ("hand_sizes",),
    doc="players × size > 28 at a count (the reserve is the last tiles of the boneyard, never "
    "more than it holds: where the whole set is dealt there is no boneyard and no reserve, "
    "N1)",
)
def _v2(d: Draft, n: int) -> Hit | None:
    # The reserve is at most the boneyard: no boneyard, no reserve (N1), not a conflict.
    return when(d.dealt(n) > TILES, size=d.sizes[n])


@row(
    "conflict",
    "V3",
    ("targets", "goal"),
    doc="`targets` do not name the same counts as `hand_sizes` (or a target below 1); `targets` "
    "not `[]` with `goal = fixed-hands`",
    each_count=False,
)
def _v3(d: Draft, n: int) -> Hit | None:
    counts = [p for p, _ in d.target_pairs]
    fixed = d.s("goal") == Goal.FIXED_HANDS
    if fixed:
        return when(
            bool(counts),
            why=Say("engine.check.v3_a_fixed_number_of"),
        )
    ok = counts == list(d.counts) and all(t >= 1 for _, t in d.target_pairs) and bool(counts)
    return when(
        not ok,
        why=Say("engine.check.v3_each_player_count_needs"),
    )


@row(
    "conflict",
    "V4",
    ("first_opener",),
    doc="`first_opener` is `rotate` / `previous-winner`, or `first_fallback` is "
    "`previous-opener` / `rotate`",
    each_count=False,
)
def _v4(d: Draft, n: int) -> Hit | list[Hit] | None:
    hits = []
    if d.s("first_opener") in (Opener.ROTATE, Opener.PREVIOUS_WINNER):
        hits.append(Hit(("first_opener",), {"rule": _opener_words(d.s("first_opener"))}))
    if d.s("first_fallback") in (Fallback.PREVIOUS_OPENER, Fallback.ROTATE):
        hits.append(Hit(("first_fallback",), {"rule": _opener_words(d.s("first_fallback"))}))
    return hits or None


_OPENER_WORDS: Final[dict[str, Say]] = {
    Opener.ROTATE: Say("engine.check.opener_clockwise_from_the_last"),
    Opener.PREVIOUS_WINNER: Say("engine.check.opener_the_previous_hand_s"),
    Fallback.PREVIOUS_OPENER: Say("engine.check.opener_the_previous_opener"),
}


def _opener_words(rule: str) -> Say | str:
    return _OPENER_WORDS.get(rule, rule)
