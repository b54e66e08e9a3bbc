"""The 28 tiles of a double-six set, as interned values with precomputed bit masks."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final

from p2p_dominoes.engine.errors import InvalidRecord
from p2p_dominoes.words import phrase

MAX_PIP: Final = 6


class Tile:
    """One tile [low|high]; the 28 instances are made once, so `is` and `==` agree."""

    __slots__ = ("bit", "high", "index", "is_double", "low", "pips", "text")

    index: int
    low: int
    high: int
    bit: int
    pips: int
    is_double: bool
    text: str

    def __init__(self, index: int, low: int, high: int) -> None:
        self.index = index
        self.low = low
        self.high = high
        self.bit = 1 << index
        self.pips = low + high
        self.is_double = low == high
        self.text = f"[{low}|{high}]"

    def __repr__(self) -> str:
        return f"Tile{self.text}"

    def __copy__(self) -> Tile:
        return self  # the 28 tiles exist once: identity is how they compare

    def __deepcopy__(self, memo: dict[int, object]) -> Tile:
        return self

    def __str__(self) -> str:
        return self.text

    def __lt__(self, other: Tile) -> bool:
        return self.index < other.index

    def __eq__(self, other: object) -> bool:
        return self is other

    def __hash__(self) -> int:
        # Stated, not inherited: a compiled class (setup.py) with an ordering has no hash of
        # its own; the index also gives sets of tiles the same order in every process.
        return self.index

    def has(self, value: int) -> bool:
        """True when one half of the tile shows `value`."""
        return value in (self.low, self.high)

    def other_half(self, value: int) -> int:
        """The value on the half opposite the one that shows `value`."""
        return self.high if value == self.low else self.low

    @property
    def key(self) -> str:
        """The record form `"a|b"`."""
        return f"{self.low}|{self.high}"


TILES: Final[tuple[Tile, ...]] = tuple(
    Tile(index, low, high)
    for index, (low, high) in enumerate(
        (low, high) for low in range(MAX_PIP + 1) for high in range(low, MAX_PIP + 1)
    )
)
"""All tiles in canonical order: [0|0], [0|1] … [0|6], [1|1] … [6|6]."""

ALL_TILES_MASK: Final = (1 << len(TILES)) - 1

VALUE_MASK: Final[tuple[int, ...]] = tuple(
    sum(tile.bit for tile in TILES if tile.has(value)) for value in range(MAX_PIP + 1)
)
"""VALUE_MASK[v] has the bit of every tile with a half showing v."""

DOUBLES_MASK: Final = sum(t.bit for t in TILES if t.is_double)
"""The bits of the seven doubles."""

_BY_PAIR: Final[dict[tuple[int, int], Tile]] = {(t.low, t.high): t for t in TILES}
_BY_BIT: Final[dict[int, Tile]] = {t.bit: t for t in TILES}


def tile_of(a: int, b: int) -> Tile:
    """The tile with halves a and b, in either order."""
    low, high = (a, b) if a <= b else (b, a)
    try:
        return _BY_PAIR[(low, high)]
    except KeyError:
        raise InvalidRecord(phrase("engine.why.no_such_tile", a=a, b=b)) from None


def parse_tile(text: object) -> Tile:
    """Parse `"a|b"` or `"[a|b]"` (halves in either order) into a tile."""
    if not isinstance(text, str):
        raise InvalidRecord(phrase("engine.why.tile_form", text=repr(text)))
    body = text.strip()
    if body.startswith("[") and body.endswith("]"):
        body = body[1:-1]
    parts = body.split("|")
    if len(parts) != 2 or not all(p.strip().isdigit() and len(p.strip()) == 1 for p in parts):
        raise InvalidRecord(phrase("engine.why.tile_numbers", text=repr(text)))
    return tile_of(int(parts[0]), int(parts[1]))


def tiles_in(mask: int) -> Iterator[Tile]:
    """The tiles whose bits are set in `mask`, in canonical order."""
    while mask:
        low_bit = mask & -mask
        yield _BY_BIT[low_bit]
        mask ^= low_bit


def mask_of(tiles: Iterable[Tile]) -> int:
    """The bit mask holding exactly these tiles."""
    mask = 0
    for tile in tiles:
        mask |= tile.bit
    return mask


_PIPS_BY_SEVEN: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(sum(TILES[7 * part + i].pips for i in range(7) if bits >> i & 1) for bits in range(128))
    for part in range(4)
)
"""Pips of each subset of tiles 7p … 7p+6, by the subset's seven bits (p = 0 … 3)."""


def pips_in(mask: int) -> int:
    """Total pips of the tiles in `mask` (four table lookups: this runs at every hand's end)."""
    table = _PIPS_BY_SEVEN
    return (
        table[0][mask & 127]
        + table[1][mask >> 7 & 127]
        + table[2][mask >> 14 & 127]
        + table[3][mask >> 21 & 127]
    )
