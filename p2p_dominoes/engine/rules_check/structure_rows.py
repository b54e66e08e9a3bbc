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
    ru="Раздача задаётся для 2, 3 или 4 игроков, по возрастанию и без повторов, хотя бы по "
    "одной кости каждому.",
    en="Hand sizes name 2, 3 or 4 players, in ascending order without repeats, at least one "
    "tile each.",
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
    ru="Столько костей в наборе нет: при {players} игроках по {size} не помещаются в 28 костей.",
    en="Not enough tiles: {size} each for {players} players exceed the 28 of the set.",
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
    ru="Цели не совпадают с раздачей: {why}.",
    en="The targets do not match the deal: {why}.",
    each_count=False,
)
def _v3(d: Draft, n: int) -> Hit | None:
    counts = [p for p, _ in d.target_pairs]
    fixed = d.s("goal") == Goal.FIXED_HANDS
    if fixed:
        return when(
            bool(counts),
            why=Say("при игре на число раздач целей нет", "a fixed number of hands has no targets"),
        )
    ok = counts == list(d.counts) and all(t >= 1 for _, t in d.target_pairs) and bool(counts)
    return when(
        not ok,
        why=Say(
            "нужна цель не меньше 1 для каждого числа игроков",
            "each player count needs a target of at least 1",
        ),
    )


@row(
    "conflict",
    "V4",
    ("first_opener",),
    doc="`first_opener` is `rotate` / `previous-winner`, or `first_fallback` is "
    "`previous-opener` / `rotate`",
    ru="В первой раздаче прошлой ещё нет: правило «{rule}» для неё не годится.",
    en="The first hand has no previous hand: '{rule}' cannot decide it.",
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
    Opener.ROTATE: Say("по кругу от прошлого заходившего", "clockwise from the last opener"),
    Opener.PREVIOUS_WINNER: Say("победитель прошлой партии", "the previous hand's winner"),
    Fallback.PREVIOUS_OPENER: Say("прошлый заходивший", "the previous opener"),
}


def _opener_words(rule: str) -> Say:
    return _OPENER_WORDS.get(rule, Say(rule, rule))
