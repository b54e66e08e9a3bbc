"""A draft as the check reads it: typed reads of its fields and the notions that follow from
them (the sketch's §1.3: what is dealt, what can be drawn, the largest end total, …).

A draft may hold anything a rules file held (the check also runs on drafts the editor has not
finished), so every read is defensive: a value of the wrong type reads as its type's zero. Enum
values are compared with the enums of the field table (engine/rule_fields.py), never retyped as
strings, so a renamed value cannot silently stop a row from firing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from p2p_dominoes.engine.rule_fields import (
    FIELD,
    Doubles,
    Drawing,
    HandScoring,
    Layout,
    MoveScoring,
    Opener,
    Teams,
)

TILES: Final = 28
"""Tiles in the double-six set."""
ALL_PIPS: Final = 168
"""Pips on all 28 tiles together."""

NEVER_FAILING: Final = frozenset({Opener.LOTTERY, Opener.ROTATE, Opener.HEAVIEST_TILE})
"""Opening rules that always name an opener: their fallback is never used."""
BAD_SCORING: Final = frozenset({HandScoring.LOSERS_OWN, HandScoring.WORST_OWN})
"""`hand_scoring` values that make recorded points penalties (reach the target and lose)."""
END_TOTAL_SCORING: Final = frozenset({MoveScoring.ENDS, MoveScoring.LUCK})
"""`move_scoring` values that read the end total."""


class Draft:
    """Typed reads of a draft, and what follows from its fields."""

    def __init__(self, data: Mapping[str, object]) -> None:
        self._data = data
        self.pairs = _pairs(data.get("hand_sizes"))
        self.target_pairs = _pairs(data.get("targets"))
        self.sizes = {n: size for n, size in self.pairs if 2 <= n <= 4 and size >= 1}
        self.counts: tuple[int, ...] = tuple(sorted(self.sizes))

    def raw(self, name: str) -> object:
        """The field's value; a field the draft leaves out reads as its default."""
        if name in self._data:
            return self._data[name]
        spec = FIELD[name]  # a name outside the field table is a bug in a row: fail loudly
        return None if spec.required else spec.to_plain(spec.default)

    def s(self, name: str) -> str:
        """A text or enum field (compare it with the field's enum members)."""
        return str(self.raw(name))

    def i(self, name: str) -> int:
        """An integer field (0 when the draft holds something else)."""
        value = self.raw(name)
        return value if isinstance(value, int) and not isinstance(value, bool) else 0

    def b(self, name: str) -> bool:
        """A yes/no field (only True is true)."""
        return self.raw(name) is True

    @property
    def bad(self) -> bool:
        """Recorded points are penalties (polarity "bad")."""
        return self.s("hand_scoring") in BAD_SCORING

    @property
    def pairs_play(self) -> bool:
        return self.s("teams") == Teams.OPPOSITE_PAIRS

    def dealt(self, n: int) -> int:
        return n * self.sizes[n]

    def full_deal(self, n: int) -> bool:
        return self.dealt(n) >= TILES

    def drawable(self, n: int) -> int:
        """Tiles that can ever be drawn with `n` players (0: no boneyard)."""
        if self.s("drawing") == Drawing.NEVER:
            return 0
        return max(0, TILES - self.dealt(n) - self.i("reserve"))

    def in_play(self, n: int) -> int:
        """Tiles that can ever be in play with `n` players (dealt, then drawn)."""
        return min(TILES, self.dealt(n) + self.drawable(n))

    @property
    def reads_end_total(self) -> bool:
        return (
            self.s("move_scoring") in END_TOTAL_SCORING
            or self.i("extra_turn_sum") > 0
            or self.i("forced_draw_sum") > 0
        )

    def max_end_total(self, n: int) -> int:
        """The largest end total S that can occur (line 22: [6|6] and [5|5] crosswise)."""
        along = self.s("doubles") == Doubles.ALONG
        layout = self.s("layout")
        rays: dict[str, int] = {Layout.LINE: 2, Layout.CROSS: 4, Layout.TELEPHONE: 4}
        ends = rays.get(layout, n + 1)
        if along:
            return 6 * ends  # a double lengthwise counts one half, like any other end
        if layout == Layout.TRAINS:
            return {2: 30, 3: 36}.get(n, 40)
        return sum(2 * v for v in range(6, 6 - ends, -1))

    def openers(self) -> tuple[tuple[str, str, str, str], ...]:
        """(opener field, its rule, fallback field, its rule) for the first and later hands."""
        return (
            ("first_opener", self.s("first_opener"), "first_fallback", self.s("first_fallback")),
            ("next_opener", self.s("next_opener"), "next_fallback", self.s("next_fallback")),
        )

    def uses_opener(self, rule: Opener) -> bool:
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
