"""Authenticated connections over real loopback TCP: messages, limits, bad frames after the
handshake, liveness, byes and dialling (the handshake itself: test_handshake.py)."""

from __future__ import annotations

import itertools
import os
import socket
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from functools import partial

import pytest
import trio
import trio.testing

from p2p_dominoes.net import (
    BYE_BUSY,
    DEFAULT_CONFIG,
    MAX_DATA_SIZE,
    Backoff,
    Bye,
    Connection,
    ConnectionClosed,
    Data,
    FrameError,
    Hello,
    Inbox,
    Listener,
    PeerBusy,
    PeerFailure,
    PeerOptions,
    SyncRequest,
    TransportConfig,
    connect,
    decode_message,
    dialed,
    encode_frame,
    encode_message,
    open_listener,
)
from p2p_dominoes.net.handshake import handshake
from p2p_dominoes.net.mesh import dial_seat
from p2p_dominoes.net.record_layer import Cipher
from p2p_dominoes.net.table_run import LinkUp
from p2p_dominoes.session import Identity, PublicIdentity
from tests.net.conftest import FAST
from tests.net.test_link_drop import QuietUI


@dataclass
class Server:
    """A listener on 127.0.0.1 with a recording handler."""

    listener: Listener
    identity: Identity
    connections: list[Connection] = field(default_factory=list)
    received: list[object] = field(default_factory=list)
    closed: list[ConnectionClosed] = field(default_factory=list)
    rejects: list[tuple[str, str]] = field(default_factory=list)
    changed: trio.Event = field(default_factory=trio.Event)

    @property
    def port(self) -> int:
        return self.listener.port

    def _notify(self) -> None:
        self.changed.set()
        self.changed = trio.Event()

    async def wait_for(self, predicate: Callable[[], bool], timeout: float = 5.0) -> None:
        with trio.fail_after(timeout):
            while not predicate():
                await self.changed.wait()


@asynccontextmanager
async def serving(
    identity: Identity,
    *,
    config: TransportConfig = FAST,
    echo: bool = True,
    trust: bool = False,
    **serve_kwargs: object,
) -> AsyncIterator[Server]:
    listener = await open_listener(interface="127.0.0.1", port=0)
    server = Server(listener, identity)

    async def handler(conn: Connection) -> None:
        if trust:
            conn.trust()
        server.connections.append(conn)
        server._notify()
        try:
            while True:
                message = await conn.receive()
                server.received.append(message)
                server._notify()
                if echo and isinstance(message, Data):
                    await conn.send(b"echo " + message.payload)
        except ConnectionClosed as exc:
            server.closed.append(exc)
            server._notify()

    def on_reject(address: str, reason: str) -> None:
        server.rejects.append((address, reason))
        server._notify()

    async with listener, trio.open_nursery() as nursery:
        await nursery.start(
            lambda task_status: listener.serve(
                identity,
                handler,
                config=config,
                on_reject=on_reject,
                task_status=task_status,
                **serve_kwargs,  # type: ignore[arg-type]
            )
        )
        yield server
        nursery.cancel_scope.cancel()


async def _read_until_eof(stream: trio.abc.Stream, timeout: float) -> bytes:
    data = b""
    with trio.fail_after(timeout):
        while chunk := await stream.receive_some(65536):
            data += chunk
    return data


async def test_handshake_and_messages_both_ways(alice: Identity, bob: Identity) -> None:
    async with serving(alice) as server:
        async with connect("127.0.0.1", server.port, bob, expect=alice.public, config=FAST) as c:
            assert c.peer == alice.public and c.local == bob.public and c.initiator
            await c.send(b"one")
            await c.request_sync(b"\x07" * 32)
            await c.send(b"two")
            assert await c.receive() == Data(b"echo one")
            assert await c.receive() == Data(b"echo two")
        await server.wait_for(lambda: len(server.closed) == 1)
    assert server.received == [Data(b"one"), SyncRequest(b"\x07" * 32), Data(b"two")]
    inbound = server.connections[0]
    assert inbound.peer == bob.public and not inbound.initiator
    assert server.closed[0].reason == "peer said bye: “done”"
    assert not server.closed[0].peer_fault


async def test_largest_payload_passes_and_larger_is_refused(alice: Identity, bob: Identity) -> None:
    async with (
        serving(alice, echo=False) as server,
        connect("127.0.0.1", server.port, bob, expect=None, config=FAST) as c,
    ):
        await c.send(b"\xab" * MAX_DATA_SIZE)
        with pytest.raises(FrameError):
            await c.send(b"\xab" * (MAX_DATA_SIZE + 1))
        await server.wait_for(lambda: len(server.received) == 1)
    assert server.received == [Data(b"\xab" * MAX_DATA_SIZE)]


async def test_connection_cap(alice: Identity, bob: Identity, carol: Identity) -> None:
    """The cap on trusted connections refuses more with a `busy` code (the dialer retries)."""
    async with (
        serving(alice, max_connections=1, trust=True) as server,
        connect("127.0.0.1", server.port, bob, expect=None, config=FAST),
    ):
        await server.wait_for(lambda: len(server.connections) == 1)
        with pytest.raises(PeerBusy, match="too many connections") as info:
            async with connect("127.0.0.1", server.port, carol, expect=None, config=FAST):
                pass
        assert info.value.code == BYE_BUSY


async def test_no_listener_is_an_os_error(bob: Identity) -> None:
    listener = await open_listener(interface="127.0.0.1", port=0)
    port = listener.port
    await listener.aclose()
    with pytest.raises(OSError, match="could not connect"):
        async with connect("127.0.0.1", port, bob, expect=None, config=FAST):
            pass


@asynccontextmanager
async def raw_authenticated(
    port: int, identity: Identity
) -> AsyncIterator[tuple[trio.SocketStream, Cipher]]:
    """A hand-driven client: does the real handshake, then sends only what the test writes."""
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    session = await handshake(
        stream, identity, initiator=True, expect=None, authorize=None, timeout=2
    )
    try:
        yield stream, session.tx
    finally:
        await stream.aclose()


async def test_half_frame_after_auth_then_silence(alice: Identity, bob: Identity) -> None:
    async with serving(alice) as server, raw_authenticated(server.port, bob) as (stream, tx):
        frame = tx.seal(encode_message(Data(b"x" * 1000)))
        await stream.send_all(frame[:300])
        await server.wait_for(lambda: bool(server.closed), timeout=3)
        assert "silent" in server.closed[0].reason
        assert server.received == []


@pytest.mark.parametrize("attack", ["bitflip", "replay", "hello-again", "plaintext"])
async def test_bad_frames_after_auth_drop_the_peer(
    alice: Identity, bob: Identity, attack: str
) -> None:
    async with serving(alice) as server, raw_authenticated(server.port, bob) as (stream, tx):
        good = tx.seal(encode_message(Data(b"fine")))
        if attack == "bitflip":
            wire = bytearray(good)
            wire[10] ^= 1
            await stream.send_all(bytes(wire))
        elif attack == "replay":
            await stream.send_all(good + good)
        elif attack == "hello-again":
            await stream.send_all(
                tx.seal(encode_message(Hello(1, bob.public.raw, b"\x09" * 32, b"\x00" * 32)))
            )
        else:
            await stream.send_all(encode_frame(encode_message(Data(b"fine"))))
        await server.wait_for(lambda: bool(server.closed), timeout=3)
        closed = server.closed[0]
        assert closed.peer_fault
        assert "protocol violation" in closed.reason
        assert server.received == ([Data(b"fine")] if attack == "replay" else [])
        await _read_until_eof(stream, 1)


async def test_heartbeats_keep_an_idle_connection_open(alice: Identity, bob: Identity) -> None:
    async with serving(alice) as server:
        async with connect("127.0.0.1", server.port, bob, expect=None, config=FAST) as c:
            await trio.sleep(4 * FAST.peer_timeout)
            assert not c.closed
            await c.send(b"ping")
            assert await c.receive() == Data(b"echo ping")
        assert server.closed[0].reason == "peer said bye: “done”"


async def test_a_slow_reader_is_not_mistaken_for_a_silent_peer(
    alice: Identity, bob: Identity
) -> None:
    """The application reads nothing for 3 peer timeouts: nothing is lost, nobody is dropped."""
    count = 200
    async with serving(alice, trust=True) as server:
        async with connect("127.0.0.1", server.port, bob, expect=None, config=FAST) as c:
            for i in range(count):
                await c.send(i.to_bytes(2, "big") * 500)
            await trio.sleep(3 * FAST.peer_timeout)
            replies = [await c.receive() for _ in range(count)]
            assert not c.closed
        assert replies == [Data(b"echo " + i.to_bytes(2, "big") * 500) for i in range(count)]


async def test_receive_queue_overflow_closes(alice: Identity, bob: Identity) -> None:
    config = TransportConfig(
        handshake_timeout=1.0, heartbeat_interval=0.1, peer_timeout=0.6, receive_queue=5
    )
    async with (
        serving(alice, config=config) as server,
        connect("127.0.0.1", server.port, bob, expect=None, config=config) as c,
    ):
        for _ in range(10):
            await c.send(b"x")
        await trio.sleep(0.3)
        received = []
        with pytest.raises(ConnectionClosed, match="more than 5 messages waiting"):
            while True:
                received.append(await c.receive())
        assert len(received) == 5  # what was queued is still delivered


async def test_silent_peer_is_noticed_within_the_default_timeout(
    alice: Identity, bob: Identity
) -> None:
    """A peer that stops sending (no bye, no FIN: like a laptop gone from the Wi-Fi)."""
    assert DEFAULT_CONFIG.peer_timeout == 5.0 and DEFAULT_CONFIG.heartbeat_interval == 1.0
    async with serving(alice, config=DEFAULT_CONFIG) as server:
        async with raw_authenticated(server.port, bob) as (stream, tx):
            await stream.send_all(tx.seal(encode_message(Data(b"last words"))))
            await server.wait_for(lambda: bool(server.received))
            start = trio.current_time()
            heartbeats = 0
            with trio.move_on_after(DEFAULT_CONFIG.peer_timeout + 1.5):
                while not server.closed:
                    chunk = await stream.receive_some(65536)  # the server's heartbeats
                    if not chunk:
                        break
                    heartbeats += 1
            await server.wait_for(lambda: bool(server.closed), timeout=1)
            elapsed = trio.current_time() - start
        assert 4.5 <= elapsed <= 6.5
        assert heartbeats >= 3  # meanwhile the server kept saying that it is alive
        assert server.closed[0].reason == "peer silent for 5 s"
        assert not server.closed[0].peer_fault


async def test_client_notices_a_vanished_server(alice: Identity, bob: Identity) -> None:
    """The dialing side too: the listener's peer stops talking without closing."""
    listener = await open_listener(interface="127.0.0.1", port=0)
    async with listener, trio.open_nursery() as nursery:

        async def silent_responder() -> None:
            stream = await listener._socket_listener.accept()
            await handshake(stream, alice, initiator=False, expect=None, authorize=None, timeout=2)
            await trio.sleep_forever()

        nursery.start_soon(silent_responder)
        async with connect("127.0.0.1", listener.port, bob, expect=None, config=FAST) as c:
            with (
                trio.fail_after(FAST.peer_timeout + 1),
                pytest.raises(ConnectionClosed, match="silent"),
            ):
                await c.receive()
            with pytest.raises(ConnectionClosed):
                await c.send(b"too late")
        nursery.cancel_scope.cancel()


async def test_what_a_peer_sent_before_a_send_failed_is_still_delivered(
    alice: Identity, bob: Identity
) -> None:
    """Our process did not run for a while (frozen, a closed lid); meanwhile the peer sent its
    last messages (a move, a stop notice) and went away. Our first send fails, but what waits
    unread in the socket is still delivered before the connection ends: a failed send never
    makes us miss the peer's last word."""
    listener = await open_listener(interface="127.0.0.1", port=0)
    async with listener, trio.open_nursery() as nursery:
        accepted: list[tuple[trio.SocketStream, Cipher]] = []
        handshaken = trio.Event()

        async def responder() -> None:
            stream = await listener._socket_listener.accept()
            session = await handshake(
                stream, alice, initiator=False, expect=None, authorize=None, timeout=2
            )
            accepted.append((stream, session.tx))
            handshaken.set()
            await trio.sleep_forever()

        nursery.start_soon(responder)
        async with connect("127.0.0.1", listener.port, bob, expect=None, config=FAST) as c:
            with trio.fail_after(2):
                await handshaken.wait()
            await trio.testing.wait_all_tasks_blocked()
            stream, tx = accepted[0]
            last_words = [Data(b"the last move"), Data(b"the stop notice")]
            frames = b"".join(tx.seal(encode_message(m)) for m in last_words)
            # The peer's writes and its going away, with no checkpoint of ours in between (as
            # when our process was stopped): the frames wait in our socket, unread.
            with socket.socket(fileno=os.dup(stream.socket.fileno())) as raw:
                raw.sendall(frames)
                raw.shutdown(socket.SHUT_RDWR)
            c._close_now("connection lost: reset by peer", drain=True)  # as a failed send does
            received = []
            with (
                trio.fail_after(2),
                pytest.raises(ConnectionClosed, match="connection lost: reset by peer"),
            ):
                while True:
                    received.append(await c.receive())
            assert received == last_words
        nursery.cancel_scope.cancel()


async def test_a_silence_seen_late_still_delivers_what_waits_in_the_socket(
    alice: Identity, bob: Identity
) -> None:
    """Our process did not run for longer than the peer timeout (frozen, a closed lid); meanwhile
    the peer sent its last words and went away. Waking up, the expired silence deadline may be
    seen before the frames in the socket: they are still read before the peer is named silent."""
    listener = await open_listener(interface="127.0.0.1", port=0)
    async with listener, trio.open_nursery() as nursery:
        accepted: list[tuple[trio.SocketStream, Cipher]] = []
        handshaken = trio.Event()

        async def responder() -> None:
            stream = await listener._socket_listener.accept()
            session = await handshake(
                stream, alice, initiator=False, expect=None, authorize=None, timeout=2
            )
            accepted.append((stream, session.tx))
            handshaken.set()
            await trio.sleep_forever()

        nursery.start_soon(responder)
        async with connect("127.0.0.1", listener.port, bob, expect=None, config=FAST) as c:
            with trio.fail_after(2):
                await handshaken.wait()
            await trio.testing.wait_all_tasks_blocked()
            stream, tx = accepted[0]
            last_words = [Data(b"the last move"), Data(b"the stop notice")]
            frames = b"".join(tx.seal(encode_message(m)) for m in last_words)
            with socket.socket(fileno=os.dup(stream.socket.fileno())) as raw:
                raw.sendall(frames)
                raw.shutdown(socket.SHUT_RDWR)
            read_scope = c._read_scope
            assert read_scope is not None
            read_scope.cancel()  # the silence deadline, seen before the socket on waking
            received = []
            with trio.fail_after(2), pytest.raises(ConnectionClosed, match="without bye"):
                while True:
                    received.append(await c.receive())
            assert received == last_words
        nursery.cancel_scope.cancel()


async def test_local_close_sends_bye_with_reason(alice: Identity, bob: Identity) -> None:
    async with serving(alice) as server:
        async with connect("127.0.0.1", server.port, bob, expect=None, config=FAST) as c:
            await server.wait_for(lambda: bool(server.connections))
            await c.aclose("table finished")
            assert c.close_reason == "closed locally: table finished"
            with pytest.raises(ConnectionClosed):
                await c.receive()
        await server.wait_for(lambda: bool(server.closed))
    assert server.closed[0].reason == "peer said bye: “table finished”"


def test_bye_reason_limits() -> None:
    assert Bye.of("x" * 1000).reason == "x" * 256


# --- refusal codes and peer text ------------------------------------------------------------


def test_bye_code_is_optional_and_backward_safe() -> None:
    plain, busy = Bye.of("bye"), Bye.of("come back later", BYE_BUSY)
    assert encode_message(plain) == encode_message(Bye("bye"))  # the original two elements
    assert decode_message(encode_message(plain)) == plain and not plain.busy
    assert decode_message(encode_message(busy)) == busy and busy.busy
    future = Bye("x", "some-future-code")
    assert decode_message(encode_message(future)) == future  # kept, and means nothing here
    with pytest.raises(FrameError):
        Bye("x", "BUSY")
    with pytest.raises(FrameError, match="canonical"):  # a nil code is the two-element form
        decode_message(b"\x93\x06\xa1x\xc0")


@asynccontextmanager
async def refusing_listener(bye: Bye) -> AsyncIterator[int]:
    """A listener that reads a hello and answers with `bye` in the clear (like a refusal)."""
    listener = await open_listener(interface="127.0.0.1", port=0)
    async with listener, trio.open_nursery() as nursery:

        async def refuse() -> None:
            while True:
                stream = await listener._socket_listener.accept()
                await stream.receive_some(4096)
                await stream.send_all(encode_frame(encode_message(bye)))
                await stream.aclose()

        nursery.start_soon(refuse)
        yield listener.port
        nursery.cancel_scope.cancel()


async def test_a_bye_reason_is_cleaned_before_it_reaches_a_log(
    alice: Identity, bob: Identity, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level("INFO", logger="p2p_dominoes.net")
    async with (
        serving(alice) as server,
        connect("127.0.0.1", server.port, bob, expect=None, config=FAST) as c,
    ):
        await server.wait_for(lambda: bool(server.connections))
        await server.connections[0].aclose("\x1b]2;title\x07gone \u2066x\u2069")
        with pytest.raises(ConnectionClosed) as info:
            await c.receive()
    assert info.value.reason == "peer said bye: “]2;titlegone x”"
    assert all("\x1b" not in r.getMessage() for r in caplog.records)


async def test_dialed_retries_a_busy_host_and_stops_at_a_plain_refusal(
    alice: Identity, bob: Identity, carol: Identity
) -> None:
    """Only the code decides: `busy` is dialled again until the host has room; a plain
    refusal ends the dial at once."""
    release = trio.Event()

    async def handler(conn: Connection) -> None:
        conn.trust()
        if conn.peer == bob.public:
            await release.wait()  # bob holds the only slot for a while
        else:
            await conn.send(b"welcome")
            async for _ in conn:
                pass

    listener = await open_listener(interface="127.0.0.1", port=0)
    async with listener, trio.open_nursery() as nursery:
        await nursery.start(partial(listener.serve, alice, handler, config=FAST, max_connections=1))
        async with connect("127.0.0.1", listener.port, bob, expect=None, config=FAST):
            while listener.trusted < 1:
                await trio.sleep(0.01)
            nursery.start_soon(_release_later, release, 0.7)
            started = trio.current_time()
            async with dialed(carol, ["127.0.0.1"], listener.port, alice.public, patience=5) as c:
                assert await c.receive() == Data(b"welcome")
            assert trio.current_time() - started >= 0.5
        nursery.cancel_scope.cancel()
    async with refusing_listener(Bye.of("not seated at this table")) as port:
        started = trio.current_time()
        with pytest.raises(PeerFailure, match="not seated"):
            async with dialed(carol, ["127.0.0.1"], port, None, patience=10):
                pass
        assert trio.current_time() - started < 1


async def _release_later(event: trio.Event, delay: float) -> None:
    await trio.sleep(delay)
    event.set()


def test_backoff_grows_to_its_cap_with_jitter() -> None:
    backoff = Backoff(first=1.0, cap=30.0)
    delays = [backoff.next() for _ in range(12)]
    bounds = [min(30.0, 2.0**n) for n in range(12)]
    assert all(b / 2 <= d <= b for d, b in zip(delays, bounds, strict=True))
    assert len(set(delays)) > 1
    # A failing address is dialled a handful of times a minute, even at the shortest draws.
    backoff.reset()
    elapsed, dials = 0.0, 1
    while elapsed < 60:
        elapsed += backoff.next()
        dials += 1
    assert dials <= 9
    assert 15.0 <= backoff.slowest() <= 30.0


async def test_a_seat_is_dialled_again_after_refusals_and_a_wrong_key_only_slowly(
    alice: Identity, bob: Identity, carol: Identity
) -> None:
    """`dial_seat` never gives up on a refusal (whatever its words), with growing delays; a
    different key at the address is said once and dialled at the slowest pace."""
    attempts: list[float] = []

    def authorize(peer: PublicIdentity) -> str | None:
        attempts.append(trio.current_time())
        return "cannot reach: not yet" if len(attempts) < 3 else None

    async def handler(conn: Connection) -> None:
        conn.trust()
        async for _ in conn:
            pass

    ui = QuietUI()
    options = PeerOptions("bob", bob, ui)
    inbox = Inbox.new()
    async with (
        await open_listener(interface="127.0.0.1", port=0) as right,
        await open_listener(interface="127.0.0.1", port=0) as wrong,
        trio.open_nursery() as nursery,
    ):
        await nursery.start(partial(right.serve, alice, handler, authorize=authorize))
        wrong_dials: list[str] = []
        await nursery.start(
            partial(wrong.serve, carol, handler, on_reject=lambda a, r: wrong_dials.append(r))
        )
        nursery.start_soon(dial_seat, options, inbox, 0, ("127.0.0.1", right.port), alice.public)
        nursery.start_soon(dial_seat, options, inbox, 1, ("127.0.0.1", wrong.port), alice.public)
        with trio.fail_after(10):
            item = await inbox.receive.receive()
        assert isinstance(item, LinkUp) and item.link.seat == 0
        assert len(attempts) == 3
        gaps = [b - a for a, b in itertools.pairwise(attempts)]
        assert gaps[1] > gaps[0] * 0.9 and gaps[0] >= 0.5  # backoff, not a fixed beat
        await trio.sleep(1.0)
        assert len(wrong_dials) == 1, wrong_dials  # 15-30 s until the next try
        assert [line for line in ui.lines if "another key answers" in line] != []
        nursery.cancel_scope.cancel()
