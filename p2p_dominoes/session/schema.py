"""Body schemas: strict validators for msgpack values, so a bad body never gets inside.

A message body is a msgpack array whose elements are in a fixed order (a :class:`Record`); it is
never a map. Values are the msgpack subset :data:`Wire` — nil, bool, int, str, bin and arrays —
with no floats, maps or ext types. Validators check exact Python types (``bool`` is not an
``int`` here) and return the value normalised to tuples so it re-encodes byte for byte.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final, TypeAlias, Union

from p2p_dominoes.engine.wire_range import MSGPACK_INT_MAX, MSGPACK_INT_MIN
from p2p_dominoes.session.errors import InvalidMessage
from p2p_dominoes.words import phrase

Wire: TypeAlias = Union[bool, int, str, bytes, tuple["Wire", ...], None]  # noqa: UP007

# Code points a displayed text may not contain: C0/C1 controls, line/paragraph separators and
# the bidirectional formatting characters (Trojan-Source style reordering). Fixed here, not taken
# from the Unicode database of whichever Python runs, so every implementation agrees.
_FORBIDDEN_RANGES: Final = (
    (0x0000, 0x001F),
    (0x007F, 0x009F),
    (0x061C, 0x061C),
    (0x200E, 0x200F),
    (0x2028, 0x202E),
    (0x2066, 0x2069),
)


def _bad(path: str, message: str) -> InvalidMessage:
    return InvalidMessage("bad-body", phrase("session.why.at_path", path=path, message=message))


def _type_name(value: object) -> str:
    return type(value).__name__


class Schema(ABC):
    """Validates one msgpack value and returns it normalised (lists become tuples)."""

    @abstractmethod
    def check(self, value: object, path: str) -> Wire:
        """Return ``value`` as canonical :data:`Wire` or raise :class:`InvalidMessage`."""


@dataclass(frozen=True)
class Int(Schema):
    """An integer in ``[minimum, maximum]`` (never a bool)."""

    minimum: int = 0
    maximum: int = MSGPACK_INT_MAX

    def __post_init__(self) -> None:
        if not MSGPACK_INT_MIN <= self.minimum <= self.maximum <= MSGPACK_INT_MAX:
            raise ValueError("Int bounds must be ordered and inside the msgpack range")

    def check(self, value: object, path: str) -> Wire:
        if type(value) is not int:
            raise _bad(path, phrase("session.why.expected_int_got", value=_type_name(value)))
        if not self.minimum <= value <= self.maximum:
            raise _bad(
                path,
                phrase(
                    "session.why.int_outside",
                    value=value,
                    minimum=self.minimum,
                    maximum=self.maximum,
                ),
            )
        return value


@dataclass(frozen=True)
class Bool(Schema):
    """A msgpack true/false."""

    def check(self, value: object, path: str) -> Wire:
        if type(value) is not bool:
            raise _bad(path, phrase("session.why.expected_bool_got", value=_type_name(value)))
        return value


@dataclass(frozen=True)
class Bin(Schema):
    """A byte string of exactly ``size`` bytes, or of ``min_size``..``max_size`` bytes."""

    size: int | None = None
    min_size: int = 0
    max_size: int = 65536

    def check(self, value: object, path: str) -> Wire:
        if type(value) is not bytes:
            raise _bad(path, phrase("session.why.expected_bin_got", value=_type_name(value)))
        if self.size is not None:
            if len(value) != self.size:
                raise _bad(
                    path,
                    phrase("session.why.expected_size_bytes_got", size=self.size, count=len(value)),
                )
        elif not self.min_size <= len(value) <= self.max_size:
            raise _bad(
                path,
                phrase(
                    "session.why.bytes_outside",
                    count=len(value),
                    min_size=self.min_size,
                    max_size=self.max_size,
                ),
            )
        return value


def _text_problem(value: str, min_bytes: int, max_bytes: int) -> str | None:
    """Why ``value`` is not an acceptable displayed text, or ``None`` when it is."""
    size = len(value.encode("utf-8", "surrogatepass"))
    if not min_bytes <= size <= max_bytes:
        return phrase(
            "session.why.text_size_outside", size=size, min_bytes=min_bytes, max_bytes=max_bytes
        )
    for char in value:
        point = ord(char)
        if 0xD800 <= point <= 0xDFFF:
            return phrase("session.why.text_surrogate")
        for low, high in _FORBIDDEN_RANGES:
            if low <= point <= high:
                return phrase("session.why.text_forbidden_point", point=format(point, "04X"))
    return None


@dataclass(frozen=True)
class Text(Schema):
    """A UTF-8 string of ``min_bytes``..``max_bytes`` bytes with no control/bidi characters."""

    max_bytes: int
    min_bytes: int = 1

    def check(self, value: object, path: str) -> Wire:
        if type(value) is not str:
            raise _bad(path, phrase("session.why.expected_str_got", value=_type_name(value)))
        problem = _text_problem(value, self.min_bytes, self.max_bytes)
        if problem is not None:
            raise _bad(path, problem)
        return value


@dataclass(frozen=True)
class Nullable(Schema):
    """Either nil or a value of ``inner``."""

    inner: Schema

    def check(self, value: object, path: str) -> Wire:
        return None if value is None else self.inner.check(value, path)


@dataclass(frozen=True)
class ArrayOf(Schema):
    """An array of ``min_len``..``max_len`` values, each of schema ``item``."""

    item: Schema
    max_len: int
    min_len: int = 0

    def check(self, value: object, path: str) -> Wire:
        if not isinstance(value, tuple | list):
            raise _bad(path, phrase("session.why.expected_array_got", value=_type_name(value)))
        if not self.min_len <= len(value) <= self.max_len:
            raise _bad(
                path,
                phrase(
                    "session.why.array_outside",
                    count=len(value),
                    min_len=self.min_len,
                    max_len=self.max_len,
                ),
            )
        return tuple(self.item.check(v, f"{path}[{i}]") for i, v in enumerate(value))


@dataclass(frozen=True)
class Record(Schema):
    """An array whose elements are named fields in a fixed order; the last `optional` fields
    may be left out (an older message has fewer), never given out of order."""

    fields: tuple[tuple[str, Schema], ...]
    optional: int = 0

    @property
    def names(self) -> tuple[str, ...]:
        """The field names, in wire order."""
        return tuple(name for name, _ in self.fields)

    def index(self, name: str) -> int:
        """The wire position of field ``name``."""
        return self.names.index(name)

    def check(self, value: object, path: str) -> tuple[Wire, ...]:
        if not isinstance(value, tuple | list):
            raise _bad(path, phrase("session.why.expected_array_got", value=_type_name(value)))
        most = len(self.fields)
        if not most - self.optional <= len(value) <= most:
            expected = str(most) if not self.optional else f"{most - self.optional}–{most}"
            raise _bad(
                path, phrase("session.why.expected_fields_got", expected=expected, count=len(value))
            )
        return tuple(
            schema.check(v, f"{path}.{name}")
            for (name, schema), v in zip(self.fields, value, strict=False)
        )


def record(*fields: tuple[str, Schema]) -> Record:
    """Shorthand: ``record(("seat", Int(0, 3)), ("hash", Bin(32)))``."""
    return Record(tuple(fields))


@dataclass(frozen=True)
class Opaque(Schema):
    """Any :data:`Wire` value (nil, bool, int, str, bin, arrays) nested at most ``max_depth``.

    Used for data owned by another layer, such as the rules object, that this layer carries
    without interpreting. Maps and floats are refused so the encoding stays canonical.
    """

    max_depth: int = 8

    def check(self, value: object, path: str) -> Wire:
        return self._check(value, path, self.max_depth)

    def _check(self, value: object, path: str, depth: int) -> Wire:
        kind = type(value)
        if value is None or kind is bool or kind is bytes:
            return value  # type: ignore[return-value]
        if kind is int:
            return Int(MSGPACK_INT_MIN, MSGPACK_INT_MAX).check(value, path)
        if kind is str:
            return value  # type: ignore[return-value]
        if isinstance(value, tuple | list):
            if depth <= 0:
                raise _bad(path, phrase("session.why.nested_deeper_than", max_depth=self.max_depth))
            return tuple(self._check(v, f"{path}[{i}]", depth - 1) for i, v in enumerate(value))
        raise _bad(path, phrase("session.why.not_allowed_no_maps_floats", value=_type_name(value)))


@dataclass(frozen=True)
class Checked(Schema):
    """``inner`` plus a semantic predicate (e.g. "is a valid group element")."""

    inner: Schema
    predicate: Callable[[Wire], bool] = field(compare=False)
    description: str = "value"

    def check(self, value: object, path: str) -> Wire:
        normalised = self.inner.check(value, path)
        if not self.predicate(normalised):
            raise _bad(path, phrase("session.why.not_valid", description=self.description))
        return normalised
