"""The listener: default port, fallback, interface binding, dual stack, and connection floods."""

from __future__ import annotations

import json
import socket
import subprocess

import pytest
import trio

from p2p_dominoes.net import (
    DEFAULT_PORT,
    Connection,
    Data,
    connect,
    open_listener,
)
from p2p_dominoes.session import Identity
from tests.net.conftest import FAST
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
    """600 connections from 127.0.0.2 (idle, garbage, half frames) while bob connects."""
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
    assert peak <= 8 + 1  # per-host limit for 127.0.0.2, plus bob's own handshake
    assert len(handled) == 1
