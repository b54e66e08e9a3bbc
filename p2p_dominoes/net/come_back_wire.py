"""v4 (PROTOCOL.md §16.1): a returning player's request on the wire: its own data channel,
then a msgpack array (checked for its shape here; the session checks its signature). A former
holder sends it to the seats it reaches; a seat passes it on to the one that proposes."""

from __future__ import annotations

from typing import Final

import msgpack  # type: ignore[import-untyped]

from p2p_dominoes.net.table_run import AskedBack
from p2p_dominoes.session import PublicIdentity
from p2p_dominoes.session.envelope import MAX_SEATS
from p2p_dominoes.session.identity import PUBLIC_KEY_SIZE, SIGNATURE_SIZE

CHANNEL_COME_BACK: Final = 0x05
"""The data channel of a returning player's request (§16.1): from a former holder, or passed on
by a seat to the seat that proposes its return."""

MAX_NAME_BYTES: Final = 64
"""Bytes of a returning player's name, at most."""


def encode_ask(ask: AskedBack) -> bytes:
    """The request as sent: the channel byte, then a msgpack array."""
    body = ["come_back", ask.seat, ask.name, ask.key.raw, ask.asked]
    packed: bytes = msgpack.packb(body, use_bin_type=True)
    return bytes([CHANNEL_COME_BACK]) + packed


def decode_ask(payload: bytes) -> AskedBack | None:
    """A request from its payload (after the channel byte); None when it is malformed."""
    try:
        body = msgpack.unpackb(payload, raw=False, strict_map_key=True, max_bin_len=64)
    except Exception:  # msgpack raises several types for garbage
        return None
    if not isinstance(body, list) or len(body) != 5 or body[0] != "come_back":
        return None
    _, seat, name, key, asked = body
    ok = (
        type(seat) is int
        and 0 <= seat < MAX_SEATS
        and isinstance(name, str)
        and 0 < len(name.encode("utf-8")) <= MAX_NAME_BYTES
        and isinstance(key, bytes)
        and len(key) == PUBLIC_KEY_SIZE
        and isinstance(asked, bytes)
        and len(asked) == SIGNATURE_SIZE
    )
    if not ok:
        return None
    try:
        return AskedBack(seat, name, PublicIdentity(key), asked)
    except ValueError:
        return None
