"""The peer's one TCP listener: dual-stack, a fixed default port, and flood limits.

One socket serves IPv4 and IPv6 (``IPV6_V6ONLY=0``) so that the single port advertised over
mDNS is right for both families (two sockets bound to port 0 get *different* ports). The default
port is fixed so that users can type it and allow it in a firewall; when it is taken we fall
back to a free port. Inbound connections need no mDNS record: whoever completes the handshake
(and passes ``authorize``) is handed to the application. Unauthenticated connections are
capped in total and per source address, and each has the handshake timeout to finish, so a
flood costs a bounded number of sockets and cannot starve other hosts.
"""

from __future__ import annotations

import contextlib
import errno
import ipaddress
import logging
import socket
from collections import Counter
from collections.abc import Callable
from typing import Final

import trio

from p2p_dominoes.net.connection import (
    DEFAULT_CONFIG,
    Authorizer,
    Connection,
    ConnectionHandler,
    TransportConfig,
    _accept,
    _running,
    format_address,
)
from p2p_dominoes.net.errors import ConnectionClosed, HandshakeError
from p2p_dominoes.session.identity import Identity, PublicIdentity

log = logging.getLogger("p2p_dominoes.net")

DEFAULT_PORT: Final = 47800
"""The TCP port a peer listens on unless told otherwise (falls back to a free one if taken)."""
MAX_UNAUTHENTICATED: Final = 32
MAX_UNAUTHENTICATED_PER_HOST: Final = 8
MAX_CONNECTIONS: Final = 32

RejectHook = Callable[[str, str], None]
"""Called with (remote address, reason) whenever an inbound connection is turned away."""

_ACCEPT_RETRY_ERRNOS: Final = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOMEM, errno.ENOBUFS})


def _host_key(remote: str) -> str:
    """The address part of ``host:port`` / ``[v6]:port`` (the unit of the per-host limit)."""
    host = remote.rsplit(":", 1)[0]
    return host.strip("[]")


def _bind_targets(interface: str | None) -> list[tuple[socket.AddressFamily, str]]:
    if interface is None:
        return [(socket.AF_INET6, "::"), (socket.AF_INET, "0.0.0.0")]  # noqa: S104 (wanted)
    try:
        ip = ipaddress.ip_address(interface)
    except ValueError:
        raise ValueError(f"interface must be an IP address, not {interface!r}") from None
    family = socket.AF_INET6 if ip.version == 6 else socket.AF_INET
    return [(family, str(ip))]


async def _bind(
    family: socket.AddressFamily, host: str, port: int, *, fallback: bool, backlog: int
) -> trio.socket.SocketType:
    sock = trio.socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if family == socket.AF_INET6 and host == "::":
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
        try:
            await sock.bind((host, port))
        except OSError as exc:
            if not (fallback and port != 0 and exc.errno == errno.EADDRINUSE):
                raise
            log.info("port %d is taken on %s; listening on a free port instead", port, host)
            await sock.bind((host, 0))
        sock.listen(backlog)
    except BaseException:
        sock.close()
        raise
    return sock


async def open_listener(
    *,
    interface: str | None = None,
    port: int = DEFAULT_PORT,
    fallback: bool = True,
    backlog: int = 128,
) -> Listener:
    """Bind the peer's listener.

    ``interface=None`` binds every address with one dual-stack socket (IPv4-only if the host
    has no IPv6); an address binds only that address (``--interface ADDR``). With ``fallback``
    a taken ``port`` is replaced by a free one (read :attr:`Listener.port`); without it the
    OSError is raised.
    """
    if type(port) is not int or not 0 <= port <= 65535:
        raise ValueError("port must be an int in 0..65535")
    last_error: OSError | None = None
    for family, host in _bind_targets(interface):
        try:
            sock = await _bind(family, host, port, fallback=fallback, backlog=backlog)
        except OSError as exc:
            if (
                interface is None
                and family == socket.AF_INET6
                and exc.errno
                in (
                    errno.EAFNOSUPPORT,
                    errno.EADDRNOTAVAIL,
                )
            ):
                last_error = exc
                continue  # no IPv6 on this host: IPv4 only
            raise
        return Listener(sock, interface=interface)
    assert last_error is not None
    raise last_error


class Listener:
    """A bound, listening socket; :meth:`serve` authenticates and hands out connections."""

    def __init__(self, sock: trio.socket.SocketType, *, interface: str | None) -> None:
        self._socket_listener = trio.SocketListener(sock)
        name = sock.getsockname()
        self.host: str = str(name[0])
        self.port: int = int(name[1])
        self.interface = interface
        self.dual_stack = sock.family == socket.AF_INET6 and not sock.getsockopt(
            socket.IPPROTO_IPV6, socket.IPV6_V6ONLY
        )
        self._unauthenticated = 0
        self._per_host: Counter[str] = Counter()
        self._connections = 0

    def __repr__(self) -> str:
        return f"Listener({format_address((self.host, self.port))})"

    async def aclose(self) -> None:
        """Stop listening (connections already handed out are not touched)."""
        await self._socket_listener.aclose()

    async def __aenter__(self) -> Listener:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    @property
    def unauthenticated(self) -> int:
        """How many accepted connections are still in their handshake (for tests and UIs)."""
        return self._unauthenticated

    async def serve(
        self,
        identity: Identity,
        handler: ConnectionHandler,
        *,
        authorize: Authorizer | None = None,
        config: TransportConfig = DEFAULT_CONFIG,
        on_reject: RejectHook | None = None,
        max_unauthenticated: int = MAX_UNAUTHENTICATED,
        max_per_host: int = MAX_UNAUTHENTICATED_PER_HOST,
        max_connections: int = MAX_CONNECTIONS,
        task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED,
    ) -> None:
        """Accept until cancelled; run ``handler(conn)`` for each authenticated peer.

        ``authorize`` sees the peer's key after its hello and may refuse with a reason (sent to
        the peer, logged, and passed to ``on_reject``). ``handler`` exceptions propagate (a
        ConnectionClosed from it just ends that connection).
        """
        async with trio.open_nursery() as nursery:
            task_status.started()
            while True:
                try:
                    stream = await self._socket_listener.accept()
                except OSError as exc:
                    if exc.errno in _ACCEPT_RETRY_ERRNOS:
                        log.warning("accept failed (%s); pausing", exc)
                        await trio.sleep(0.1)
                        continue
                    raise
                remote = format_address(stream.socket.getpeername())
                host = _host_key(remote)
                if (
                    self._unauthenticated >= max_unauthenticated
                    or self._per_host[host] >= max_per_host
                ):
                    log.debug("turned away %s: too many handshakes in progress", remote)
                    await trio.aclose_forcefully(stream)
                    continue
                self._unauthenticated += 1
                self._per_host[host] += 1
                nursery.start_soon(
                    self._handle,
                    stream,
                    remote,
                    host,
                    identity,
                    handler,
                    authorize,
                    config,
                    on_reject,
                    max_connections,
                )

    async def _handle(
        self,
        stream: trio.SocketStream,
        remote: str,
        host: str,
        identity: Identity,
        handler: ConnectionHandler,
        authorize: Authorizer | None,
        config: TransportConfig,
        on_reject: RejectHook | None,
        max_connections: int,
    ) -> None:
        def check(peer: PublicIdentity) -> str | None:
            if self._connections >= max_connections:
                return f"too many connections ({max_connections})"
            return authorize(peer) if authorize is not None else None

        try:
            connection: Connection = await _accept(stream, identity, authorize=check, config=config)
        except HandshakeError as exc:
            log.warning("refused inbound connection from %s: %s", remote, exc)
            if on_reject is not None:
                on_reject(remote, str(exc))
            await trio.aclose_forcefully(stream)
            return
        except BaseException:
            await trio.aclose_forcefully(stream)
            raise
        finally:
            self._unauthenticated -= 1
            self._per_host[host] -= 1
            if self._per_host[host] <= 0:
                del self._per_host[host]
        self._connections += 1
        try:
            async with _running(connection):
                with contextlib.suppress(ConnectionClosed):
                    await handler(connection)
        finally:
            self._connections -= 1
