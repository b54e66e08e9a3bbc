"""One field of the rules as data: its contract name, its kind, its bounds, its default, and how
a value of it is read from JSON/msgpack data (`FieldSpec.parse`) and written back (`to_plain`).

The bounds are the field's own, the same for a rules file, the wire, the CLI and the page; every
number is also held to what the wire carries (engine/wire_range.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final, Literal

from p2p_dominoes.engine.errors import InvalidRecord
from p2p_dominoes.engine.wire_range import out_of_range
from p2p_dominoes.words import phrase

REQUIRED: Final = object()
"""The default of a field every rules object must give (the first version's fields)."""
Kind = Literal["str", "int", "bool", "pairs", "enum"]


@dataclass(frozen=True)
class FieldSpec:
    """One switch: its contract name, its values, its default, and the seed switch it is."""

    name: str
    kind: Kind
    default: Any = REQUIRED
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
        return self.default is REQUIRED

    @property
    def bounds(self) -> tuple[int, int]:
        """(lowest, highest) of an integer field with both bounds: what a file, the wire, the
        CLI and the page all accept."""
        if self.low is None or self.high is None:
            raise ValueError(f"field {self.name} has no upper bound")
        return self.low, self.high

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
                raise InvalidRecord(
                    phrase("engine.why.value_not_played_yet", name=name, value=repr(raw))
                )
            choices = ", ".join(self.choices)
            raise InvalidRecord(phrase("engine.why.field_one_of", name=name, choices=choices))
        if self.kind == "pairs":
            if not isinstance(raw, (list, tuple)) or not all(
                isinstance(p, (list, tuple)) and len(p) == 2 and all(type(x) is int for x in p)
                for p in raw
            ):
                raise InvalidRecord(phrase("engine.why.field_pairs", name=name))
            for pair in raw:
                for number in pair:
                    _carried(name, number)
            return tuple((p[0], p[1]) for p in raw)
        if self.kind == "bool":
            if not isinstance(raw, bool):
                raise InvalidRecord(phrase("engine.why.field_bool", name=name))
            if self.low == self.high == 0 and raw:
                raise InvalidRecord(phrase("engine.why.field_not_played_yet", name=name))
            return raw
        if self.kind == "str":
            if not isinstance(raw, str) or not raw or len(raw) > 64 or not raw.isprintable():
                raise InvalidRecord(phrase("engine.why.field_text", name=name))
            return raw
        if type(raw) is not int:
            raise InvalidRecord(phrase("engine.why.field_integer", name=name))
        if self.int_choices and raw not in self.int_choices:
            choices = _or(self.int_choices)
            raise InvalidRecord(phrase("engine.why.field_one_of", name=name, choices=choices))
        low, high = self.low, self.high
        if (low is not None and raw < low) or (high is not None and raw > high):
            if low == high:
                raise InvalidRecord(phrase("engine.why.field_only", name=name, low=low))
            if high is None:
                raise InvalidRecord(phrase("engine.why.field_at_least", name=name, low=low))
            raise InvalidRecord(phrase("engine.why.field_from_to", name=name, low=low, high=high))
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
        raise InvalidRecord(phrase("engine.why.field_problem", name=name, problem=problem))


def _or(values: tuple[int, ...]) -> str:
    return phrase("engine.why.choices_or", listed=", ".join(map(str, values[:-1])), last=values[-1])


def enum_field(
    name: str,
    enum: type[StrEnum],
    default: Any = REQUIRED,
    *,
    plays: tuple[str, ...] = (),
    switch: str = "",
) -> FieldSpec:
    """A field taking `enum`'s values (`plays`: the ones this version plays, default all)."""
    choices = plays or tuple(e.value for e in enum)
    return FieldSpec(name, "enum", default, enum, choices, switch=switch)


def int_field(name: str, default: Any, low: int, high: int | None, switch: str = "") -> FieldSpec:
    """An integer field from `low` to `high` (None: no upper bound but the wire's)."""
    return FieldSpec(name, "int", default, low=low, high=high, switch=switch)


def bool_field(name: str, default: Any, switch: str = "", *, later: bool = False) -> FieldSpec:
    """A yes/no field; `later`: only False is played so far (low == high == 0 marks it)."""
    return FieldSpec(
        name, "bool", default, low=0 if later else None, high=0 if later else None, switch=switch
    )
