"""The rules editor's check: which switches cannot hold together, and which have no effect.

`check_rules` reads a draft (every field of a rules object, as `rules.draft_of` gives it) and
returns findings, each naming the switches involved and why, in Russian and English. A
*conflict* means the set cannot be saved or played ("такой набор не сохранится"); an *inert*
finding greys a switch that changes nothing in the assembled game ("гаснет с пояснением").
The rows are data (`ROWS`): a code, the fields, a predicate, and the two texts. Every row is
evaluated for each supported player count; one finding covers the counts where a row fires
alike. Codes: V1–V4 structure, K1–K19 conflicts (K2 retired), N1–N21 no effect (docs/rules.md).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Final, Literal

from p2p_dominoes.engine.rule_fields import DOUBLE_RULES, FIELD

Kind = Literal["conflict", "inert"]

TILES: Final = 28
"""Tiles in the double-six set."""
ALL_PIPS: Final = 168
"""Pips on all 28 tiles together."""

NEVER_FAILING: Final = frozenset({"lottery", "rotate", "heaviest-tile"})
"""Opening rules that always name an opener: their fallback is never used."""
BAD_SCORING: Final = frozenset({"losers-own", "worst-own"})
"""`hand_scoring` values that make recorded points penalties (reach the target and lose)."""
END_TOTAL_SCORING: Final = frozenset({"ends", "luck"})
"""`move_scoring` values that read the end total."""


@dataclass(frozen=True)
class Finding:
    """One conflict or switch with no effect: the switches involved, where, and why."""

    kind: Kind
    code: str
    """Stable id of the row, e.g. "K2" or "N1"."""
    fields: tuple[str, ...]
    """The fields involved (the editor highlights them)."""
    players: tuple[int, ...]
    """The player counts it applies to; () = every supported count."""
    text: Mapping[str, str] = field(hash=False)
    """{"ru": …, "en": …}, placeholders filled."""

    @property
    def greyed(self) -> bool:
        """An inert finding for every supported count: the editor greys its switches."""
        return self.kind == "inert" and not self.players


def check_rules(draft: Mapping[str, object]) -> list[Finding]:
    """Every finding for `draft`: conflicts (V, K) first in code order, then inert ones (N)."""
    try:
        key = tuple((name, _frozen(value)) for name, value in draft.items())
        hash(key)
    except TypeError:  # a value of no known shape: check it afresh
        return _check(draft)
    return list(_check_frozen(key))


def _frozen(value: object) -> object:
    if isinstance(value, (list, tuple)):
        return tuple(_frozen(v) for v in value)
    return value


@functools.lru_cache(maxsize=256)
def _check_frozen(key: tuple[tuple[str, object], ...]) -> tuple[Finding, ...]:
    # Rules are checked each time one is built (records, genesis, the editor): the same few
    # sets over and over, so the answers are kept.
    return tuple(_check(dict(key)))


def _check(draft: Mapping[str, object]) -> list[Finding]:
    d = _Draft(draft)
    found: list[Finding] = []
    for row in ROWS:
        hits: dict[tuple[tuple[str, ...], tuple[tuple[str, str, str], ...]], list[int]] = {}
        for n in d.counts if row.each_count else (0,):
            hit = row.test(d, n)
            for one in [] if hit is None else [hit] if isinstance(hit, _Hit) else hit:
                key = (one.fields or row.fields, _params_key(one.params))
                hits.setdefault(key, []).append(n)
        for (fields, params), counts in hits.items():
            players = () if not row.each_count or counts == list(d.counts) else tuple(counts)
            shown = counts if row.each_count else list(d.counts)
            text = MappingProxyType(
                {lang: _fill(getattr(row, lang), lang, params, shown) for lang in ("ru", "en")}
            )
            found.append(Finding(row.kind, row.code, fields, players, text))
    return found


def conflicts(findings: Iterable[Finding]) -> list[Finding]:
    """The findings that stop a set from being saved or played."""
    return [f for f in findings if f.kind == "conflict"]


def inert(findings: Iterable[Finding]) -> list[Finding]:
    """The findings about switches with no effect (greyed, or a note for some counts)."""
    return [f for f in findings if f.kind == "inert"]


def greyed_fields(findings: Iterable[Finding], counts: Sequence[int]) -> dict[str, list[Finding]]:
    """The fields with no effect at every one of `counts` (the supported player counts), each
    with the findings that say why (one finding, or several that share the counts out)."""
    covered: dict[str, set[int]] = {}
    why: dict[str, list[Finding]] = {}
    for finding in inert(findings):
        for name in finding.fields:
            covered.setdefault(name, set()).update(finding.players or counts)
            why.setdefault(name, []).append(finding)
    return {name: why[name] for name in why if covered[name] >= set(counts)}


def players_text(counts: Sequence[int], lang: str) -> str:
    """ "4", "3 and 4", "2, 3 and 4" (ru: «3 и 4»): player counts as words read them."""
    words = [str(n) for n in counts]
    joiner = " и " if lang == "ru" else " and "
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + joiner + words[-1]


# --- the draft, read with the derived notions of the sketch (§1.3) ---------------------------


class _Draft:
    """Typed reads of a draft, and what follows from its fields."""

    def __init__(self, data: Mapping[str, object]) -> None:
        self._data = data
        self.pairs = _pairs(data.get("hand_sizes"))
        self.target_pairs = _pairs(data.get("targets"))
        self.sizes = {n: size for n, size in self.pairs if 2 <= n <= 4 and size >= 1}
        self.counts: tuple[int, ...] = tuple(sorted(self.sizes))

    def raw(self, name: str) -> object:
        if name in self._data:
            return self._data[name]
        # A draft from `draft_of` holds every field; anything else left out means the default.
        spec = FIELD.get(name)
        return None if spec is None or spec.required else spec.to_plain(spec.default)

    def s(self, name: str) -> str:
        return str(self.raw(name))

    def i(self, name: str) -> int:
        value = self.raw(name)
        return value if isinstance(value, int) and not isinstance(value, bool) else 0

    def b(self, name: str) -> bool:
        return self.raw(name) is True

    @property
    def bad(self) -> bool:
        """Recorded points are penalties (polarity "bad")."""
        return self.s("hand_scoring") in BAD_SCORING

    @property
    def pairs_play(self) -> bool:
        return self.s("teams") == "opposite-pairs"

    def dealt(self, n: int) -> int:
        return n * self.sizes[n]

    def full_deal(self, n: int) -> bool:
        return self.dealt(n) >= TILES

    def drawable(self, n: int) -> int:
        """Tiles that can ever be drawn with `n` players (0: no boneyard)."""
        if self.s("drawing") == "never":
            return 0
        return max(0, TILES - self.dealt(n) - self.i("reserve"))

    @property
    def reads_end_total(self) -> bool:
        return (
            self.s("move_scoring") in END_TOTAL_SCORING
            or self.i("extra_turn_sum") > 0
            or self.i("forced_draw_sum") > 0
        )

    def max_end_total(self, n: int) -> int:
        """The largest end total S that can occur (line 22: [6|6] and [5|5] crosswise)."""
        along = self.s("doubles") == "along"
        layout = self.s("layout")
        ends = {"line": 2, "cross": 4, "telephone": 4}.get(layout, n + 1)
        if along:
            return 6 * ends  # a double lengthwise counts one half, like any other end
        if layout == "trains":
            return {2: 30, 3: 36}.get(n, 40)
        return sum(2 * v for v in range(6, 6 - ends, -1))

    def openers(self) -> tuple[tuple[str, str, str, str], ...]:
        """(opener field, its rule, fallback field, its rule) for the first and later hands."""
        return (
            ("first_opener", self.s("first_opener"), "first_fallback", self.s("first_fallback")),
            ("next_opener", self.s("next_opener"), "next_fallback", self.s("next_fallback")),
        )

    def uses_opener(self, rule: str) -> bool:
        return rule in (self.s("first_opener"), self.s("next_opener"))


def _pairs(value: object) -> list[tuple[int, int]]:
    if not isinstance(value, (list, tuple)):
        return []
    out = []
    for pair in value:
        if (
            isinstance(pair, (list, tuple))
            and len(pair) == 2
            and all(isinstance(x, int) and not isinstance(x, bool) for x in pair)
        ):
            out.append((int(pair[0]), int(pair[1])))
    return out


# --- the rows ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Words:
    """A placeholder value that reads differently in each language."""

    ru: str
    en: str


@dataclass(frozen=True)
class _Hit:
    """A row fired: its fields (when they depend on the draft) and placeholder values."""

    fields: tuple[str, ...] = ()
    params: Mapping[str, str | int | _Words] = field(default_factory=dict)


_Test = Callable[[_Draft, int], "_Hit | list[_Hit] | None"]


@dataclass(frozen=True)
class _Row:
    kind: Kind
    code: str
    fields: tuple[str, ...]
    test: _Test
    ru: str
    en: str
    each_count: bool = True
    """Evaluated once per supported player count ({players} then names the counts)."""


def _params_key(params: Mapping[str, str | int | _Words]) -> tuple[tuple[str, str, str], ...]:
    out = []
    for key, value in sorted(params.items()):
        if isinstance(value, _Words):
            out.append((key, value.ru, value.en))
        else:
            out.append((key, str(value), str(value)))
    return tuple(out)


def _fill(
    template: str, lang: str, params: tuple[tuple[str, str, str], ...], counts: Sequence[int]
) -> str:
    values = {key: ru if lang == "ru" else en for key, ru, en in params}
    values["players"] = players_text(counts, lang)
    return template.format(**values)


def _when(condition: bool, **params: str | int | _Words) -> _Hit | None:
    return _Hit(params=params) if condition else None


# Structure (sketch §1.4): plain errors, reported like conflicts.


def _v1(d: _Draft, n: int) -> _Hit | None:
    counts = [p for p, _ in d.pairs]
    raw = d.raw("hand_sizes")
    shaped = isinstance(raw, (list, tuple)) and len(d.pairs) == len(raw)
    ok = (
        shaped
        and bool(counts)
        and counts == sorted(set(counts))
        and all(2 <= p <= 4 and size >= 1 for p, size in d.pairs)
    )
    return _when(not ok)


def _v2(d: _Draft, n: int) -> _Hit | None:
    # The reserve is at most the boneyard: no boneyard, no reserve (N1), not a conflict.
    return _when(d.dealt(n) > TILES, size=d.sizes[n])


def _v3(d: _Draft, n: int) -> _Hit | None:
    counts = [p for p, _ in d.target_pairs]
    fixed = d.s("goal") == "fixed-hands"
    if fixed:
        return _when(
            bool(counts),
            why=_Words(
                "при игре на число раздач целей нет", "a fixed number of hands has no targets"
            ),
        )
    ok = counts == list(d.counts) and all(t >= 1 for _, t in d.target_pairs) and bool(counts)
    return _when(
        not ok,
        why=_Words(
            "нужна цель не меньше 1 для каждого числа игроков",
            "each player count needs a target of at least 1",
        ),
    )


def _v4(d: _Draft, n: int) -> _Hit | list[_Hit] | None:
    hits = []
    if d.s("first_opener") in ("rotate", "previous-winner"):
        hits.append(_Hit(("first_opener",), {"rule": _opener_words(d.s("first_opener"))}))
    if d.s("first_fallback") in ("previous-opener", "rotate"):
        hits.append(_Hit(("first_fallback",), {"rule": _opener_words(d.s("first_fallback"))}))
    return hits or None


def _opener_words(rule: str) -> _Words:
    return {
        "rotate": _Words("по кругу от прошлого заходившего", "clockwise from the last opener"),
        "previous-winner": _Words("победитель прошлой партии", "the previous hand's winner"),
        "previous-opener": _Words("прошлый заходивший", "the previous opener"),
    }.get(rule, _Words(rule, rule))


# Conflicts (sketch §2.2).


def _k1(d: _Draft, n: int) -> _Hit | None:
    return _when(d.pairs_play and n != 4)


def _k3(d: _Draft, n: int) -> _Hit | None:
    return _when(d.s("layout") in ("cross", "telephone") and d.s("doubles") == "along")


def _k4(d: _Draft, n: int) -> _Hit | None:
    if d.s("layout") != "trains":
        return None
    wrong = tuple(f for f, rule, _, _ in d.openers() if rule not in DOUBLE_RULES)
    return _Hit(("layout", *wrong)) if wrong else None


def _k5(d: _Draft, n: int) -> _Hit | None:
    if d.s("layout") != "trains" or d.full_deal(n):
        return None
    wrong = tuple(
        fb for _, rule, fb, fallback in d.openers() if rule in DOUBLE_RULES and fallback != "redeal"
    )
    return _Hit(("layout", *wrong)) if wrong else None


def _k6(d: _Draft, n: int) -> _Hit | None:
    return _when(d.s("layout") == "trains" and d.pairs_play)


def _k7(d: _Draft, n: int) -> _Hit | None:
    return _when(d.bad and d.s("move_scoring") != "none")


def _k8(d: _Draft, n: int) -> _Hit | None:
    goal = d.s("goal")
    if d.bad and goal == "reach-wins":
        return _Hit(params={"who": _Words("худший", "worst")})
    if not d.bad and goal == "reach-loses":
        return _Hit(params={"who": _Words("лучший", "best")})
    return None


def _k9(d: _Draft, n: int) -> _Hit | None:
    return _when(
        d.s("hand_scoring") == "none"
        and d.s("move_scoring") == "none"
        and d.i("domino_bonus") == 0
        and d.i("block_bonus") == 0
    )


def _k10(d: _Draft, n: int) -> _Hit | None:
    return _when(d.s("block_scoring") == "all-to-worst" and d.s("hand_scoring") == "leader-takes")


def _k11(d: _Draft, n: int) -> _Hit | None:
    return _when(d.b("winner_reset") and not d.bad)


def _k12(d: _Draft, n: int) -> _Hit | None:
    return _when(d.bad and (d.i("domino_bonus") > 0 or d.i("block_bonus") > 0))


def _k13(d: _Draft, n: int) -> _Hit | None:
    total = d.i("extra_turn_sum")  # neither fires without a boneyard (N1) or past the most (N14)
    reachable = 0 < total <= d.max_end_total(n)
    return _when(reachable and total == d.i("forced_draw_sum") and d.drawable(n) > 0, N=total)


def _k14(d: _Draft, n: int) -> _Hit | None:
    return _when((d.s("move_scoring") == "luck") != (d.s("hand_scoring") == "luck-settlement"))


def _k15(d: _Draft, n: int) -> _Hit | None:
    return _when(d.s("goal") == "fixed-hands" and d.i("hands_limit") == 0)


def _k16(d: _Draft, n: int) -> _Hit | None:
    used = tuple(f for f, rule, _, _ in d.openers() if rule == "weekday-double")
    return _Hit((*used, "weekday")) if used and d.i("weekday") == 0 else None


def _k17(d: _Draft, n: int) -> _Hit | None:
    return _when(d.s("next_opener") == "previous-winner" and d.s("next_fallback") == "redeal")


def _k19(d: _Draft, n: int) -> _Hit | None:
    # Found here: a target reached mid-hand ends the match naming the reacher its hand's winner,
    # which a target that loses contradicts.
    counts_at_once = d.s("move_scoring") in ("ends", "placed-tile")
    return _when(
        counts_at_once and d.s("target_check") == "immediate" and d.s("goal") == "reach-loses"
    )


def _k18(d: _Draft, n: int) -> _Hit | None:
    # Found here, not in the sketch: a minimum above every amount a hand can record means
    # nothing is ever written, so no target is ever reached and the match never ends.
    if d.s("hand_scoring") not in ("losers-own", "worst-own", "leader-takes"):
        return None
    if d.s("goal") == "fixed-hands" or d.s("move_scoring") != "none":
        return None
    most = _most_recorded(d, n)
    return _when(d.i("min_record") > most, most=most)


def _most_recorded(d: _Draft, n: int) -> int:
    """An upper bound of the end-of-hand amount one hand can record with `n` players, rounded
    as the rules round (at least one tile lies on the table when a hand ends)."""
    in_play = min(TILES, d.dealt(n) + d.drawable(n))
    if d.s("hand_scoring") == "leader-takes" or d.s("block_scoring") == "all-to-worst":
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


# Switches with no effect (sketch §2.3).

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


def _n1(d: _Draft, n: int) -> _Hit | None:
    if d.drawable(n) > 0:
        return None
    said = set() if d.b("fish_counts") else {"fish_counts"}  # N21 says why
    if d.s("drawing") == "never":
        # `drawing` is the switch that removed the boneyard: it stays live.
        why = _Words("базара нет по правилам", "the rules have none")
        skip = {"drawing"}
    elif d.full_deal(n):
        why = _Words("весь набор на руках", "the whole set is dealt")
        skip = set()
    else:
        why = _Words("остаток — запас, который не берут", "the rest is the reserve, never drawn")
        skip = {"reserve"}
    return _Hit(tuple(f for f in _DRAW_SWITCHES if f not in skip | said), {"why": why})


def _n2(d: _Draft, n: int) -> _Hit | None:
    return _when(
        d.drawable(n) > 0 and d.s("drawing") == "when-stuck" and d.i("forced_draw_sum") == 0
    )


def _n3(d: _Draft, n: int) -> _Hit | None:
    return _when(d.s("layout") != "cross")


def _n4(d: _Draft, n: int) -> _Hit | None:
    return _when(not d.uses_opener("assigned-double"))


def _n5(d: _Draft, n: int) -> _Hit | None:
    return _when(not d.uses_opener("weekday-double"))


def _n6(d: _Draft, n: int) -> list[_Hit]:
    hits = []
    for _, rule, fallback_field, _ in d.openers():
        if rule in NEVER_FAILING:
            why = _Words("оно всегда называет заходящего", "it always names an opener")
        elif rule in DOUBLE_RULES and d.full_deal(n):
            why = _Words(
                "раздаётся весь набор — нужный дубль всегда у кого-то на руках",
                "the whole set is dealt, so the double is always in someone's hand",
            )
        else:
            continue
        hits.append(_Hit((fallback_field,), {"why": why}))
    return hits


def _n7(d: _Draft, n: int) -> _Hit | None:
    return _when(not (d.b("general") or d.b("admiral") or d.b("snotty_goat")))


def _n8(d: _Draft, n: int) -> _Hit | None:
    # The donkey rule closes a double's ray whichever way the double lies.
    return _when(d.s("layout") in ("line", "trains") and not d.reads_end_total)


def _n9(d: _Draft, n: int) -> _Hit | None:
    return _when(d.s("hand_scoring") in ("none", "luck-settlement"))


def _n10(d: _Draft, n: int) -> _Hit | None:
    redealt = not d.b("fish_counts") and not d.b("end_when_boneyard_empty")
    return _when(redealt and d.drawable(n) > 0)  # without a boneyard a block counts (N21)


def _n21(d: _Draft, n: int) -> _Hit | None:
    # Found here (was the conflict K2): a redeal needs a boneyard; where none, the block counts.
    return _when(not d.b("fish_counts") and d.drawable(n) == 0)


def _n11(d: _Draft, n: int) -> list[_Hit]:
    hits = []
    if d.s("move_scoring") not in END_TOTAL_SCORING:
        hits.append(_Hit(("ends_modulus",)))
    if d.s("move_scoring") != "ends":
        hits.append(_Hit(("ends_award",)))
    return hits


def _n12(d: _Draft, n: int) -> _Hit:
    if d.s("goal") == "fixed-hands":
        return _Hit(
            ("targets", "target_check"),
            {
                "why": _Words(
                    "Матч идёт заданное число раздач — цель в очках не нужна.",
                    "The match is a fixed number of hands: no target.",
                )
            },
        )
    return _Hit(
        ("hands_limit",),
        {
            "why": _Words(
                "Матч идёт до цели — число раздач не нужно.",
                "The match is played to a target: no hand count.",
            )
        },
    )


def _n13(d: _Draft, n: int) -> _Hit | None:
    # Threes for luck scores during play but settles at the hand's end: nothing to check either.
    return _when(d.s("move_scoring") in ("none", "luck") and d.s("goal") != "fixed-hands")


def _n14(d: _Draft, n: int) -> list[_Hit]:
    most = d.max_end_total(n)
    return [
        _Hit((name,), {"N": d.i(name), "max": most})
        for name in ("extra_turn_sum", "forced_draw_sum")
        if d.i(name) > most
    ]


def _n15(d: _Draft, n: int) -> _Hit | None:
    if d.s("hand_scoring") != "worst-own":
        return None
    if d.pairs_play:
        return _Hit(params={"sides": _Words("Сторон две", "With two sides")})
    if n == 2:  # an addition: two players have one loser too
        return _Hit(params={"sides": _Words("Игроков двое", "With two players")})
    return None


def _n16(d: _Draft, n: int) -> _Hit | None:
    return _when(d.s("goal") == "fixed-hands" and d.i("hands_limit") == 1)


def _n17(d: _Draft, n: int) -> _Hit | None:
    return _when(
        d.b("end_when_boneyard_empty")
        and d.b("must_draw_when_stuck")
        and d.i("draw_limit") == 0
        and d.drawable(n) > 0
    )


def _n18(d: _Draft, n: int) -> _Hit | None:
    # An addition: a limit at or above what the boneyard can ever hold never binds.
    limit = d.i("draw_limit")
    drawable = d.drawable(n)
    return _when(0 < drawable <= limit, limit=limit, drawable=drawable)


def _n19(d: _Draft, n: int) -> _Hit | None:
    # An addition: min_record 1 drops nothing (every recorded amount is at least 1 already).
    return _when(d.i("min_record") == 1 and d.s("hand_scoring") not in ("none", "luck-settlement"))


def _n20(d: _Draft, n: int) -> _Hit | None:
    # An addition: on a cross whose sides can never both hold the quota, no side ray opens.
    if d.s("layout") != "cross":
        return None
    in_play = min(TILES, d.dealt(n) + d.drawable(n))
    quota = d.i("cross_quota")
    return _when(2 * quota + 1 > in_play, quota=quota, tiles=in_play)


ROWS: Final[tuple[_Row, ...]] = (
    _Row(
        "conflict",
        "V1",
        ("hand_sizes",),
        _v1,
        "Раздача задаётся для 2, 3 или 4 игроков, по возрастанию и без повторов, хотя бы по "
        "одной кости каждому.",
        "Hand sizes name 2, 3 or 4 players, in ascending order without repeats, at least one "
        "tile each.",
        each_count=False,
    ),
    _Row(
        "conflict",
        "V2",
        ("hand_sizes",),
        _v2,
        "Столько костей в наборе нет: при {players} игроках по {size} не помещаются в 28 костей.",
        "Not enough tiles: {size} each for {players} players exceed the 28 of the set.",
    ),
    _Row(
        "conflict",
        "V3",
        ("targets", "goal"),
        _v3,
        "Цели не совпадают с раздачей: {why}.",
        "The targets do not match the deal: {why}.",
        each_count=False,
    ),
    _Row(
        "conflict",
        "V4",
        ("first_opener",),
        _v4,
        "В первой раздаче прошлой ещё нет: правило «{rule}» для неё не годится.",
        "The first hand has no previous hand: '{rule}' cannot decide it.",
        each_count=False,
    ),
    _Row(
        "conflict",
        "K1",
        ("teams", "hand_sizes"),
        _k1,
        "Игра парами — только вчетвером: партнёры сидят напротив.",
        "Partnership play needs exactly four players (partners sit opposite).",
    ),
    _Row(
        "conflict",
        "K3",
        ("layout", "doubles"),
        _k3,
        "Крест и телефон растут из дубля, лежащего поперёк; когда все дубли вдоль, центра нет.",
        "Cross and telephone grow from a double laid crosswise; with every double lengthwise "
        "there is no centre.",
    ),
    _Row(
        "conflict",
        "K4",
        ("layout", "first_opener", "next_opener"),
        _k4,
        "Поезда начинаются от дубля: заходить должен дубль (младший, старший, назначенный или "
        "по дню недели).",
        "Trains start from a double: the lead must be a double (lowest, highest, assigned or "
        "weekday).",
    ),
    _Row(
        "conflict",
        "K5",
        ("layout", "first_fallback", "next_fallback"),
        _k5,
        "Без дубля поезда не начать: если дубля ни у кого нет, раздачу нужно пересдать "
        "(запасное правило «пересдать»; при {players} игроках раздаётся не весь набор).",
        "Trains cannot start without a double: when nobody holds one the deal must be redone "
        "(fallback 'redeal'; with {players} players not every tile is dealt).",
    ),
    _Row(
        "conflict",
        "K6",
        ("layout", "teams"),
        _k6,
        "Поезда у каждого свои; игра парами с поездами не определена.",
        "Each player has their own train; trains are not defined for partnership play.",
    ),
    _Row(
        "conflict",
        "K7",
        ("hand_scoring", "move_scoring"),
        _k7,
        "Очки на руках проигравших — штраф, а очки за ходы — выигрыш: их нельзя писать в один "
        "счёт.",
        "Pips the losers record are penalties and points scored during play are gains; they "
        "cannot share one score.",
    ),
    _Row(
        "conflict",
        "K8",
        ("goal", "hand_scoring"),
        _k8,
        "Цель противоречит записи очков: кто первым дойдёт до цели, тот здесь {who}.",
        "The goal contradicts what is recorded: whoever reaches the target first is the {who} "
        "player here.",
    ),
    _Row(
        "conflict",
        "K9",
        ("hand_scoring", "move_scoring", "domino_bonus", "block_bonus"),
        _k9,
        "Никто ничего не записывает: выберите, кто и что записывает.",
        "Nothing is ever recorded: choose who records what.",
    ),
    _Row(
        "conflict",
        "K10",
        ("block_scoring", "hand_scoring"),
        _k10,
        "«Вся сумма проигравшему» при «забирает лидер» наградила бы худшего.",
        "'The whole sum to the loser' would reward the worst hand when recorded points are gains.",
    ),
    _Row(
        "conflict",
        "K11",
        ("winner_reset", "hand_scoring"),
        _k11,
        "Обнулять счёт победителя можно, только когда очки — штраф.",
        "Wiping the winner's score only makes sense when points are penalties.",
    ),
    _Row(
        "conflict",
        "K12",
        ("domino_bonus", "block_bonus", "hand_scoring"),
        _k12,
        "Надбавки — выигрыш, а записанные очки здесь — штраф.",
        "Bonuses are gains, but here recorded points are penalties.",
    ),
    _Row(
        "conflict",
        "K13",
        ("extra_turn_sum", "forced_draw_sum"),
        _k13,
        "Лишний ход и прикуп двух не могут срабатывать на одну сумму {N}.",
        "Extra turn and draw-two cannot fire on the same end total {N}.",
    ),
    _Row(
        "conflict",
        "K14",
        ("move_scoring", "hand_scoring"),
        _k14,
        "Счёт «на счастье» идёт только со своим расчётом в конце партии.",
        "Threes-for-luck scoring during play goes only with its own end-of-hand settlement.",
    ),
    _Row(
        "conflict",
        "K15",
        ("goal", "hands_limit"),
        _k15,
        "Укажите, сколько раздач играть.",
        "Say how many hands to play.",
    ),
    _Row(
        "conflict",
        "K16",
        ("first_opener", "next_opener", "weekday"),
        _k16,
        "Укажите день недели.",
        "Choose the day of the week.",
    ),
    _Row(
        "conflict",
        "K17",
        ("next_opener", "next_fallback"),
        _k17,
        "После ничьей пересдача повторялась бы без конца: выберите другое запасное правило.",
        "After a hand with no winner the redeal would repeat for ever: choose another fallback.",
    ),
    _Row(
        "conflict",
        "K18",
        ("min_record", "hand_sizes"),
        _k18,
        "Минимум для записи больше любой суммы партии (при {players} игроках не больше {most}): "
        "никто ничего не запишет и до цели не дойдёт.",
        "The minimum to record is more than any hand can give (with {players} players at most "
        "{most}): nothing would ever be recorded and nobody would reach the target.",
    ),
    _Row(
        "conflict",
        "K19",
        ("target_check", "goal"),
        _k19,
        "Цель, до которой доходят на свою беду, нельзя проверять посреди раздачи: проверяйте в "
        "конце раздачи.",
        "A target that loses cannot end the match in the middle of a hand: check it at the "
        "hand's end.",
    ),
    _Row(
        "inert",
        "N1",
        _DRAW_SWITCHES,
        _n1,
        "Базара нет — прикупать нечего (при {players} игроках {why}).",
        "No boneyard: nothing to draw (with {players} players {why}).",
    ),
    _Row(
        "inert",
        "N2",
        ("play_drawn_at_once",),
        _n2,
        "Брать можно, только когда ходить нечем, — подходящая взятая кость и так единственный ход.",
        "You draw only when you cannot play, so a drawn tile that fits is your only play anyway.",
    ),
    _Row(
        "inert",
        "N3",
        ("cross_quota",),
        _n3,
        "Только для креста: у линии и поездов боковых лучей нет, у телефона они открыты сразу.",
        "Cross only: a line and trains have no side rays, and telephone opens them at once.",
        each_count=False,
    ),
    _Row(
        "inert",
        "N4",
        ("assigned_double",),
        _n4,
        "Дубль назначает только правило «назначенный дубль».",
        "Only the 'assigned double' rule uses it.",
        each_count=False,
    ),
    _Row(
        "inert",
        "N5",
        ("weekday",),
        _n5,
        "День недели нужен только правилу «очередь по дню недели».",
        "Only the weekday rule uses it.",
        each_count=False,
    ),
    _Row(
        "inert",
        "N6",
        ("first_fallback", "next_fallback"),
        _n6,
        "Основное правило применимо всегда ({why}).",
        "The main rule always applies ({why}).",
    ),
    _Row(
        "inert",
        "N7",
        ("winner_reset",),
        _n7,
        "Ни одной церемонии — обнулять не после чего.",
        "No ceremony is on, so nothing triggers the reset.",
        each_count=False,
    ),
    _Row(
        "inert",
        "N8",
        ("doubles",),
        _n8,
        "В линии и в поездах положение дубля ни на что не влияет, пока сумма концов не считается.",
        "In a line or trains a double's orientation changes nothing unless the end total counts.",
        each_count=False,
    ),
    _Row(
        "inert",
        "N9",
        ("rounding", "min_record", "block_scoring"),
        _n9,
        "Итога партии по очкам на руках нет — очки идут по ходу игры.",
        "There is no end-of-hand pip amount: points come during play.",
        each_count=False,
    ),
    _Row(
        "inert",
        "N10",
        ("block_scoring", "block_bonus"),
        _n10,
        "Рыба не засчитывается — её пересдают (при {players} игроках).",
        "Blocked hands do not count: they are redealt (with {players} players).",
    ),
    _Row(
        "inert",
        "N11",
        ("ends_modulus", "ends_award"),
        _n11,
        "Нужно только при подсчёте концов.",
        "Only used when open ends are scored.",
        each_count=False,
    ),
    _Row(
        "inert",
        "N12",
        ("targets", "target_check", "hands_limit"),
        _n12,
        "{why}",
        "{why}",
        each_count=False,
    ),
    _Row(
        "inert",
        "N13",
        ("target_check",),
        _n13,
        "Во время партии очки в матч не идут — проверять цель посреди раздачи нечего.",
        "No points count towards the match during play, so there is nothing to check mid-hand.",
        each_count=False,
    ),
    _Row(
        "inert",
        "N14",
        ("extra_turn_sum", "forced_draw_sum"),
        _n14,
        "Такой суммы концов не бывает (наибольшая — {max}).",
        "The open ends never total {N} (at most {max}).",
    ),
    _Row(
        "inert",
        "N15",
        ("hand_scoring",),
        _n15,
        "{sides}: единственный проигравший и есть худший («пишет только худший» = «проигравшие "
        "пишут свои очки»).",
        "{sides} the only loser is the worst one ('only the worst records' = 'the losers record "
        "their own pips').",
    ),
    _Row(
        "inert",
        "N16",
        ("next_opener", "next_fallback"),
        _n16,
        "Матч из одной раздачи — следующего захода нет.",
        "A one-hand match has no next hand.",
        each_count=False,
    ),
    _Row(
        "inert",
        "N17",
        ("fish_counts", "block_scoring"),
        _n17,
        "Партия кончается, как только базар исчерпан, а пока в нём есть кости, застрявший обязан "
        "брать, — настоящей рыбы не бывает.",
        "The hand ends as soon as the boneyard runs out, and until then a stuck player must "
        "draw, so a true block never happens.",
    ),
    _Row(
        "inert",
        "N18",
        ("draw_limit",),
        _n18,
        "Больше {drawable} костей с базара не взять (при {players} игроках) — предел {limit} "
        "ничего не ограничивает.",
        "At most {drawable} tiles can ever be drawn (with {players} players), so a limit of "
        "{limit} limits nothing.",
    ),
    _Row(
        "inert",
        "N19",
        ("min_record",),
        _n19,
        "Записывают и так не меньше 1 очка — минимум 1 ничего не отсекает.",
        "Every recorded amount is at least 1 anyway: a minimum of 1 drops nothing.",
        each_count=False,
    ),
    _Row(
        "inert",
        "N20",
        ("cross_quota", "layout"),
        _n20,
        "В игре не больше {tiles} костей (при {players} игроках): с {quota} по каждую сторону "
        "крест не откроется — это линия.",
        "At most {tiles} tiles are in play (with {players} players): with {quota} on each side "
        "the cross never opens, so it is a line.",
    ),
    _Row(
        "inert",
        "N21",
        ("fish_counts",),
        _n21,
        "Базара нет, и рыба засчитывается (при {players} игроках): пересдают её, только когда "
        "есть базар.",
        "No boneyard, so a blocked hand counts (with {players} players): it is redealt only "
        "where there is a boneyard.",
    ),
)
"""Every row, in the order findings are reported (a record's first conflict is the first)."""
