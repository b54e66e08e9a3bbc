"""The handshake (`net/handshake.py`) over real loopback TCP: pinning the peer's key, refusals
and their reasons, our own identity, and bad bytes or silence before the peer is authenticated."""

from __future__ import annotations

import os

import pytest
import trio

from p2p_dominoes.net import (
    BYE_BUSY,
    Bye,
    Data,
    IdentityMismatch,
    PeerBusy,
    RefusedByPeer,
    connect,
    encode_frame,
    encode_message,
)
from p2p_dominoes.session import Identity, PublicIdentity
from tests.net.conftest import FAST
from tests.net.test_connection import _read_until_eof, refusing_listener, serving


async def test_pin_by_full_fingerprint(alice: Identity, bob: Identity) -> None:
    async with serving(alice) as server:
        for pin in (alice.public.fingerprint, alice.public.fingerprint.replace("-", "").lower()):
            async with connect("127.0.0.1", server.port, bob, expect=pin, config=FAST) as c:
                assert c.peer == alice.public


async def test_short_fingerprint_is_not_a_pin(alice: Identity, bob: Identity) -> None:
    with pytest.raises(ValueError, match="full fingerprint"):
        async with connect("127.0.0.1", 1, bob, expect=alice.public.short_fingerprint):
            pass


async def test_wrong_key_is_refused_with_a_reason(
    alice: Identity, bob: Identity, carol: Identity
) -> None:
    async with serving(alice) as server:
        with pytest.raises(IdentityMismatch) as info:
            async with connect("127.0.0.1", server.port, bob, expect=carol.public, config=FAST):
                pass
        assert carol.public.fingerprint in str(info.value)
        assert alice.public.fingerprint in str(info.value)
        await server.wait_for(lambda: bool(server.rejects))
    assert server.connections == []
    assert "expected" in server.rejects[0][1] and server.rejects[0][0].startswith("127.0.0.1:")


async def test_listener_refuses_a_stranger(alice: Identity, bob: Identity, carol: Identity) -> None:
    allowed = {bob.public}

    def authorize(peer: PublicIdentity) -> str | None:
        return None if peer in allowed else "not seated at this table"

    async with serving(alice, authorize=authorize) as server:
        async with connect("127.0.0.1", server.port, bob, expect=alice.public, config=FAST):
            pass
        with pytest.raises(RefusedByPeer) as info:
            async with connect("127.0.0.1", server.port, carol, expect=alice.public, config=FAST):
                pass
        assert "not seated at this table" in info.value.reason
        assert carol.public.fingerprint in info.value.reason
        await server.wait_for(lambda: bool(server.rejects))
    assert len(server.connections) == 1
    assert "not seated" in server.rejects[0][1]


async def test_connecting_to_yourself_is_refused(alice: Identity) -> None:
    async with serving(alice) as server:
        with pytest.raises((IdentityMismatch, RefusedByPeer), match="our own identity"):
            async with connect("127.0.0.1", server.port, alice, expect=None, config=FAST):
                pass


@pytest.mark.parametrize(
    ("junk", "reason"),
    [
        (os.urandom(64), "malformed handshake"),
        (b"\xff\xff\xff\xff", "frame length"),
        ((100_000).to_bytes(4, "big"), "frame length"),  # fine later, too big before auth
        (b"GET / HTTP/1.1\r\nHost: x\r\n\r\n", "frame length"),
        (encode_frame(encode_message(Data(b"too early"))), "expected hello"),
    ],
    ids=["random", "max-length", "big-length", "http", "data-before-hello"],
)
async def test_bad_bytes_are_dropped_and_named(
    alice: Identity, bob: Identity, junk: bytes, reason: str
) -> None:
    async with serving(alice) as server:
        stream = await trio.open_tcp_stream("127.0.0.1", server.port)
        await stream.send_all(junk)
        with trio.fail_after(0.5):  # well before the handshake timeout
            await _read_until_eof(stream, 0.5)
        await server.wait_for(lambda: bool(server.rejects))
        assert reason in server.rejects[0][1]
        # The listener keeps serving.
        async with connect("127.0.0.1", server.port, bob, expect=alice.public, config=FAST) as c:
            await c.send(b"still here")
            assert await c.receive() == Data(b"echo still here")


async def test_half_frame_then_silence_times_out_the_handshake(alice: Identity) -> None:
    async with serving(alice) as server:
        stream = await trio.open_tcp_stream("127.0.0.1", server.port)
        await stream.send_all(encode_frame(b"x" * 100)[:50])
        start = trio.current_time()
        await _read_until_eof(stream, 3)
        elapsed = trio.current_time() - start
        assert FAST.handshake_timeout - 0.1 <= elapsed <= FAST.handshake_timeout + 1
        await server.wait_for(lambda: bool(server.rejects))
        assert "timed out" in server.rejects[0][1]


async def test_a_peers_refusal_reason_is_cleaned_and_only_its_code_means_retry(
    bob: Identity,
) -> None:
    nasty = "\x1b]0;owned\x07\x1b[2Jcannot reach \u202eyou\u202c; busy"
    async with refusing_listener(Bye.of(nasty)) as port:
        with pytest.raises(RefusedByPeer) as info:
            async with connect("127.0.0.1", port, bob, expect=None, config=FAST):
                pass
    assert not isinstance(info.value, PeerBusy) and info.value.code is None
    assert info.value.reason == "]0;owned[2Jcannot reach you; busy"
    assert "\x1b" not in str(info.value) and "\u202e" not in str(info.value)
    async with refusing_listener(Bye.of("full \x1b[31m", BYE_BUSY)) as port:
        with pytest.raises(PeerBusy) as busy:
            async with connect("127.0.0.1", port, bob, expect=None, config=FAST):
                pass
    assert busy.value.code == BYE_BUSY and busy.value.reason == "full [31m"
