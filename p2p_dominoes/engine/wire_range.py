"""The whole numbers a message can carry: msgpack's range, from -2⁶³ to 2⁶⁴ − 1.

One fact for two readers: the body schemas refuse a number outside it on the wire
(`session.schema`), and a rules file is refused when it is read if any of its numbers lies
outside it (`engine.rules`), so a set that passes `rules check` also fits in a genesis.
"""

from __future__ import annotations

from typing import Final

from p2p_dominoes.words import phrase

MSGPACK_INT_MIN: Final = -(2**63)
MSGPACK_INT_MAX: Final = 2**64 - 1


def out_of_range(value: int) -> str | None:
    """Why `value` cannot travel in a message (one phrase), or None when it can."""
    if MSGPACK_INT_MIN <= value <= MSGPACK_INT_MAX:
        return None
    return phrase("engine.why.outside_wire", value=value, low=MSGPACK_INT_MIN, high=MSGPACK_INT_MAX)
