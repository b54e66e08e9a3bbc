"""The listener: default port, fallback, interface binding, dual stack, and connection floods."""

from __future__ import annotations

import json
import socket
import subprocess
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager, suppress
from functools import partial
from typing import Any

import pytest
import trio

from p2p_dominoes.net import (
    DEFAULT_PORT,
    MAX_DATA_SIZE,
    MAX_STRANGERS_PER_SOURCE,
    MAX_UNAUTHENTICATED_PER_HOST,
    Connection,
    ConnectionClosed,
    Data,
    Listener,
    PeerBusy,
    TransportConfig,
    connect,
    open_listener,
)
from p2p_dominoes.net.strangers import SourceRateLimit
from p2p_dominoes.session import Identity
from tests.net.conftest import FAST
from tests.net.hostile import clients
from tests.net.netns import REPO_ROOT, isolated_env, namespace_support, python_argv, unshare_argv


def test_default_port_is_documented() -> None:
    assert DEFAULT_PORT == 47800


async def test_taken_port_falls_back_to_a_free_one() -> None:
    with socket.socket() as blocker:
        blocker.bind(("127.0.0.1", 0))
        blocker.listen()
        taken = blocker.getsockname()[1]
        async with await open_listener(interface="127.0.0.1", port=taken) as listener:
            assert listener.port != taken and listener.port > 0
        with pytest.raises(OSError):
            await open_listener(interface="127.0.0.1", port=taken, fallback=False)


async def test_interface_binds_one_address_only() -> None:
    async with await open_listener(interface="127.0.0.1", port=0) as listener:
        assert listener.host == "127.0.0.1" and not listener.dual_stack
        with pytest.raises(OSError):
            await trio.open_tcp_stream("::1", listener.port)
        stream = await trio.open_tcp_stream("127.0.0.1", listener.port)
        await stream.aclose()


async def test_interface_must_be_an_address() -> None:
    with pytest.raises(ValueError, match="IP address"):
        await open_listener(interface="eth0")


@pytest.mark.netns
@pytest.mark.skipif(namespace_support() is not None, reason=str(namespace_support()))
def test_dual_stack_default_listener_in_a_private_namespace() -> None:
    result = subprocess.run(
        unshare_argv(python_argv("tests.net.listener_probe")),
        cwd=REPO_ROOT,
        env=isolated_env(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["port"] == DEFAULT_PORT
    assert report["dual_stack"] is True and report["host"] == "::"
    assert report["second_port"] not in (0, DEFAULT_PORT)
    assert report["127.0.0.1"].startswith("127.0.0.1 via 127.0.0.1:")  # IPv4-mapped, unmapped
    assert report["::1"].startswith("::1 via [::1]:")


async def test_flood_of_connections_does_not_starve_others(alice: Identity, bob: Identity) -> None:
    """600 connections from 127.0.0.2 (idle, garbage, half frames) while bob connects: most are
    turned away at once by the per-source rate limit, the rest time out in their handshake."""
    handled: list[Connection] = []

    async def handler(conn: Connection) -> None:
        handled.append(conn)
        async for message in conn:
            if isinstance(message, Data):
                await conn.send(message.payload)

    peak = 0
    async with (
        await open_listener(interface="127.0.0.1", port=0) as listener,
        trio.open_nursery() as nursery,
    ):
        await nursery.start(
            lambda task_status: listener.serve(alice, handler, config=FAST, task_status=task_status)
        )
        flood: list[trio.socket.SocketType] = []

        async def watch() -> None:
            nonlocal peak
            while True:
                peak = max(peak, listener.unauthenticated)
                await trio.sleep(0.005)

        nursery.start_soon(watch)
        for i in range(600):
            sock = trio.socket.socket()
            await sock.bind(("127.0.0.2", 0))
            await sock.connect(("127.0.0.1", listener.port))
            if i % 3 == 1:
                await sock.send(b"\x00\x00\x01\x00" + b"\x00" * 10)  # half a frame
            elif i % 3 == 2:
                await sock.send(b"\x00\x00\x00\x00garbage")
            flood.append(sock)
        # During the flood a legitimate peer from another address gets in at once.
        with trio.fail_after(1):
            async with connect(
                "127.0.0.1", listener.port, bob, expect=alice.public, config=FAST
            ) as conn:
                await conn.send(b"hi")
                assert await conn.receive() == Data(b"hi")
        # Every flood socket is closed by the listener: at once when over the limit, or
        # after the handshake timeout.
        with trio.fail_after(FAST.handshake_timeout + 2):
            for sock in flood:
                try:
                    while await sock.recv(4096):
                        pass
                except ConnectionResetError:
                    pass  # closed with our unread bytes in its buffer: a reset
                sock.close()
        await trio.sleep(0.05)
        assert listener.unauthenticated == 0
        nursery.cancel_scope.cancel()
    assert peak <= MAX_UNAUTHENTICATED_PER_HOST + 1  # 127.0.0.2's limit, plus bob's handshake
    assert len(handled) == 1


# --- limits that cannot be used to lock honest peers out --------------------------------------

LONG = TransportConfig(
    handshake_timeout=1.0,
    heartbeat_interval=0.1,
    peer_timeout=5.0,
    connect_timeout=2.0,
    trust_timeout=30.0,
)
"""Fast handshakes, but idle authenticated connections stay (held by heartbeats)."""


@asynccontextmanager
async def listening(
    identity: Identity,
    handler: Callable[[Connection], Awaitable[None]] | None = None,
    **serve_kwargs: Any,
) -> AsyncIterator[Listener]:
    """A listener on 127.0.0.1 whose handler (by default) holds each connection, untrusted."""

    async def hold(conn: Connection) -> None:
        async for _ in conn:
            pass

    async with (
        await open_listener(interface="127.0.0.1", port=0) as listener,
        trio.open_nursery() as nursery,
    ):
        await nursery.start(partial(listener.serve, identity, handler or hold, **serve_kwargs))
        yield listener
        nursery.cancel_scope.cancel()


async def wait_until(predicate: Callable[[], bool], timeout: float = 5.0) -> None:
    with trio.fail_after(timeout):
        while not predicate():
            await trio.sleep(0.01)


async def test_connections_reset_right_after_connect_do_not_end_the_listener(
    alice: Identity, bob: Identity
) -> None:
    """300 connections closed with RST (SO_LINGER 0) as soon as they connect: the accept loop
    finds them gone (getpeername fails) and goes on."""
    async with listening(alice, config=FAST) as listener:
        sources = [clients.source(n) for n in range(1, 11)]
        for ip in sources:
            await trio.to_thread.run_sync(
                partial(clients.reset_burst, listener.port, 30, source_ip=ip)
            )
        async with connect("127.0.0.1", listener.port, bob, expect=alice.public, config=FAST):
            pass
        await wait_until(lambda: listener.unauthenticated == 0)


async def test_an_exception_in_one_handler_closes_only_that_connection(
    alice: Identity, bob: Identity, carol: Identity, caplog: pytest.LogCaptureFixture
) -> None:
    async def handler(conn: Connection) -> None:
        if conn.peer == bob.public:
            raise RuntimeError("a bug in the application")
        conn.trust()
        await conn.send(b"served")
        async for _ in conn:
            pass

    async with listening(alice, handler, config=FAST) as listener:
        async with connect("127.0.0.1", listener.port, bob, expect=None, config=FAST) as c:
            with pytest.raises(ConnectionClosed), trio.fail_after(2):
                await c.receive()
        async with connect("127.0.0.1", listener.port, carol, expect=None, config=FAST) as c:
            assert await c.receive() == Data(b"served")
    failures = [r for r in caplog.records if "a bug in the application" in r.getMessage()]
    assert len(failures) == 1 and failures[0].levelname == "WARNING"
    assert "127.0.0.1" in failures[0].getMessage() and failures[0].exc_info is None


async def test_new_connections_are_rate_limited_per_source(alice: Identity, bob: Identity) -> None:
    """A burst, then a few per second from one source; another source is not affected."""
    async with listening(alice, config=FAST, connection_burst=5, connection_rate=0.5) as listener:
        kept = 0
        socks = []
        for _ in range(20):
            sock = await clients.raw_socket(listener.port, source_ip="127.0.0.2")
            socks.append(sock)
        await trio.sleep(0.2)
        for sock in socks:
            with trio.move_on_after(0.05):
                try:
                    data = await sock.recv(1)
                except ConnectionResetError:
                    data = b""
                if data == b"":
                    continue
            kept += 1  # still open: admitted to its handshake
            sock.close()
        assert kept <= 4  # at most 4 handshakes per source are held at once, 5 admitted
        for sock in socks:
            sock.close()
        async with connect("127.0.0.1", listener.port, bob, expect=None, config=FAST):
            pass


def test_the_rate_limit_treats_an_ipv6_64_as_one_source() -> None:
    now = [0.0]
    limit = SourceRateLimit(rate=1.0, burst=2, clock=lambda: now[0])
    assert limit.allow("[2001:db8:1:2::1]:5000") and limit.allow("[2001:db8:1:2:ffff::9]:6000")
    assert not limit.allow("2001:db8:1:2:abcd::1")  # same /64: the bucket is empty
    assert limit.allow("[2001:db8:1:3::1]:5000")  # the next /64 has its own
    assert limit.allow("10.0.0.1:1") and limit.allow("10.0.0.1:2") and not limit.allow("10.0.0.1")
    assert limit.allow("[::ffff:10.0.0.2]:1")  # an IPv4-mapped address is its IPv4 source
    now[0] = 1.0
    assert limit.allow("2001:db8:1:2:abcd::1") and not limit.allow("2001:db8:1:2::7")


def test_the_rate_limit_remembers_a_bounded_number_of_sources() -> None:
    limit = SourceRateLimit(rate=1.0, burst=1, remember=3, clock=lambda: 0.0)
    for n in range(10):
        assert limit.allow(f"10.0.0.{n}")
    assert len(limit._buckets) == 3


async def test_untrusted_connections_per_source_are_capped_with_a_busy_refusal(
    alice: Identity,
) -> None:
    async with listening(alice, config=LONG) as listener, trio.open_nursery() as nursery:
        opened = trio.Semaphore(0)

        async def stranger(ip: str) -> None:
            async with clients.dial_from(ip, listener.port, Identity.generate(), LONG):
                opened.release()
                await trio.sleep_forever()

        for _ in range(MAX_STRANGERS_PER_SOURCE):
            nursery.start_soon(stranger, "127.0.0.2")
            await opened.acquire()
        await wait_until(lambda: listener.strangers == MAX_STRANGERS_PER_SOURCE)
        with pytest.raises(PeerBusy, match="too many connections from 127.0.0.2"):
            async with clients.dial_from("127.0.0.2", listener.port, Identity.generate(), LONG):
                pass
        async with clients.dial_from("127.0.0.3", listener.port, Identity.generate(), LONG):
            pass  # another source is welcome
        nursery.cancel_scope.cancel()


async def test_the_oldest_stranger_makes_room_and_trusted_ones_stay(alice: Identity) -> None:
    """Strangers from many sources: the total cap closes the oldest, never a trusted peer."""
    trusted_key = Identity.generate()

    async def handler(conn: Connection) -> None:
        if conn.peer == trusted_key.public:
            conn.trust()
        async for _ in conn:
            pass

    closed: list[str] = []
    async with (
        listening(alice, handler, config=LONG, max_strangers=3) as listener,
        trio.open_nursery() as nursery,
    ):

        async def stranger(ip: str, identity: Identity, task_status: trio.TaskStatus[None]) -> None:
            async with clients.dial_from(ip, listener.port, identity, LONG) as conn:
                task_status.started()
                with suppress(ConnectionClosed):
                    await conn.receive()
                closed.append(ip)

        await nursery.start(stranger, "127.0.0.2", trusted_key)
        for n in range(3, 9):
            await nursery.start(stranger, f"127.0.0.{n}", Identity.generate())
            await wait_until(lambda: listener.strangers <= 3)
        await wait_until(lambda: len(closed) == 3)
        assert closed == ["127.0.0.3", "127.0.0.4", "127.0.0.5"]  # oldest first
        assert listener.trusted == 1 and listener.strangers == 3
        nursery.cancel_scope.cancel()


async def test_a_request_held_by_its_handler_is_no_stranger_from_that_moment(
    alice: Identity,
) -> None:
    """A handler that keeps a connection (a join request held for the host's person) takes it
    out of the strangers at once: a flood's newcomer arriving in the same instant makes room
    among the strangers, never by closing the request that was just kept."""
    asker = Identity.generate()
    counted: list[int] = []

    async def handler(conn: Connection) -> None:
        if conn.peer == asker.public:
            conn.hold()
            counted.append(listener.strangers)  # no checkpoint since hold()
        async for _ in conn:
            pass

    async with (
        listening(alice, handler, config=LONG, max_strangers=1) as listener,
        clients.dial_from("127.0.0.2", listener.port, asker, LONG) as held,
    ):
        await wait_until(lambda: bool(counted))
        assert counted == [0]

        pushed_out: list[str] = []

        async def stranger(ip: str) -> None:
            async with clients.dial_from(ip, listener.port, Identity.generate(), LONG) as conn:
                with suppress(ConnectionClosed):
                    await conn.receive()
                pushed_out.append(ip)

        async with trio.open_nursery() as nursery:
            for n in range(3, 7):  # each newcomer pushes an older stranger out
                nursery.start_soon(stranger, f"127.0.0.{n}")
            await wait_until(lambda: len(pushed_out) == 3)
            assert listener.strangers == 1 and listener.trusted == 1
            nursery.cancel_scope.cancel()
        assert not held.closed


async def test_a_request_awaiting_its_handler_is_not_pushed_out_by_newer_strangers(
    alice: Identity,
) -> None:
    """A flood's newcomers arrive while the handler has not yet read an earlier stranger's
    request (a busy host): they push each other out, and the request waits for its answer."""
    asker = Identity.generate()
    turn = trio.Event()
    answered: list[tuple[object, bool]] = []

    async def handler(conn: Connection) -> None:
        if conn.peer == asker.public:
            await turn.wait()  # the handler's turn comes late
            answered.append((await conn.receive(), conn.closed))
        async for _ in conn:
            pass

    pushed_out: list[str] = []

    async with (
        listening(alice, handler, config=LONG, max_strangers=2) as listener,
        clients.dial_from("127.0.0.2", listener.port, asker, LONG) as asking,
    ):
        await asking.send(b"a seat, please")
        pool = listener._strangers
        await wait_until(lambda: any(c.queued[0] for c in pool._members))

        async def stranger(ip: str) -> None:
            async with clients.dial_from(ip, listener.port, Identity.generate(), LONG) as conn:
                with suppress(ConnectionClosed):
                    await conn.receive()
                pushed_out.append(ip)

        async with trio.open_nursery() as nursery:
            for n in range(3, 7):
                nursery.start_soon(stranger, f"127.0.0.{n}")
            await wait_until(lambda: len(pushed_out) == 3)
            turn.set()
            await wait_until(lambda: bool(answered))
            nursery.cancel_scope.cancel()
        assert answered == [(Data(b"a seat, please"), False)]


async def test_a_stranger_not_trusted_in_time_is_closed(alice: Identity, bob: Identity) -> None:
    config = TransportConfig(
        handshake_timeout=1.0, heartbeat_interval=0.1, peer_timeout=2.0, trust_timeout=0.5
    )
    async with (
        listening(alice, config=config) as listener,
        connect("127.0.0.1", listener.port, bob, expect=None, config=config) as c,
    ):
        started = trio.current_time()
        with pytest.raises(ConnectionClosed, match="not trusted within 0.5 s"), trio.fail_after(2):
            await c.receive()
        assert trio.current_time() - started >= 0.4
        await wait_until(lambda: listener.strangers == 0)


async def test_many_silent_handshakes_make_room_for_an_honest_one(
    alice: Identity, bob: Identity
) -> None:
    """Silent connections from 20 sources fill every handshake slot; the oldest one is dropped
    for a newcomer, so an honest peer's handshake (milliseconds) still completes."""
    socks = []
    async with listening(alice, config=LONG, max_unauthenticated=16) as listener:
        for n in range(2, 22):
            for _ in range(MAX_UNAUTHENTICATED_PER_HOST):
                socks.append(await clients.raw_socket(listener.port, source_ip=f"127.0.1.{n}"))
        await wait_until(lambda: listener.unauthenticated == 16)
        with trio.fail_after(1):
            async with connect("127.0.0.1", listener.port, bob, expect=None, config=LONG):
                pass
        assert listener.unauthenticated <= 16
    for sock in socks:
        sock.close()


async def test_a_stranger_queue_is_small_in_bytes_and_trust_lifts_it(
    alice: Identity, bob: Identity, carol: Identity
) -> None:
    """A handler that does not read: a stranger is cut off after `stranger_bytes`, a trusted
    peer may queue up to `receive_bytes`."""
    gate = trio.Event()

    async def handler(conn: Connection) -> None:
        if conn.peer == carol.public:
            conn.trust()
        await gate.wait()

    big = b"\x00" * MAX_DATA_SIZE
    async with listening(alice, handler, config=LONG) as listener:
        async with connect("127.0.0.1", listener.port, bob, expect=None, config=LONG) as c:
            with pytest.raises(ConnectionClosed), trio.fail_after(5):
                for _ in range(64):
                    await c.send(big)
                    await trio.sleep(0.005)
                await c.receive()
        async with connect("127.0.0.1", listener.port, carol, expect=None, config=LONG) as c:
            for _ in range(64):
                await c.send(big)
            await trio.sleep(0.3)
            assert not c.closed
        gate.set()
    assert LONG.stranger_bytes < 64 * MAX_DATA_SIZE <= LONG.receive_bytes


async def test_a_flood_displaces_its_own_strangers_before_a_lone_one(alice: Identity) -> None:
    """At the total cap the largest source loses its oldest stranger: a source holding one
    connection (an honest joiner waiting for its seat) is displaced last, even if oldest."""
    closed: list[str] = []
    async with (
        listening(alice, config=LONG, max_strangers=4) as listener,
        trio.open_nursery() as nursery,
    ):

        async def stranger(ip: str, task_status: trio.TaskStatus[None]) -> None:
            async with clients.dial_from(ip, listener.port, Identity.generate(), LONG) as conn:
                task_status.started()
                with suppress(ConnectionClosed):
                    await conn.receive()
                closed.append(ip)

        await nursery.start(stranger, "127.0.0.9")
        for ip in ["127.0.0.2"] * 4 + ["127.0.0.3"] * 4:
            await nursery.start(stranger, ip)
            await wait_until(lambda: listener.strangers <= 4)
        await wait_until(lambda: len(closed) == 5)
        assert "127.0.0.9" not in closed
        nursery.cancel_scope.cancel()


async def test_a_held_connection_outlives_the_trust_deadline_but_keeps_a_strangers_queue(
    alice: Identity, bob: Identity, carol: Identity
) -> None:
    """A request waiting for the host's person is held (`Connection.hold`): it is not closed at
    the trust deadline nor counted as a stranger, yet what it pushes meanwhile is bounded by the
    stranger's queue; once trusted (seated) it gets the full queue."""
    config = TransportConfig(
        handshake_timeout=1.0, heartbeat_interval=0.1, peer_timeout=2.0, trust_timeout=0.3
    )
    gate = trio.Event()
    held: list[Connection] = []

    async def handler(conn: Connection) -> None:
        conn.hold()
        held.append(conn)
        if conn.peer == carol.public:
            conn.trust()  # seated: the full queue from now on
        await gate.wait()

    big = b"\x00" * MAX_DATA_SIZE
    async with listening(alice, handler, config=config) as listener:
        async with connect("127.0.0.1", listener.port, bob, expect=None, config=config) as c:
            await wait_until(lambda: len(held) == 1)
            assert held[0].held and not held[0].trusted
            await trio.sleep(0.6)  # twice the trust deadline: a stranger would be closed by now
            assert not held[0].closed and listener.strangers == 0
            with pytest.raises(ConnectionClosed), trio.fail_after(5):
                for _ in range(64):
                    await c.send(big)
                    await trio.sleep(0.005)
                await c.receive()
            assert held[0].close_reason is not None
            assert "untrusted: more than" in held[0].close_reason
        async with connect("127.0.0.1", listener.port, carol, expect=None, config=config) as c:
            for _ in range(64):
                await c.send(big)
            await trio.sleep(0.3)
            assert not c.closed
        gate.set()
    assert config.stranger_bytes < 64 * MAX_DATA_SIZE <= config.receive_bytes
