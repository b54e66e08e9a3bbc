"""The prime-order subgroup of edwards25519 via libsodium: validated points, canonical scalars.

A `Point` or `Scalar` that exists is valid: the constructors from bytes check canonical encoding,
subgroup membership and non-identity (points) or `< L` (scalars). Hot loops use the raw
functions below on `bytes`/`int` to keep the Python around libsodium thin; every libsodium
refusal surfaces as `GroupError`, never as a `nacl` exception.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from nacl import bindings as _nacl
from nacl import exceptions as _nacl_exc

from p2p_dominoes.mental.errors import EncodingError, GroupError
from p2p_dominoes.words import phrase

L: Final = 2**252 + 27742317777372353535851937790883648493
"""Order of the prime-order subgroup (and of the base point G)."""

POINT_SIZE: Final = 32
SCALAR_SIZE: Final = 32

IDENTITY: Final = b"\x01" + bytes(31)
"""Canonical encoding of the neutral element; never a valid `Point`."""

BASE: Final = (
    b"\x58\x66\x66\x66\x66\x66\x66\x66\x66\x66\x66\x66\x66\x66\x66\x66"
    b"\x66\x66\x66\x66\x66\x66\x66\x66\x66\x66\x66\x66\x66\x66\x66\x66"
)
"""Canonical encoding of the edwards25519 base point G."""

ORDER_2: Final = b"\xec" + b"\xff" * 30 + b"\x7f"
"""The point (0, −1) of order 2. A subgroup point plus it is refused only by a libsodium with the
CVE-2025-69277 fix (the old check tested X = 0 of [L]P, which (0, −1) also passes)."""

# libsodium entry points, looked up through this module's globals on every call so that the
# benchmark can count and replay them; nothing else may call libsodium directly.
_sodium_mul = _nacl.crypto_scalarmult_ed25519_noclamp
_sodium_mul_base = _nacl.crypto_scalarmult_ed25519_base_noclamp
_sodium_add = _nacl.crypto_core_ed25519_add
_sodium_sub = _nacl.crypto_core_ed25519_sub
_sodium_is_valid = _nacl.crypto_core_ed25519_is_valid_point
_sodium_from_uniform = _nacl.crypto_core_ed25519_from_uniform

_SODIUM_ERRORS = (_nacl_exc.CryptoError,)


def mul(scalar: int, point: bytes) -> bytes:
    """`scalar·point` for 0 < scalar < L; libsodium re-checks `point` and refuses the identity."""
    try:
        return _sodium_mul(scalar.to_bytes(32, "little"), point)
    except _SODIUM_ERRORS as exc:
        raise GroupError(phrase("mental.why.variable_base_scalar_multiplication_refused")) from exc


def mul_base(scalar: int) -> bytes:
    """`scalar·G` for 0 < scalar < L."""
    try:
        return _sodium_mul_base(scalar.to_bytes(32, "little"))
    except _SODIUM_ERRORS as exc:
        raise GroupError(phrase("mental.why.fixed_base_scalar_multiplication_refused")) from exc


def add(p: bytes, q: bytes) -> bytes:
    """`p + q` (may be the identity: callers that need a valid point check for it)."""
    try:
        return _sodium_add(p, q)
    except _SODIUM_ERRORS as exc:
        raise GroupError(phrase("mental.why.point_addition_refused")) from exc


def sub(p: bytes, q: bytes) -> bytes:
    """`p − q` (may be the identity)."""
    try:
        return _sodium_sub(p, q)
    except _SODIUM_ERRORS as exc:
        raise GroupError(phrase("mental.why.point_subtraction_refused")) from exc


def is_valid(point: bytes) -> bool:
    """libsodium's check: canonical, on the curve, in the prime-order subgroup, not small order."""
    return len(point) == POINT_SIZE and bool(_sodium_is_valid(point))


def subgroup_check_is_sound() -> bool:
    """Whether libsodium refuses `G + (0, −1)`: on the curve, not small order, outside the
    prime-order subgroup. Only a build with the CVE-2025-69277 fix does; without it a tagged
    ciphertext would survive re-encryption and a tile could be tracked through every shuffle."""
    tagged = add(BASE, ORDER_2)
    return not is_valid(tagged) and is_valid(BASE)


def from_uniform(data: bytes) -> bytes:
    """libsodium's Elligator 2 map of 32 bytes to the prime-order subgroup."""
    return _sodium_from_uniform(data)


def msm(terms: Iterable[tuple[int, bytes]]) -> bytes:
    """`Σ s_i·P_i` with the terms of equal base merged first (one multiplication per distinct
    base, fixed-base for G, none for a coefficient that sums to 0); may return the identity."""
    merged: dict[bytes, int] = {}
    for scalar, point in terms:
        merged[point] = merged.get(point, 0) + scalar
    total: bytes | None = None
    for point, coefficient in merged.items():
        coefficient %= L
        if coefficient == 0:
            continue
        term = mul_base(coefficient) if point == BASE else mul(coefficient, point)
        total = term if total is None else add(total, term)
    return IDENTITY if total is None else total


def sum_points(points: Iterable[bytes]) -> bytes:
    """`Σ P_i` (the identity for an empty sum)."""
    total: bytes | None = None
    for point in points:
        total = point if total is None else add(total, point)
    return IDENTITY if total is None else total


class Scalar:
    """An integer modulo L, always in canonical form `0 <= value < L`; immutable."""

    __slots__ = ("value",)
    value: int

    def __init__(self, value: int) -> None:
        if not isinstance(value, int) or not 0 <= value < L:
            raise EncodingError(phrase("mental.why.scalar_out_range_0_l"))
        object.__setattr__(self, "value", value)

    @classmethod
    def from_bytes(cls, data: bytes) -> Scalar:
        """Decode 32 little-endian bytes, rejecting any encoding of a value >= L."""
        if len(data) != SCALAR_SIZE:
            raise EncodingError(phrase("mental.why.scalar_must_32_bytes"))
        value = int.from_bytes(data, "little")
        if value >= L:
            raise EncodingError(phrase("mental.why.non_canonical_scalar_l"))
        return cls(value)

    def to_bytes(self) -> bytes:
        """32 little-endian bytes."""
        return self.value.to_bytes(SCALAR_SIZE, "little")

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Scalar is immutable")

    def __copy__(self) -> Scalar:
        return self  # immutable: a copy is the value itself

    def __deepcopy__(self, memo: dict[int, object]) -> Scalar:
        return self

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Scalar) and other.value == self.value

    def __hash__(self) -> int:
        return hash(("Scalar", self.value))

    def __repr__(self) -> str:
        return "Scalar(<hidden>)"


class Point:
    """A valid point: canonical encoding, prime-order subgroup, not the identity; immutable."""

    __slots__ = ("raw",)
    raw: bytes

    def __init__(self, raw: bytes) -> None:
        if not isinstance(raw, bytes) or not is_valid(raw):
            raise EncodingError(phrase("mental.why.invalid_point_encoding"))
        object.__setattr__(self, "raw", raw)

    @classmethod
    def from_bytes(cls, data: bytes) -> Point:
        """Decode and validate 32 bytes."""
        return cls(data)

    @classmethod
    def from_libsodium(cls, raw: bytes) -> Point:
        """Wrap a canonical libsodium result known to lie in the subgroup; only the identity
        can still occur (sums), so that is the one thing checked."""
        if raw == IDENTITY:
            raise GroupError(phrase("mental.why.result_identity"))
        point = object.__new__(cls)
        object.__setattr__(point, "raw", raw)
        return point

    @classmethod
    def base_mul(cls, scalar: int) -> Point:
        """`scalar·G`."""
        return cls.from_libsodium(mul_base(scalar))

    def to_bytes(self) -> bytes:
        """The canonical 32-byte encoding."""
        return self.raw

    def __add__(self, other: Point) -> Point:
        return Point.from_libsodium(add(self.raw, other.raw))

    def __sub__(self, other: Point) -> Point:
        return Point.from_libsodium(sub(self.raw, other.raw))

    def mul(self, scalar: int) -> Point:
        """`scalar·self` for 0 < scalar < L."""
        return Point.from_libsodium(mul(scalar, self.raw))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Point is immutable")

    def __copy__(self) -> Point:
        return self  # immutable: a copy is the value itself

    def __deepcopy__(self, memo: dict[int, object]) -> Point:
        return self

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Point) and other.raw == self.raw

    def __hash__(self) -> int:
        return hash(self.raw)

    def __repr__(self) -> str:
        return f"Point({self.raw.hex()})"


G: Final = Point(BASE)
"""The base point."""
