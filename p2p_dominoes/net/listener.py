"""The peer's one TCP listener: dual-stack, a fixed default port, and flood limits.

One socket serves IPv4 and IPv6 (``IPV6_V6ONLY=0``) so that the single port advertised over
mDNS is right for both families (two sockets bound to port 0 get *different* ports). The default
port is fixed so that users can type it and allow it in a firewall; when it is taken we fall
back to a free port. Inbound connections need no mDNS record: whoever completes the handshake
(and passes ``authorize``) is handed to the application.

Nothing a stranger sends ends the listener: each connection runs in its own task that catches
and logs its own failures. Limits are per *source* (an IPv4 address, an IPv6 /64) so that one
machine cannot lock others out, and total so that many cannot exhaust memory:

- new connections: a token bucket per source (a burst, then a few per second);
- handshakes in progress: a few per source, a total cap, and a short deadline; when the total
  is reached the oldest handshake of the source holding the most makes room (an honest
  handshake takes milliseconds, and one source holding one slot is displaced last);
- authenticated strangers (not yet :meth:`Connection.trust`-ed by the application): a small
  receive queue, a few per source (more are told ``busy``), a total cap where the oldest
  stranger of the largest source makes room, and a deadline to be trusted;
- trusted (or held, :meth:`Connection.hold`) connections: a total cap (more are told
  ``busy``); a held one keeps a stranger's receive queue.
"""

from __future__ import annotations

import errno
import ipaddress
import logging
import socket
from collections import Counter, OrderedDict
from collections.abc import Callable
from contextlib import suppress
from functools import partial
from typing import Final, Generic, TypeVar

import trio

from p2p_dominoes.net.connection import (
    DEFAULT_CONFIG,
    Authorizer,
    Connection,
    ConnectionHandler,
    Refusal,
    TransportConfig,
    _accept,
    _running,
    format_address,
)
from p2p_dominoes.net.errors import ConnectionClosed, HandshakeError
from p2p_dominoes.net.framing import BYE_BUSY
from p2p_dominoes.net.strangers import SourceRateLimit, StrangerLog, source_of
from p2p_dominoes.session.identity import Identity, PublicIdentity

log = logging.getLogger("p2p_dominoes.net")

DEFAULT_PORT: Final = 47800
"""The TCP port a peer listens on unless told otherwise (falls back to a free one if taken)."""
MAX_UNAUTHENTICATED: Final = 64
"""Handshakes in progress at a time; at the cap one of the largest source's is dropped."""
MAX_UNAUTHENTICATED_PER_HOST: Final = 4
"""Handshakes in progress from one source (IPv4 address or IPv6 /64); more are closed at once."""
MAX_STRANGERS: Final = 32
"""Authenticated connections not yet trusted; at the cap one of the largest source's is closed
(a stranger whose request awaits its handler last). Each holds at most a stranger's queue
(``TransportConfig.stranger_bytes``), so all of them at most 16 MiB."""
MAX_STRANGERS_PER_SOURCE: Final = 4
"""Authenticated, untrusted connections from one source; more are refused ``busy``."""
MAX_CONNECTIONS: Final = 32
"""Trusted connections (seated peers); more are refused ``busy``."""
CONNECTION_RATE: Final = 2.0
"""New connections per second per source, after a burst of ``CONNECTION_BURST``."""
CONNECTION_BURST: Final = 12

RejectHook = Callable[[str, str], None]
"""Called with (remote address, reason) whenever an inbound connection is turned away."""

CLOSED_STRANGER_GRACE: Final = 1.0
"""Seconds a handler may run on after its untrusted connection closed; then it is cancelled."""
_ACCEPT_PAUSE: Final = 0.1

_T = TypeVar("_T")


class _SourcePool(Generic[_T]):
    """Members in arrival order (the oldest first), counted per source."""

    def __init__(self) -> None:
        self._members: OrderedDict[_T, str] = OrderedDict()
        self._per_source: Counter[str] = Counter()

    def __len__(self) -> int:
        return len(self._members)

    def __contains__(self, item: object) -> bool:
        return item in self._members

    def add(self, item: _T, source: str) -> None:
        self._members[item] = source
        self._per_source[source] += 1

    def discard(self, item: _T) -> bool:
        """Remove ``item``; True if it was a member."""
        source = self._members.pop(item, None)
        if source is None:
            return False
        self._per_source[source] -= 1
        if self._per_source[source] <= 0:
            del self._per_source[source]
        return True

    def count(self, source: str) -> int:
        return self._per_source.get(source, 0)

    def to_evict(
        self, *, besides: object = None, spare: Callable[[_T], bool] = lambda item: False
    ) -> _T | None:
        """The oldest member of the source that holds the most, or None; never ``besides`` nor
        a member ``spare`` says to spare (they still count for their source).

        Taking from the largest source first means a flood from many addresses displaces
        its own connections before it displaces a source that holds one (an honest peer).
        """
        candidates = [
            (item, source)
            for item, source in self._members.items()
            if item is not besides and not spare(item)
        ]
        if not candidates:
            return None
        counts = Counter(source for item, source in self._members.items() if item is not besides)
        largest = max(counts[source] for _, source in candidates)
        return next(item for item, source in candidates if counts[source] == largest)


def _awaits_its_turn(stranger: Connection) -> bool:
    """Whether a message of ``stranger``'s waits for its handler (a join request, say): the
    handler decides within a moment, and a newcomer must not push it out before."""
    return not stranger.closed and stranger.queued[0] > 0


def _describe_failure(exc: BaseException) -> str:
    """One line for an unexpected exception (the first leaf of a group)."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


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
    """A bound, listening socket; :meth:`serve` authenticates and hands out connections.

    Every connection it hands out starts as a *stranger*; the application lifts one that it
    keeps (a seated player) with :meth:`Connection.trust`.
    """

    def __init__(self, sock: trio.socket.SocketType, *, interface: str | None) -> None:
        self._socket_listener = trio.SocketListener(sock)
        name = sock.getsockname()
        self.host: str = str(name[0])
        self.port: int = int(name[1])
        self.interface = interface
        self.dual_stack = sock.family == socket.AF_INET6 and not sock.getsockopt(
            socket.IPPROTO_IPV6, socket.IPV6_V6ONLY
        )
        self._handshakes: _SourcePool[trio.CancelScope] = _SourcePool()
        self._strangers: _SourcePool[Connection] = _SourcePool()
        self._trusted: set[Connection] = set()
        # A source is named once a minute by the whole process (the log says how many lines
        # about it were held back when it names it again).
        self._strangers_log = StrangerLog(log)

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
        return len(self._handshakes)

    @property
    def strangers(self) -> int:
        """How many authenticated connections the application has not trusted yet."""
        return len(self._strangers)

    @property
    def trusted(self) -> int:
        """How many open connections the application trusts."""
        return sum(1 for connection in self._trusted if not connection.closed)

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
        max_strangers: int = MAX_STRANGERS,
        max_strangers_per_source: int = MAX_STRANGERS_PER_SOURCE,
        max_connections: int = MAX_CONNECTIONS,
        connection_rate: float = CONNECTION_RATE,
        connection_burst: int = CONNECTION_BURST,
        task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED,
    ) -> None:
        """Accept until cancelled; run ``handler(conn)`` for each authenticated peer.

        ``authorize`` sees the peer's key after its hello and may refuse with a reason (sent to
        the peer, logged, and passed to ``on_reject``). Each connection starts as a stranger:
        the handler calls ``conn.trust()`` to keep it past ``config.trust_timeout`` and out of
        the stranger limits; a handler whose connection closes untrusted is cancelled
        ``CLOSED_STRANGER_GRACE`` seconds later (so that a cut-off stranger holds nothing).
        An exception from ``handler`` closes that connection only and is logged (a
        ConnectionClosed from it just ends that connection); nothing from the network ends
        ``serve``.
        """
        limits = _Limits(
            max_unauthenticated,
            max_per_host,
            max_strangers,
            max_strangers_per_source,
            max_connections,
        )
        rate = SourceRateLimit(rate=connection_rate, burst=connection_burst)
        async with trio.open_nursery() as nursery:
            task_status.started()
            while True:
                try:
                    stream = await self._socket_listener.accept()
                except OSError as exc:
                    log.warning("accept failed (%s); pausing", exc.strerror or exc)
                    await trio.sleep(_ACCEPT_PAUSE)
                    continue
                try:
                    remote = format_address(stream.socket.getpeername())
                except OSError:  # reset before we looked: nothing to serve
                    await trio.aclose_forcefully(stream)
                    continue
                try:
                    scope = self._admit(remote, rate, limits)
                except Exception as exc:  # a bug here must not end the listener
                    log.warning("turned away %s: %s", remote, _describe_failure(exc))
                    log.debug("admission failed", exc_info=True)
                    scope = None
                if scope is None:
                    await trio.aclose_forcefully(stream)
                    continue
                nursery.start_soon(
                    self._handle,
                    stream,
                    remote,
                    scope,
                    _Serving(identity, handler, authorize, config, on_reject, limits),
                )

    def _admit(
        self, remote: str, rate: SourceRateLimit, limits: _Limits
    ) -> trio.CancelScope | None:
        """A handshake slot for a new connection from ``remote``, or None to turn it away."""
        source = source_of(remote)
        if not rate.allow(remote):
            self._strangers_log.warn(remote, "turned away: too many new connections")
            return None
        if self._handshakes.count(source) >= limits.handshakes_per_source:
            self._strangers_log.warn(remote, "turned away: too many handshakes in progress")
            return None
        while len(self._handshakes) >= limits.handshakes:
            victim = self._handshakes.to_evict()
            if victim is None:
                break
            self._handshakes.discard(victim)
            victim.cancel()  # the largest source's slowest handshake makes room for this one
        scope = trio.CancelScope()
        self._handshakes.add(scope, source)
        return scope

    async def _handle(
        self, stream: trio.SocketStream, remote: str, scope: trio.CancelScope, serving: _Serving
    ) -> None:
        """One inbound connection, start to end; its failures end it and nothing else."""
        source = source_of(remote)
        limits = serving.limits

        def check(peer: PublicIdentity) -> str | Refusal | None:
            if serving.authorize is not None:
                refusal = serving.authorize(peer)
                if refusal is not None:
                    return refusal
            if self._strangers.count(source) >= limits.strangers_per_source:
                return Refusal(f"too many connections from {source}", BYE_BUSY)
            if self.trusted >= limits.connections:
                return Refusal(f"too many connections ({limits.connections})", BYE_BUSY)
            return None

        try:
            connection: Connection | None = None
            try:
                with scope:
                    connection = await _accept(
                        stream,
                        serving.identity,
                        authorize=check,
                        config=serving.config,
                        remote_address=remote,
                    )
            except HandshakeError as exc:
                self._strangers_log.warn(remote, f"refused inbound connection: {exc}")
                if serving.on_reject is not None:
                    serving.on_reject(remote, str(exc))
                return
            finally:
                self._handshakes.discard(scope)
            if connection is None:
                log.debug("dropped the handshake of %s to make room", remote)
                return
            await self._serve_connection(connection, source, serving)
        except Exception as exc:
            self._strangers_log.warn(remote, f"connection failed: {_describe_failure(exc)}")
            log.debug("connection from %s failed", remote, exc_info=True)
        finally:
            await trio.aclose_forcefully(stream)

    async def _serve_connection(
        self, connection: Connection, source: str, serving: _Serving
    ) -> None:
        self._strangers.add(connection, source)
        connection._on_kept = partial(self._keep, connection)
        try:
            self._make_room(connection, serving.limits)
            async with _running(connection), trio.open_nursery() as nursery:
                nursery.start_soon(
                    self._watch_stranger,
                    connection,
                    serving.config.trust_timeout,
                    nursery.cancel_scope,
                )
                try:
                    with suppress(ConnectionClosed):
                        await serving.handler(connection)
                finally:
                    nursery.cancel_scope.cancel()
        finally:
            self._strangers.discard(connection)
            self._trusted.discard(connection)

    def _keep(self, connection: Connection) -> None:
        """The application kept ``connection`` (trusted or held): it is no stranger now."""
        self._strangers.discard(connection)
        self._trusted.add(connection)

    def _make_room(self, newcomer: Connection, limits: _Limits) -> None:
        """Close the oldest strangers while there are too many: never a kept connection, and a
        stranger whose message awaits its handler (a join request the host is about to read)
        only when every other stranger's does too."""
        while len(self._strangers) > limits.strangers:
            oldest = self._strangers.to_evict(
                besides=newcomer, spare=_awaits_its_turn
            ) or self._strangers.to_evict(besides=newcomer)
            if oldest is None:
                return
            self._strangers.discard(oldest)
            self._strangers_log.warn(
                oldest.remote_address, "untrusted connection closed to make room for newer ones"
            )
            oldest._close_now("closed to make room for newer connections")

    async def _watch_stranger(
        self, connection: Connection, timeout: float, handler_scope: trio.CancelScope
    ) -> None:
        """Until the application trusts ``connection``: close it if that takes too long, and
        end its handler when it closes untrusted."""
        with trio.move_on_after(timeout):
            await connection._settled.wait()
        self._strangers.discard(connection)
        if connection.trusted or connection.held:  # held: counted with the kept connections
            self._trusted.add(connection)
            return
        if not connection.closed:
            self._strangers_log.warn(
                connection.remote_address, f"not trusted within {timeout:g} s; closed"
            )
            await connection.aclose(f"not trusted within {timeout:g} s")
        # The handler learns of the close from receive(); one that lingers past a short grace
        # would let a stranger pile up tasks and queued bytes, so it is ended.
        await trio.sleep(CLOSED_STRANGER_GRACE)
        handler_scope.cancel()


class _Limits:
    """The caps one :meth:`Listener.serve` call enforces."""

    __slots__ = (
        "connections",
        "handshakes",
        "handshakes_per_source",
        "strangers",
        "strangers_per_source",
    )

    def __init__(
        self,
        handshakes: int,
        handshakes_per_source: int,
        strangers: int,
        strangers_per_source: int,
        connections: int,
    ) -> None:
        for value in (handshakes, handshakes_per_source, strangers, strangers_per_source):
            if type(value) is not int or value < 1:
                raise ValueError("listener limits must be positive ints")
        if type(connections) is not int or connections < 1:
            raise ValueError("listener limits must be positive ints")
        self.handshakes = handshakes
        self.handshakes_per_source = handshakes_per_source
        self.strangers = strangers
        self.strangers_per_source = strangers_per_source
        self.connections = connections


class _Serving:
    """What every connection of one :meth:`Listener.serve` call needs."""

    __slots__ = ("authorize", "config", "handler", "identity", "limits", "on_reject")

    def __init__(
        self,
        identity: Identity,
        handler: ConnectionHandler,
        authorize: Authorizer | None,
        config: TransportConfig,
        on_reject: RejectHook | None,
        limits: _Limits,
    ) -> None:
        self.identity = identity
        self.handler = handler
        self.authorize = authorize
        self.config = config
        self.on_reject = on_reject
        self.limits = limits
