"""Mutually authenticated, encrypted connections between two identities (trio).

A connection is dialed (`connect`) or accepted (`_accept`, for the listener), authenticated by
the handshake (`handshake.py`: a signed Diffie–Hellman, PROTOCOL.md §12), and carries frames
through the record layer (`record_layer.py`: ChaCha20-Poly1305 with a frame counter a
direction). A heartbeat goes out after a second of quiet; five seconds without a valid frame
ends the connection. Nothing here knows about tables or games: ``Data`` payloads are opaque
bytes.
"""

from __future__ import annotations

import ipaddress
import logging
import os
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager, suppress
from typing import Final

import trio

from p2p_dominoes.net._util import unwrap_single_group
from p2p_dominoes.net.errors import ConnectionClosed, FrameError, NetError
from p2p_dominoes.net.framing import (
    Auth,
    Bye,
    Data,
    Heartbeat,
    Hello,
    Message,
    SyncRequest,
    decode_message,
    encode_message,
)
from p2p_dominoes.net.handshake import (
    AUTH_DOMAIN_INITIATOR,
    AUTH_DOMAIN_RESPONDER,
    BYE_TIMEOUT,
    HANDSHAKE_DOMAIN,
    KEYS_INFO,
    Authorizer,
    Handshaken,
    Refusal,
    derive_keys,
    handshake,
    normalize_fingerprint,
    transcript_hash,
)
from p2p_dominoes.net.record_layer import AEAD_TAG_SIZE
from p2p_dominoes.net.strangers import StrangerLog
from p2p_dominoes.net.transport_config import DEFAULT_CONFIG, TransportConfig
from p2p_dominoes.peer_text import peer_text, quoted
from p2p_dominoes.session.identity import Identity, PublicIdentity
from p2p_dominoes.words import Phrase, phrase

__all__ = [
    "AEAD_TAG_SIZE",
    "AUTH_DOMAIN_INITIATOR",
    "AUTH_DOMAIN_RESPONDER",
    "DEFAULT_CONFIG",
    "HANDSHAKE_DOMAIN",
    "KEYS_INFO",
    "Authorizer",
    "Connection",
    "ConnectionHandler",
    "InboundMessage",
    "Refusal",
    "TransportConfig",
    "connect",
    "derive_keys",
    "format_address",
    "normalize_fingerprint",
    "transcript_hash",
]
"""The connection's public names; the handshake's and the record layer's are re-exported for
the callers that import them from here (`p2p_dominoes.net` re-exports them all)."""

log = logging.getLogger("p2p_dominoes.net")
_PEER_FAULTS: Final = StrangerLog(log)
"""Protocol violations after the handshake: named once per source per minute."""

_DRAIN_TIMEOUT: Final = 1.0
"""Longest the reader goes on once a send failed: what the peer sent before it went (its last
move, a stop notice) is still in the socket and is delivered before the connection ends."""

_LAST_LOOK: Final = 0.25
"""How long the reader still listens, once the peer's silence passed the timeout, before it
names the peer silent. When this process itself did not run for a while (frozen, a closed lid, a
starved machine) the expired deadline can be seen before the frames that wait in the socket — the
peer's heartbeats, its last move, its stop notice: the last look reads them first."""

_MESSAGE_OVERHEAD: Final = 64
"""Bytes a queued message is counted for beyond its payload (its object, roughly)."""


InboundMessage = Data | SyncRequest
"""What :meth:`Connection.receive` hands to the application."""


def format_address(sockaddr: object) -> str:
    """``host:port`` (``[v6]:port``) for a socket address, unmapping IPv4-mapped IPv6."""
    if not isinstance(sockaddr, tuple) or len(sockaddr) < 2:
        return str(sockaddr)
    host, port = str(sockaddr[0]), sockaddr[1]
    try:
        ip = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return f"{host}:{port}"
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return f"{ip.ipv4_mapped}:{port}"
    if isinstance(ip, ipaddress.IPv6Address):
        return f"[{host}]:{port}"
    return f"{host}:{port}"


def _remote_of(stream: trio.abc.Stream) -> str:
    if isinstance(stream, trio.SocketStream):
        try:
            return format_address(stream.socket.getpeername())
        except OSError:
            return "unknown address"
    return "unknown address"


# --- record layer -------------------------------------------------------------------------


class Connection:
    """An authenticated connection to one peer, alive while its ``async with`` block runs.

    ``receive()`` yields the peer's ``Data`` and ``SyncRequest`` messages in order; heartbeats
    and the record layer are handled inside. When the connection ends for any reason
    (peer silent, garbage, bye, reset, local close) ``receive()`` and ``send()`` raise
    :class:`ConnectionClosed` whose reason says which; queued messages are delivered first.
    Create with :func:`connect` or receive from :meth:`Listener.serve`.
    """

    def __init__(
        self,
        stream: trio.abc.Stream,
        session: Handshaken,
        *,
        local: PublicIdentity,
        initiator: bool,
        remote_address: str,
        config: TransportConfig,
        trusted: bool = True,
    ) -> None:
        self._stream = stream
        self._session = session
        self._config = config
        self.local = local
        self.peer = session.peer
        self.initiator = initiator
        self.remote_address = remote_address
        self._send_lock = trio.StrictFIFOLock()
        # Unbounded channel; the reader enforces the message and byte limits itself, since
        # they change when the connection is trusted.
        self._incoming_send, self._incoming_recv = trio.open_memory_channel[InboundMessage](
            float("inf")
        )
        self._queued_bytes = 0
        self._trusted = trusted
        self._held = False
        self._settled = trio.Event()
        """Set once the connection is trusted, held or closed (the listener's stranger slot
        ends)."""
        if trusted:
            self._settled.set()
        self._on_kept: Callable[[], None] | None = None
        """Set by the listener: called the moment the application trusts or holds this
        connection, so that it stops counting as a stranger at once (not when a watcher runs:
        meanwhile a newcomer could have closed it to make room)."""
        self._background_scope = trio.CancelScope()
        self._close_reason: str | None = None
        self._peer_fault = False
        self._draining = False
        self._drain_until = float("inf")
        self._read_scope: trio.CancelScope | None = None
        now = trio.current_time()
        self._last_heard = now
        self._last_sent = now

    def __repr__(self) -> str:
        state = "open" if self._close_reason is None else "closed"
        return f"Connection({self.peer.short_fingerprint} at {self.remote_address}, {state})"

    @property
    def closed(self) -> bool:
        """True once the connection has ended (see :attr:`close_reason`)."""
        return self._close_reason is not None

    @property
    def close_reason(self) -> str | None:
        """Why the connection ended, or None while it is open."""
        return self._close_reason

    @property
    def trusted(self) -> bool:
        """True for a connection we dialed, and for an inbound one after :meth:`trust`."""
        return self._trusted

    def trust(self) -> None:
        """Mark an inbound connection as a peer the application keeps (a seated player).

        It leaves the listener's stranger limits (per-source and total caps, the trust
        deadline) and gets the full receive queue. Call it as soon as the application has
        decided to keep the connection; an untrusted one is closed after the trust deadline,
        or earlier to make room for newer strangers. Idempotent; no effect once closed.
        """
        if self._trusted or self._close_reason is not None:
            return
        self._trusted = True
        self._settled.set()
        if self._on_kept is not None:
            self._on_kept()

    @property
    def held(self) -> bool:
        """True once :meth:`hold` was called (kept, with a stranger's queue)."""
        return self._held

    def hold(self) -> None:
        """Keep an inbound connection the application is not ready to trust yet (a request for
        a seat waiting for the host's person): it leaves the listener's stranger limits and
        the trust deadline like a trusted one, but keeps the stranger's small receive queue
        (``stranger_queue`` messages, ``stranger_bytes`` bytes) until :meth:`trust`, so that
        what it pushes meanwhile is bounded. Idempotent; no effect once trusted or closed."""
        if self._trusted or self._close_reason is not None:
            return
        self._held = True
        self._settled.set()
        if self._on_kept is not None:
            self._on_kept()

    @property
    def queued(self) -> tuple[int, int]:
        """(messages, bytes) received and not yet taken by :meth:`receive`."""
        return self._incoming_send.statistics().current_buffer_used, self._queued_bytes

    # -- application API --

    async def send(self, payload: bytes) -> None:
        """Send one opaque message (at most ``MAX_DATA_SIZE`` bytes)."""
        await self._send_message(Data(payload))

    async def request_sync(self, head: bytes) -> None:
        """Ask the peer for what follows transcript head ``head`` (32 bytes)."""
        await self._send_message(SyncRequest(head))

    async def receive(self) -> InboundMessage:
        """The next message from the peer; ConnectionClosed once it is over and drained."""
        try:
            message = await self._incoming_recv.receive()
        except (trio.EndOfChannel, trio.ClosedResourceError):
            raise self._closed_error() from None
        self._queued_bytes -= _queued_size(message)
        return message

    def __aiter__(self) -> AsyncIterator[InboundMessage]:
        return self._iterate()

    async def _iterate(self) -> AsyncIterator[InboundMessage]:
        """Messages until the connection ends (then the loop simply stops)."""
        while True:
            try:
                yield await self.receive()
            except ConnectionClosed:
                return

    async def aclose(self, reason: str | None = None) -> None:
        """Say bye with ``reason`` ("closed" by default; best effort, bounded) and close.
        Idempotent."""
        if reason is None:
            reason = phrase("net.why.closed")
        if self._close_reason is None:
            self._close_reason = phrase("net.why.closed_locally", reason=reason)
            with (
                trio.CancelScope(shield=True),
                trio.move_on_after(BYE_TIMEOUT),
                suppress(NetError, trio.BrokenResourceError, trio.ClosedResourceError, OSError),
            ):
                await self._write(Bye.of(reason))
            self._finish()
        await trio.aclose_forcefully(self._stream)

    # -- internals --

    def _closed_error(self) -> ConnectionClosed:
        return ConnectionClosed(
            self._close_reason or phrase("net.why.closed"), peer_fault=self._peer_fault
        )

    def _finish(self) -> None:
        self._incoming_send.close()
        self._background_scope.cancel()
        self._settled.set()

    def _close_now(self, reason: str, *, peer_fault: bool = False, drain: bool = False) -> None:
        """End the connection for `reason`; with `drain` (a send failed: the peer went away)
        the read loop first delivers what the peer sent before, for at most _DRAIN_TIMEOUT."""
        if self._close_reason is not None:
            return
        cleaned = peer_text(reason, 400)
        # Our own words stay a phrase (read later in the player's language); a peer's are cleaned.
        reason = reason if isinstance(reason, Phrase) and cleaned == reason else cleaned
        self._close_reason = reason
        self._peer_fault = peer_fault
        if peer_fault:
            _PEER_FAULTS.warn(
                self.remote_address, f"dropped peer {self.peer.fingerprint}: {reason}"
            )
        else:
            log.info(
                "connection to %s at %s ended: %s",
                self.peer.fingerprint,
                self.remote_address,
                reason,
            )
        if drain and self._read_scope is not None:
            self._draining = True
            self._drain_until = trio.current_time() + _DRAIN_TIMEOUT
            self._read_scope.deadline = min(self._read_scope.deadline, self._drain_until)
            return  # the read loop finishes
        self._finish()

    async def _write(self, message: Message) -> None:
        async with self._send_lock:
            frame = self._session.tx.seal(encode_message(message))
            try:
                with trio.move_on_after(self._config.peer_timeout) as scope:
                    await self._stream.send_all(frame)
            except (trio.BrokenResourceError, OSError) as exc:
                self._close_now(phrase("net.why.lost", error=repr(exc)), drain=True)
                raise
            except BaseException:
                # A frame may be half written: the stream cannot carry another one.
                self._close_now(phrase("net.why.send_interrupted"))
                raise
            if scope.cancelled_caught:
                seconds = f"{self._config.peer_timeout:g}"
                self._close_now(phrase("net.why.peer_not_reading", seconds=seconds))
                raise self._closed_error()
            self._last_sent = trio.current_time()

    async def _send_message(self, message: Message) -> None:
        if self._close_reason is not None:
            raise self._closed_error()
        try:
            await self._write(message)
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError) as exc:
            self._close_now(phrase("net.why.lost", error=repr(exc)))
            raise self._closed_error() from None

    async def _run_background(self) -> None:
        with self._background_scope:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(self._read_loop)
                nursery.start_soon(self._heartbeat_loop)
        await trio.aclose_forcefully(self._stream)

    def _drop_queue(self) -> None:
        while True:
            try:
                self._incoming_recv.receive_nowait()
            except (trio.WouldBlock, trio.EndOfChannel, trio.ClosedResourceError):
                break
        self._queued_bytes = 0

    def _overflow(self, message: InboundMessage) -> str | None:
        """Why queueing ``message`` would pass this connection's limits, or None."""
        config = self._config
        if self._trusted:
            most, most_bytes = config.receive_queue, config.receive_bytes
        else:
            most, most_bytes = config.stranger_queue, config.stranger_bytes
        messages, size = self.queued
        if messages + 1 > most:
            why = phrase("net.why.too_many_messages", most=most)
        elif size + _queued_size(message) > most_bytes:
            why = phrase("net.why.too_many_bytes", most=most_bytes)
        else:
            return None
        return why if self._trusted else phrase("net.why.untrusted", reason=why)

    async def _heartbeat_loop(self) -> None:
        interval = self._config.heartbeat_interval
        while True:
            await trio.sleep_until(self._last_sent + interval)
            if trio.current_time() >= self._last_sent + interval:
                try:
                    await self._send_message(Heartbeat())
                except ConnectionClosed:
                    return

    async def _read_loop(self) -> None:
        try:
            await self._read_frames()
        finally:
            if self._draining:  # a send failed meanwhile: what was readable is delivered
                self._finish()

    async def _read_frames(self) -> None:
        timeout = self._config.peer_timeout
        reader = self._session.reader
        try:
            while True:
                frame: bytes | None = None
                with trio.move_on_at(min(self._last_heard + timeout, self._drain_until)) as scope:
                    self._read_scope = scope
                    frame = await reader.next()
                if scope.cancelled_caught and not self._draining:
                    with trio.move_on_after(_LAST_LOOK) as scope:
                        self._read_scope = scope
                        frame = await reader.next()
                self._read_scope = None
                if scope.cancelled_caught:
                    self._close_now(phrase("net.why.peer_silent", seconds=f"{timeout:g}"))
                    return
                if frame is None:
                    self._close_now(phrase("net.why.no_bye"))
                    return
                message = decode_message(self._session.rx.open(frame))
                self._last_heard = trio.current_time()
                if isinstance(message, Bye):
                    self._close_now(phrase("net.why.peer_bye", reason=quoted(message.reason, 200)))
                    return
                if isinstance(message, Heartbeat):
                    continue
                if isinstance(message, Hello | Auth):
                    kind = type(message).__name__.lower()
                    raise FrameError(phrase("net.why.after_handshake", kind=kind))
                # Never wait for the application here: reading must go on so that heartbeats
                # are seen (and the peer's writes do not stall). A full queue ends the link.
                overflow = self._overflow(message)
                if overflow is not None:
                    if not self._trusted:
                        self._drop_queue()  # a flooding stranger's messages are not read
                    self._close_now(overflow)
                    return
                self._queued_bytes += _queued_size(message)
                self._incoming_send.send_nowait(message)
        except FrameError as exc:
            self._close_now(phrase("net.why.protocol_violation", error=exc), peer_fault=True)
        except (trio.BrokenResourceError, OSError) as exc:
            self._close_now(phrase("net.why.lost", error=repr(exc)))
        except trio.ClosedResourceError:
            self._close_now(phrase("net.why.closed"))


def _queued_size(message: InboundMessage) -> int:
    body = message.payload if isinstance(message, Data) else message.head
    return len(body) + _MESSAGE_OVERHEAD


@asynccontextmanager
async def _running(connection: Connection) -> AsyncIterator[Connection]:
    """Run the connection's reader and heartbeats around the caller's block; close after it."""
    with unwrap_single_group():
        async with trio.open_nursery() as nursery:
            nursery.start_soon(connection._run_background)
            try:
                yield connection
            finally:
                with trio.CancelScope(shield=True):
                    await connection.aclose("done")


def _connect_failure(exc: OSError) -> str:
    """What went wrong with one address, in a few words (trio groups its attempts' errors)."""
    cause: BaseException | None = exc
    while isinstance(cause, BaseExceptionGroup) or (
        isinstance(cause, OSError) and cause.strerror is None and cause.__cause__ is not None
    ):
        cause = cause.exceptions[0] if isinstance(cause, BaseExceptionGroup) else cause.__cause__
    if isinstance(cause, OSError) and cause.errno is not None and cause.errno > 0:
        text = os.strerror(cause.errno)
        return text[:1].lower() + text[1:]
    return str(exc)


async def _open_stream(addresses: Sequence[str], port: int, timeout: float) -> trio.SocketStream:
    errors: list[str] = []
    for host in addresses:
        try:
            with trio.fail_after(timeout):
                return await trio.open_tcp_stream(host, port)
        except trio.TooSlowError:
            errors.append(f"{host}: timed out after {timeout:g} s")
        except OSError as exc:
            errors.append(f"{host}: {_connect_failure(exc)}")
    raise OSError(f"could not connect to port {port}: " + "; ".join(errors))


@asynccontextmanager
async def connect(
    host: str | Sequence[str],
    port: int,
    identity: Identity,
    *,
    expect: PublicIdentity | str | None,
    config: TransportConfig = DEFAULT_CONFIG,
) -> AsyncIterator[Connection]:
    """Dial ``host:port`` (or each address in turn), authenticate, and yield the connection.

    ``expect`` pins the peer: a PublicIdentity, or a full fingerprint (from an mDNS ad). With
    ``None`` any key is accepted (manual ``--connect``: show ``conn.peer.fingerprint`` to the
    players). Raises OSError when no address accepts TCP, IdentityMismatch when the peer proves
    another key, RefusedByPeer when it refuses us, HandshakeError for anything else.
    """
    if isinstance(expect, str):
        normalize_fingerprint(expect)
    addresses = [host] if isinstance(host, str) else list(host)
    if not addresses:
        raise ValueError("connect() needs at least one address")
    stream = await _open_stream(addresses, port, config.connect_timeout)
    remote = _remote_of(stream)
    try:
        session = await handshake(
            stream,
            identity,
            initiator=True,
            expect=expect,
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
        remote_address=remote,
        config=config,
    )
    async with _running(connection):
        yield connection


async def _accept(
    stream: trio.SocketStream,
    identity: Identity,
    *,
    authorize: Authorizer | None,
    config: TransportConfig,
    remote_address: str,
) -> Connection:
    """Responder side of the handshake on an accepted stream (the listener closes on error).

    The connection starts untrusted (a stranger) and has ``inbound_handshake_timeout``.
    """
    session = await handshake(
        stream,
        identity,
        initiator=False,
        expect=None,
        authorize=authorize,
        timeout=config.inbound_handshake_timeout,
    )
    return Connection(
        stream,
        session,
        local=identity.public,
        initiator=False,
        remote_address=remote_address,
        config=config,
        trusted=False,
    )


ConnectionHandler = Callable[[Connection], Awaitable[None]]
"""Runs for one inbound connection, which closes when it returns. It learns that the connection
ended from ``receive()`` (ConnectionClosed) or ``send()``; it is not cancelled then, except
while the connection is untrusted (see :meth:`Connection.trust`): a second after a stranger's
connection closes, its handler is cancelled."""
