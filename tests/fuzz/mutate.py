"""Fast, seeded mutators shared by the fuzz targets (plain `random.Random`, no hypothesis).

Hypothesis draws the seeds; each seed drives a loop of many cheap cases, which is how a run
reaches hundreds of thousands of cases in seconds. A failure message names the seed and case.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from p2p_dominoes.session.schema import Wire

# Bytes that matter to msgpack (type markers) and to length fields.
INTERESTING = (
    0x00,
    0x01,
    0x7F,
    0x80,
    0x8F,
    0x90,
    0x93,
    0x97,
    0x9F,
    0xA0,
    0xC0,
    0xC1,
    0xC2,
    0xC3,
    0xC4,
    0xC5,
    0xC6,
    0xCC,
    0xCD,
    0xCE,
    0xCF,
    0xD0,
    0xD9,
    0xDC,
    0xDD,
    0xDE,
    0xE0,
    0xFF,
)


def mutate_bytes(rnd: random.Random, data: bytes, others: Sequence[bytes] = ()) -> bytes:
    """1–4 byte-level edits: flip, set, insert, delete, truncate, append, repeat, splice."""
    out = bytearray(data)
    for _ in range(rnd.randint(1, 4)):
        kind = rnd.randrange(9)
        at = rnd.randrange(len(out)) if out else 0
        if kind == 0 and out:
            out[at] ^= 1 << rnd.randrange(8)
        elif kind == 1 and out:
            out[at] = rnd.choice(INTERESTING)
        elif kind == 2:
            out[at:at] = rnd.randbytes(rnd.randint(1, 8))
        elif kind == 3:
            del out[at : at + rnd.randint(1, 16)]
        elif kind == 4:
            del out[at:]
        elif kind == 5:
            out += rnd.randbytes(rnd.randint(1, 8))
        elif kind == 6 and out:
            end = min(len(out), at + rnd.randint(1, 32))
            out[at:at] = out[at:end]
        elif kind == 7 and others:
            other = rnd.choice(others)
            cut = rnd.randrange(len(other) + 1)
            out = out[:at] + bytearray(other[cut:])
        elif out:
            out[at] = rnd.randrange(256)
    return bytes(out)


def random_wire(rnd: random.Random, depth: int = 2) -> Wire:
    """A random value of the wire's data model: nil, bool, int, bin, str, or arrays of them."""
    kind = rnd.randrange(8 if depth > 0 else 6)
    if kind == 0:
        return None
    if kind == 1:
        return rnd.random() < 0.5
    if kind == 2:
        return rnd.choice((0, 1, -1, 2, 3, 4, 27, 28, 127, 128, 255, 256, 2**32, -(2**63)))
    if kind == 3:
        return rnd.randint(-(2**63), 2**64 - 1)
    if kind == 4:
        return rnd.randbytes(rnd.choice((0, 1, 16, 32, 33, 64, rnd.randint(0, 200))))
    if kind == 5:
        return rnd.choice(("", "a", "left", "right", "é" * 3, "x" * 70))
    return tuple(random_wire(rnd, depth - 1) for _ in range(rnd.randint(0, 4)))
