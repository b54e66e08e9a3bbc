"""Independent generators h_0..h_N for the shuffle proof, derived from a fixed versioned label.

They are never taken from the network: every peer derives them itself, and hashing to the curve
means nobody knows a discrete log between any two of them or to G.
"""

from __future__ import annotations

import functools
from typing import Final

from p2p_dominoes.mental.encoding import u32
from p2p_dominoes.mental.group import Point, sum_points
from p2p_dominoes.mental.hash_to_curve import hash_to_point

GENERATOR_DOMAIN: Final = b"p2p-dominoes/mental/v1/shuffle-generator"


@functools.cache
def generators(count: int) -> tuple[Point, ...]:
    """`h_k = hash_to_point(GENERATOR_DOMAIN, u32(k))` for k = 0..count-1 (cached)."""
    points = tuple(hash_to_point(GENERATOR_DOMAIN, u32(k)) for k in range(count))
    if len({p.raw for p in points}) != count:
        raise RuntimeError("shuffle generators are not pairwise distinct")
    return points


@functools.cache
def generator_sum(count: int) -> bytes:
    """`h_1 + ... + h_count` (raw), used by every shuffle verification."""
    return sum_points(p.raw for p in generators(count + 1)[1:])
