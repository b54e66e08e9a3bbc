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

from p2p_dominoes.net import Connection, TransportConfig
from p2p_dominoes.net.connection import _handshake, _running
from p2p_dominoes.session import Identity


def source(n: int) -> str:
    """The loopback address 127.0.N//250.N%250+1: a distinct source for each n."""
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
        session = await _handshake(
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
