"""The field table of the rules: every switch's name, kind, bounds and default (`FIELDS`), and
the values its enumerations take.

One field table drives parsing, the wire form, the editor, the rules check and the docs. Its
names are a contract (rules files, records, the genesis): the fields of `docs/rules.md`, in wire
order. A field the engine does not play yet has only its default among its values (`playable` is
false); a later version adds values, never renames. `Rules` (engine/rules.py) is the typed form a
game is played from; the check (engine/rules_check/) reads drafts through this table.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final, Literal

from p2p_dominoes.engine.errors import InvalidRecord
from p2p_dominoes.engine.wire_range import out_of_range


class Drawing(StrEnum):
    """When a player may take a tile from the boneyard."""

    ANY_TIME = "any-time"  # even while holding a playable tile
    WHEN_STUCK = "when-stuck"  # only with no playable tile
    NEVER = "never"  # no boneyard: undealt tiles stay out of play


class Opener(StrEnum):
    """Who leads a hand, and with what."""

    LOTTERY = "lottery"  # seat (lottery mod n), any tile; the random input comes from outside
    ROTATE = "rotate"  # one seat clockwise from the previous counted hand's opener, any tile
    PREVIOUS_WINNER = "previous-winner"  # the previous counted hand's lead seat, any tile
    LOWEST_DOUBLE = "lowest-double"  # the holder of 0:0 leads it, else 1:1, …
    HIGHEST_DOUBLE = "highest-double"  # 6:6, else 5:5, …
    ASSIGNED_DOUBLE = "assigned-double"  # d:d, then (d+1):(d+1) … 6:6, 0:0 … cyclically
    WEEKDAY_DOUBLE = "weekday-double"  # as assigned, with d = weekday mod 7
    HEAVIEST_TILE = "heaviest-tile"  # the most pips, ties to the higher half

    @property
    def is_double_rule(self) -> bool:
        return self in DOUBLE_RULES

    @property
    def is_claimed(self) -> bool:
        """Whether finding the opener needs to know who holds which tile."""
        return self in DOUBLE_RULES or self is Opener.HEAVIEST_TILE


DOUBLE_RULES: Final = frozenset(
    {Opener.LOWEST_DOUBLE, Opener.HIGHEST_DOUBLE, Opener.ASSIGNED_DOUBLE, Opener.WEEKDAY_DOUBLE}
)

FirstOpener = Opener
"""Who leads the first hand (the name of the first version; one enum now)."""
NextOpener = Opener
"""Who leads the later hands (the name of the first version; one enum now)."""


class Fallback(StrEnum):
    """What decides the opener when the opening rule finds nothing (no double dealt, no winner)."""

    HEAVIEST_TILE = "heaviest-tile"
    LOTTERY = "lottery"
    PREVIOUS_OPENER = "previous-opener"
    ROTATE = "rotate"
    REDEAL = "redeal"  # the hand is void and dealt again


class BlockScoring(StrEnum):
    """How a blocked hand is scored («Рыба»)."""

    LOWEST_TAKES = "lowest-takes"  # the unique lowest wins the hand, as at a domino
    LOWEST_TAKES_DIFFERENCE = "lowest-takes-difference"  # amounts less the lowest's pips
    ALL_TO_WORST = "all-to-worst"  # the unique worst records every pip on the table


class Layout(StrEnum):
    """The shape of the layout on the table."""

    LINE = "line"  # two open ends
    CROSS = "cross"
    TELEPHONE = "telephone"
    TRAINS = "trains"


class Doubles(StrEnum):
    """How a double lies."""

    ACROSS = "across"  # crosswise: its long sides A and B
    ALONG = "along"  # lengthwise, like any other tile: end A and end B
    CHOICE = "choice"  # the player says so on each double


class Teams(StrEnum):
    """Whether seats play alone or in pairs («мы и они»)."""

    NONE = "none"
    OPPOSITE_PAIRS = "opposite-pairs"  # seats 0+2 against 1+3


class HandScoring(StrEnum):
    """What is recorded when a hand ends («Кто и что записывает»)."""

    LOSERS_OWN = "losers-own"  # each loser records their own pips (bad points)
    WORST_OWN = "worst-own"  # only the worst loser records (bad points)
    LEADER_TAKES = "leader-takes"  # the winner records the others' pips (good points)
    NONE = "none"
    LUCK_SETTLEMENT = "luck-settlement"


class MoveScoring(StrEnum):
    NONE = "none"
    ENDS = "ends"
    PLACED_TILE = "placed-tile"
    LUCK = "luck"


class EndsAward(StrEnum):
    QUOTIENT = "quotient"
    TOTAL = "total"


class Goal(StrEnum):
    """How a match ends («Цель»)."""

    REACH_WINS = "reach-wins"
    REACH_LOSES = "reach-loses"  # the classic: whoever reaches the target loses
    FIXED_HANDS = "fixed-hands"


class TargetCheck(StrEnum):
    HAND_END = "hand-end"
    IMMEDIATE = "immediate"


_REQUIRED: Final = object()
Kind = Literal["str", "int", "bool", "pairs", "enum"]


@dataclass(frozen=True)
class FieldSpec:
    """One switch: its contract name, its values, its default, and the seed switch it is."""

    name: str
    kind: Kind
    default: Any = _REQUIRED
    enum: type[StrEnum] | None = None
    choices: tuple[str, ...] = ()
    """The values the engine plays today (a later version adds values)."""
    low: int | None = None
    high: int | None = None
    switch: str = ""
    """The switch's id in the rules study (D2, W1, O1, …); empty for what is not a seed switch."""
    int_choices: tuple[int, ...] = ()

    @property
    def required(self) -> bool:
        return self.default is _REQUIRED

    @property
    def playable(self) -> bool:
        """False while the engine plays only the default (the switch is hidden until then)."""
        if self.kind == "enum":
            return len(self.choices) > 1
        return not (self.low is not None and self.low == self.high)

    def parse(self, raw: object) -> Any:
        """The field's value from JSON/msgpack data, or InvalidRecord saying what it must be."""
        name = self.name
        if self.kind == "enum":
            assert self.enum is not None
            if isinstance(raw, str) and raw in self.choices:
                return self.enum(raw)
            if isinstance(raw, str) and raw in {e.value for e in self.enum}:
                raise InvalidRecord(f"rules: {name} {raw!r} is not played by this version yet")
            raise InvalidRecord(f"rules: {name} must be one of {', '.join(self.choices)}")
        if self.kind == "pairs":
            if not isinstance(raw, (list, tuple)) or not all(
                isinstance(p, (list, tuple)) and len(p) == 2 and all(type(x) is int for x in p)
                for p in raw
            ):
                raise InvalidRecord(f"rules: {name} must be a list of [players, number] pairs")
            for pair in raw:
                for number in pair:
                    _carried(name, number)
            return tuple((p[0], p[1]) for p in raw)
        if self.kind == "bool":
            if not isinstance(raw, bool):
                raise InvalidRecord(f"rules: {name} must be true or false")
            if self.low == self.high == 0 and raw:
                raise InvalidRecord(f"rules: {name} is not played by this version yet")
            return raw
        if self.kind == "str":
            if not isinstance(raw, str) or not raw or len(raw) > 64 or not raw.isprintable():
                raise InvalidRecord(f"rules: {name} must be 1–64 printable characters")
            return raw
        if type(raw) is not int:
            raise InvalidRecord(f"rules: {name} must be an integer")
        if self.int_choices and raw not in self.int_choices:
            raise InvalidRecord(f"rules: {name} must be one of {_or(self.int_choices)}")
        low, high = self.low, self.high
        if (low is not None and raw < low) or (high is not None and raw > high):
            if low == high:
                raise InvalidRecord(f"rules: {name} other than {low} is not played yet")
            if high is None:
                raise InvalidRecord(f"rules: {name} must be at least {low}")
            raise InvalidRecord(f"rules: {name} must be from {low} to {high}")
        _carried(name, raw)  # the field's own bounds say more; an open bound still has these
        return raw

    def to_plain(self, value: Any) -> Any:
        """The JSON form of a value of this field."""
        if self.kind == "pairs":
            return [list(pair) for pair in value]
        return str(value) if isinstance(value, StrEnum) else value


def _carried(name: str, number: int) -> None:
    """Every number of a rules object travels in the genesis: one the wire cannot carry is
    refused where the rules are read (a file, the editor), not when a table starts."""
    problem = out_of_range(number)
    if problem is not None:
        raise InvalidRecord(f"rules: {name}: {problem}")


def _or(values: tuple[int, ...]) -> str:
    return ", ".join(map(str, values[:-1])) + f" or {values[-1]}"


def _enum(
    name: str,
    enum: type[StrEnum],
    default: Any = _REQUIRED,
    *,
    plays: tuple[str, ...] = (),
    switch: str = "",
) -> FieldSpec:
    choices = plays or tuple(e.value for e in enum)
    return FieldSpec(name, "enum", default, enum, choices, switch=switch)


def _int(name: str, default: Any, low: int, high: int | None, switch: str = "") -> FieldSpec:
    return FieldSpec(name, "int", default, low=low, high=high, switch=switch)


def _bool(name: str, default: Any, switch: str = "", *, later: bool = False) -> FieldSpec:
    # `later`: only False is played so far (low == high == 0 marks it).
    return FieldSpec(
        name, "bool", default, low=0 if later else None, high=0 if later else None, switch=switch
    )


def _fixed(name: str, default: int, switch: str = "") -> FieldSpec:
    """An integer switch whose other values come with a later version."""
    return FieldSpec(name, "int", default, low=default, high=default, switch=switch)


FIELDS: Final[tuple[FieldSpec, ...]] = (
    # The eleven fields of the first version, in their wire order and meaning.
    FieldSpec("name", "str"),
    FieldSpec("hand_sizes", "pairs", switch="D2"),
    _int("reserve", _REQUIRED, 0, 27, "W2"),
    _enum("drawing", Drawing, switch="D3"),
    _bool("play_drawn_at_once", _REQUIRED),
    _enum(
        "first_opener",
        Opener,
        switch="O1",
        plays=tuple(o.value for o in Opener if o not in (Opener.ROTATE, Opener.PREVIOUS_WINNER)),
    ),
    _enum("next_opener", Opener, switch="O1"),
    _enum("block_scoring", BlockScoring, switch="S2"),
    FieldSpec("targets", "pairs", switch="S5"),
    _enum("layout", Layout, Layout.LINE, switch="F1"),
    _int("stall_timeout_s", 180, 1, 86_400),
    # The switches of seed 003 and beyond.
    _bool("must_draw_when_stuck", True, "W1"),
    _int("draw_limit", 0, 0, 28, "W1"),
    _int("forced_draw_sum", 0, 0, 40, "X3"),
    _enum(
        "first_fallback",
        Fallback,
        Fallback.HEAVIEST_TILE,
        switch="O1",
        plays=("heaviest-tile", "lottery", "redeal"),
    ),
    _enum("next_fallback", Fallback, Fallback.PREVIOUS_OPENER, switch="O1"),
    _int("assigned_double", 1, 0, 6, "O2"),
    _int("weekday", 0, 0, 7, "O1"),
    _enum("doubles", Doubles, Doubles.ACROSS, switch="T1"),
    _bool("two_doubles", False, "T2"),
    _int("extra_turn_sum", 0, 0, 40, "X2"),
    _int("cross_quota", 1, 1, 12, "F2"),
    _bool("double_closes_ray", False, "X1"),
    _bool("fish_counts", True, "E1"),
    _bool("end_when_boneyard_empty", False),
    _enum("teams", Teams, Teams.NONE, switch="K0"),
    _enum(
        "hand_scoring",
        HandScoring,
        HandScoring.LEADER_TAKES,
        switch="S1",
    ),
    FieldSpec("rounding", "int", 1, low=1, high=10, switch="S3", int_choices=(1, 5, 10)),
    _int("min_record", 0, 0, 168, "S4"),
    _int("domino_bonus", 0, 0, 100),
    _int("block_bonus", 0, 0, 100),
    _enum("move_scoring", MoveScoring, MoveScoring.NONE, switch="S1"),
    _int("ends_modulus", 5, 2, 12),
    _enum("ends_award", EndsAward, EndsAward.QUOTIENT),
    _enum("goal", Goal, Goal.REACH_WINS, switch="S5"),
    _int("hands_limit", 0, 0, 10_000, "S5"),
    _enum("target_check", TargetCheck, TargetCheck.HAND_END),
    _bool("general", False, "C1"),
    _bool("admiral", False, "C2"),
    _bool("snotty_goat", False, "C3"),
    _bool("winner_reset", False, "C4"),
)
FIELD: Final[Mapping[str, FieldSpec]] = {spec.name: spec for spec in FIELDS}
FIRST_VERSION_FIELDS: Final = 11
"""The first version's rules had the first 11 fields; a missing later field means its default."""
