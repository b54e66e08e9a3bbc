"""Hostile clients for the transport tests: connections from a chosen loopback source address.

Linux routes all of 127.0.0.0/8 to loopback, so a socket bound to 127.0.0.N before it connects
is a different source (an IPv4 address is one source for the listener's limits). These helpers
open raw sockets, reset connections, and do the real handshake from such an address.
"""

from __future__ import annotations

import socket
import struct
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import trio

from p2p_dominoes.net import MAX_DATA_SIZE, Connection, NetError, TransportConfig
from p2p_dominoes.net.connection import _running
from p2p_dominoes.net.handshake import handshake
from p2p_dominoes.session import Identity


def source(n: int) -> str:
    """A distinct loopback source for each n ≥ 1 (127.0.x.y); never 127.0.0.1, where the honest
    peers of a test are (sharing their source would be sharing their machine)."""
    if n < 1:
        raise ValueError("source numbers start at 1 (127.0.0.1 is the honest peers')")
    return f"127.0.{n // 250}.{n % 250 + 1}"


async def raw_socket(port: int, *, source_ip: str = "127.0.0.1") -> trio.socket.SocketType:
    """A TCP connection to 127.0.0.1:`port` from `source_ip` (the caller closes it)."""
    sock = trio.socket.socket()
    try:
        await sock.bind((source_ip, 0))
        await sock.connect(("127.0.0.1", port))
    except BaseException:
        sock.close()
        raise
    return sock


def reset_burst(port: int, count: int, *, source_ip: str = "127.0.0.1") -> int:
    """Open `count` connections and close each with a reset (SO_LINGER 0) right after connect.

    Returns how many connected (a listener under a flood may drop SYNs; the rest still count).
    """
    connected = 0
    linger = struct.pack("ii", 1, 0)
    for _ in range(count):
        sock = socket.socket()
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, linger)
            sock.bind((source_ip, 0))
            sock.settimeout(2)
            sock.connect(("127.0.0.1", port))
            connected += 1
        except OSError:
            pass
        finally:
            sock.close()
    return connected


@asynccontextmanager
async def dial_from(
    source_ip: str, port: int, identity: Identity, config: TransportConfig
) -> AsyncIterator[Connection]:
    """Like `connect(expect=None)`, from `source_ip`: an authenticated, running connection."""
    sock = await raw_socket(port, source_ip=source_ip)
    stream = trio.SocketStream(sock)
    try:
        session = await handshake(
            stream,
            identity,
            initiator=True,
            expect=None,
            authorize=None,
            timeout=config.handshake_timeout,
        )
    except BaseException:
        await trio.aclose_forcefully(stream)
        raise
    connection = Connection(
        stream,
        session,
        local=identity.public,
        initiator=True,
        remote_address=f"127.0.0.1:{port}",
        config=config,
    )
    async with _running(connection):
        yield connection


class SlotAttack:
    """Keep every slot a listener gives a source busy, from many sources, until stopped.

    Per source: `silent` TCP connections that never say hello (handshake slots) and
    `strangers` authenticated connections with fresh keys that never say anything (stranger
    slots), each re-opened as soon as it is closed or refused. Counts what it managed.
    """

    def __init__(self, port: int, sources: list[str], *, silent: int, strangers: int) -> None:
        self.port = port
        self.sources = sources
        self.silent = silent
        self.strangers = strangers
        self.opened = 0
        self.authenticated = 0
        self.failed = 0
        self.stop = trio.Event()
        self.config = TransportConfig(handshake_timeout=3.0, peer_timeout=5.0)

    async def run(self) -> None:
        async with trio.open_nursery() as nursery:
            for ip in self.sources:
                for _ in range(self.silent):
                    nursery.start_soon(self._silent, ip)
                for _ in range(self.strangers):
                    nursery.start_soon(self._stranger, ip)
            await self.stop.wait()
            nursery.cancel_scope.cancel()

    async def _silent(self, ip: str) -> None:
        while True:
            try:
                sock = await raw_socket(self.port, source_ip=ip)
            except OSError:
                self.failed += 1
                await trio.sleep(0.1)
                continue
            self.opened += 1
            with sock:
                try:
                    while await sock.recv(4096):
                        pass
                except OSError:
                    pass
            await trio.sleep(0.02)

    async def _stranger(self, ip: str) -> None:
        while True:
            try:
                async with dial_from(ip, self.port, Identity.generate(), self.config) as conn:
                    self.authenticated += 1
                    async for _ in conn:
                        pass
            except* (OSError, NetError):  # also when it races with the stop (a group)
                self.failed += 1
                await trio.sleep(0.1)
            await trio.sleep(0.02)


class Pusher:
    """Authenticated strangers that push full-size messages as fast as the victim takes them,
    from many sources, reconnecting whenever they are cut off; counts the bytes sent."""

    def __init__(self, port: int, sources: list[str], *, per_source: int) -> None:
        self.port = port
        self.sources = sources
        self.per_source = per_source
        self.sent = 0
        self.connections = 0
        self.stop = trio.Event()
        self.config = TransportConfig(handshake_timeout=3.0, peer_timeout=5.0)

    async def run(self) -> None:
        async with trio.open_nursery() as nursery:
            for ip in self.sources:
                for _ in range(self.per_source):
                    nursery.start_soon(self._push, ip)
            await self.stop.wait()
            nursery.cancel_scope.cancel()

    async def _push(self, ip: str) -> None:
        payload = b"\xee" * MAX_DATA_SIZE
        while True:
            try:
                async with dial_from(ip, self.port, Identity.generate(), self.config) as conn:
                    self.connections += 1
                    while True:
                        await conn.send(payload)
                        self.sent += len(payload)
            except* (OSError, NetError):  # also when it races with the stop (a group)
                await trio.sleep(0.05)
