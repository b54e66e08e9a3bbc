"""v4 (PROTOCOL.md §16.1): a returning player's request on the wire, checked at the boundary
(a former holder's connection carries it; nothing else it sends is taken)."""

from __future__ import annotations

import msgpack  # type: ignore[import-untyped]
import pytest

from p2p_dominoes.net.come_back_wire import CHANNEL_COME_BACK, decode_ask, encode_ask
from p2p_dominoes.net.table_run import AskedBack
from p2p_dominoes.session import Identity


def _ask() -> AskedBack:
    return AskedBack(2, "j2", Identity.generate().public, bytes(range(64)))


def test_a_request_goes_over_its_channel_and_reads_back_the_same() -> None:
    ask = _ask()
    payload = encode_ask(ask)
    assert payload[0] == CHANNEL_COME_BACK
    assert decode_ask(payload[1:]) == ask


@pytest.mark.parametrize(
    "body",
    [
        ["come_back", 4, "j2", None, bytes(64)],  # no seat 5
        ["come_back", -1, "j2", None, bytes(64)],
        ["come_back", True, "j2", None, bytes(64)],  # a bool is not a seat
        ["come_back", 2, "", None, bytes(64)],  # no name
        ["come_back", 2, "x" * 65, None, bytes(64)],  # a name too long
        ["come_back", 2, "j2", bytes(31), bytes(64)],  # not a key
        ["come_back", 2, "j2", bytes(32), bytes(64)],  # not a point of the curve's group
        ["come_back", 2, "j2", None, bytes(63)],  # not a signature
        ["stopped", 2, "j2", None, bytes(64)],
        ["come_back", 2, "j2", None],
    ],
)
def test_a_malformed_request_is_dropped(body: list[object]) -> None:
    key = Identity.generate().public.raw
    body = [key if item is None else item for item in body]
    assert decode_ask(msgpack.packb(body, use_bin_type=True)) is None


def test_garbage_is_dropped() -> None:
    assert decode_ask(b"\xc1\xff\x00") is None
    assert decode_ask(b"") is None
