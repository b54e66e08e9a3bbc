"""The advisory page-presence message (PROTOCOL.md §14): its exact bytes, the strict decoding
that turns every other payload away, and the per-connection rate limit."""

from __future__ import annotations

import msgpack  # type: ignore[import-untyped]
import pytest

from p2p_dominoes.net.page_presence import (
    CHANNEL_PRESENCE,
    MAX_PRESENCE_BYTES,
    PAGE_STATES,
    PRESENCE_BURST,
    PresenceError,
    PresenceLimit,
    decode_presence,
    encode_presence,
)


def test_each_state_is_a_two_element_array_after_channel_byte_three() -> None:
    assert encode_presence("closed") == b"\x03\x92\xa4page\xa6closed"
    for state in PAGE_STATES:
        payload = encode_presence(state)
        assert payload[0] == CHANNEL_PRESENCE
        assert len(payload) - 1 <= MAX_PRESENCE_BYTES
        assert decode_presence(payload[1:]) == state


@pytest.mark.parametrize(
    "payload",
    [
        b"",
        b"\xc1",
        b"\x92\xa4page",
        b"\x91" * 15,
        b"\xff" * (MAX_PRESENCE_BYTES + 1),
        encode_presence("open")[1:] + b"\x00",
        msgpack.packb(["page", "gone"]),
        msgpack.packb(["page", 1]),
        msgpack.packb(["page", b"open"], use_bin_type=True),
        msgpack.packb(["page", "open", "x"]),
        msgpack.packb(["Page", "open"]),
        msgpack.packb({"page": "open"}),
        msgpack.packb("open"),
    ],
)
def test_anything_else_is_refused_with_one_line(payload: bytes) -> None:
    with pytest.raises(PresenceError) as refused:
        decode_presence(payload)
    assert "\n" not in str(refused.value)


def test_a_connection_gets_a_burst_then_one_a_second() -> None:
    limit = PresenceLimit(now=100.0)
    assert [limit.allow(100.0) for _ in range(PRESENCE_BURST + 3)] == [True] * PRESENCE_BURST + [
        False
    ] * 3
    assert not limit.allow(100.5)
    assert limit.allow(101.0)
    assert not limit.allow(101.0)
    # Quiet for a long time earns no more than the burst again.
    assert sum(limit.allow(1000.0) for _ in range(10)) == PRESENCE_BURST
    # A clock that goes backwards earns nothing.
    assert not limit.allow(50.0)
