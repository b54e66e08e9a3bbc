"""The 28 double-six tiles: canonical order, text form, and their points on the curve.

A tile is identified by its index 0..27 in the order (0,0),(0,1),...,(0,6),(1,1),...,(6,6).
Each maps to `hash_to_point(TILE_DOMAIN, b"a|b")`; at import the 28 points are checked valid
and pairwise distinct, and the reverse lookup point → tile is built.
"""

from __future__ import annotations

from typing import Final

from p2p_dominoes.mental.group import Point
from p2p_dominoes.mental.hash_to_curve import hash_to_point

TILES: Final[tuple[tuple[int, int], ...]] = tuple(
    (low, high) for low in range(7) for high in range(low, 7)
)
TILE_COUNT: Final = len(TILES)
TILE_DOMAIN: Final = b"p2p-dominoes/mental/v1/tile"


def tile_text(tile: int) -> str:
    """The text form "a|b" (a <= b) of tile index `tile`."""
    low, high = TILES[tile]
    return f"{low}|{high}"


def parse_tile(text: str) -> int:
    """The index of the tile written "a|b" (either order)."""
    parts = text.split("|")
    if len(parts) != 2 or not all(p.isdigit() and len(p) == 1 for p in parts):
        raise ValueError(f"not a tile: {text!r}")
    a, b = int(parts[0]), int(parts[1])
    try:
        return TILES.index((min(a, b), max(a, b)))
    except ValueError:
        raise ValueError(f"not a tile: {text!r}") from None


def _derive_tile_points() -> tuple[Point, ...]:
    points = tuple(hash_to_point(TILE_DOMAIN, tile_text(t).encode()) for t in range(TILE_COUNT))
    if len({p.raw for p in points}) != TILE_COUNT:
        raise RuntimeError("tile points are not pairwise distinct")
    return points


TILE_POINTS: Final = _derive_tile_points()
_TILE_BY_POINT: Final = {p.raw: t for t, p in enumerate(TILE_POINTS)}


def tile_point(tile: int) -> Point:
    """The point M_t of tile index `tile`."""
    return TILE_POINTS[tile]


def point_to_tile(point: bytes) -> int | None:
    """The tile whose point is encoded as `point`, or None (an unknown point means cheating)."""
    return _TILE_BY_POINT.get(point)
