"""Mutually authenticated, encrypted connections between two identities (trio).

Why not TLS: Python's ``ssl`` has no certificate-verify callback, so a listener cannot accept a
self-signed client certificate whose key it does not know beforehand (a lobby joiner, or a
seated peer that dials before our browser resolved it): OpenSSL aborts with
``CERTIFICATE_VERIFY_FAILED: self-signed certificate``. Nor can the channel be bound to an
in-band signature: Python 3.11 exposes neither TLS 1.3 exporters nor ``tls-exporter``. So we use
a small signed-Diffie–Hellman handshake (PROTOCOL.md §12):

1. both sides send ``Hello(version, identity key, ephemeral X25519 key, 32-byte nonce)``;
2. ``th = SHA-256(domain ‖ len ‖ hello_initiator ‖ len ‖ hello_responder)``; keys come from
   HKDF-SHA256 over the X25519 secret with salt ``th``, one ChaCha20-Poly1305 key per direction;
3. each side sends, encrypted, ``Auth(Ed25519(identity, role domain ‖ th))``.

After that every frame is ``u32 length ‖ ChaCha20-Poly1305(key, counter, message, aad=length)``.
A heartbeat goes out after a second of quiet; five seconds without a valid frame ends the
connection. Nothing here knows about tables or games: ``Data`` payloads are opaque bytes.
"""

from __future__ import annotations

import base64
import hashlib
import ipaddress
import logging
import os
import secrets
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass
from typing import Final

import trio
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from p2p_dominoes.net._util import unwrap_single_group
from p2p_dominoes.net.errors import (
    ConnectionClosed,
    FrameError,
    HandshakeError,
    IdentityMismatch,
    NetError,
    OwnIdentity,
    PeerBusy,
    RefusedByPeer,
    TurnedAway,
)
from p2p_dominoes.net.framing import (
    BYE_BUSY,
    BYE_OWN_IDENTITY,
    KEY_SIZE,
    LENGTH_PREFIX_SIZE,
    MAX_FRAME_SIZE,
    MAX_HANDSHAKE_FRAME_SIZE,
    NONCE_SIZE,
    TRANSPORT_VERSION,
    Auth,
    Bye,
    Data,
    FrameDecoder,
    Heartbeat,
    Hello,
    Message,
    SyncRequest,
    decode_message,
    encode_frame,
    encode_message,
)
from p2p_dominoes.net.strangers import StrangerLog
from p2p_dominoes.peer_text import peer_text, quoted
from p2p_dominoes.session.identity import Identity, InvalidIdentity, PublicIdentity

log = logging.getLogger("p2p_dominoes.net")
_PEER_FAULTS: Final = StrangerLog(log)
"""Protocol violations after the handshake: named once per source per minute."""

HANDSHAKE_DOMAIN: Final = b"p2p-dominoes v1 transport handshake\x00"
AUTH_DOMAIN_INITIATOR: Final = b"p2p-dominoes v1 transport auth initiator\x00"
AUTH_DOMAIN_RESPONDER: Final = b"p2p-dominoes v1 transport auth responder\x00"
KEYS_INFO: Final = b"p2p-dominoes v1 transport keys\x00"
AEAD_TAG_SIZE: Final = 16

_RECEIVE_SIZE: Final = 64 * 1024
_BYE_TIMEOUT: Final = 0.5
_DRAIN_TIMEOUT: Final = 1.0
"""Longest the reader goes on once a send failed: what the peer sent before it went (its last
move, a stop notice) is still in the socket and is delivered before the connection ends."""
_MAX_COUNTER: Final = 2**64 - 1
_FINGERPRINT_CHARS: Final = 32

_MESSAGE_OVERHEAD: Final = 64
"""Bytes a queued message is counted for beyond its payload (its object, roughly)."""


@dataclass(frozen=True)
class Refusal:
    """An authorizer's refusal with a bye code (``BYE_BUSY``: the dialer may try again later)."""

    reason: str
    code: str | None = None


Authorizer = Callable[[PublicIdentity], str | Refusal | None]
"""Decides on an inbound peer after its hello: ``None`` accepts, a string (or a
:class:`Refusal`, to give a code) is the refusal reason."""

InboundMessage = Data | SyncRequest
"""What :meth:`Connection.receive` hands to the application."""


@dataclass(frozen=True)
class TransportConfig:
    """Timeouts and buffer sizes of one connection (seconds, messages, bytes).

    The defaults follow the issue: a vanished peer is noticed within ``peer_timeout`` (5 s),
    since mDNS keeps a crashed peer's record for about 19 minutes. The reader never waits for
    the application (so liveness does not depend on how fast it consumes); up to
    ``receive_queue`` messages and ``receive_bytes`` bytes wait for :meth:`Connection.receive`,
    and one more closes the connection. A write that cannot complete within ``peer_timeout``
    closes it too.

    An inbound connection is a *stranger* until the application calls
    :meth:`Connection.trust` (a seated peer): it has ``accept_timeout`` (at most
    ``handshake_timeout``) to finish the handshake, then a queue of ``stranger_queue`` messages
    and ``stranger_bytes`` bytes, and it is closed unless trusted (or held,
    :meth:`Connection.hold`) within ``trust_timeout``. A held connection keeps the stranger's
    queue until it is trusted.
    """

    handshake_timeout: float = 5.0
    heartbeat_interval: float = 1.0
    peer_timeout: float = 5.0
    connect_timeout: float = 5.0
    receive_queue: int = 1024
    receive_bytes: int = 16 * 1024 * 1024
    accept_timeout: float = 2.5
    stranger_queue: int = 16
    stranger_bytes: int = 512 * 1024
    trust_timeout: float = 20.0

    def __post_init__(self) -> None:
        for name in (
            "handshake_timeout",
            "heartbeat_interval",
            "peer_timeout",
            "connect_timeout",
            "accept_timeout",
            "trust_timeout",
        ):
            value = getattr(self, name)
            if not isinstance(value, int | float) or not value > 0:
                raise ValueError(f"{name} must be a positive number of seconds")
        if self.heartbeat_interval >= self.peer_timeout:
            raise ValueError("heartbeat_interval must be shorter than peer_timeout")
        for name in ("receive_queue", "receive_bytes", "stranger_queue", "stranger_bytes"):
            value = getattr(self, name)
            if type(value) is not int or value < 1:
                raise ValueError(f"{name} must be a positive int")

    @property
    def inbound_handshake_timeout(self) -> float:
        """Seconds an inbound stranger has to complete the handshake."""
        return min(self.handshake_timeout, self.accept_timeout)


DEFAULT_CONFIG: Final = TransportConfig()


def normalize_fingerprint(fingerprint: str) -> str:
    """The 32 base32 characters of a full fingerprint, upper case, without separators.

    Raises ValueError for anything that is not a full 160-bit fingerprint: pinning to a short
    fingerprint (40 bits) would be grindable.
    """
    text = fingerprint.replace("-", "").replace(" ", "").upper()
    if len(text) != _FINGERPRINT_CHARS:
        raise ValueError(f"a full fingerprint has {_FINGERPRINT_CHARS} base32 characters")
    try:
        base64.b32decode(text)
    except ValueError:
        raise ValueError("a fingerprint is written in base32 (A-Z, 2-7)") from None
    return text


def _matches(expect: PublicIdentity | str, peer: PublicIdentity) -> bool:
    if isinstance(expect, PublicIdentity):
        return expect == peer
    want = normalize_fingerprint(expect).encode("ascii")
    have = peer.fingerprint.replace("-", "").encode("ascii")
    return secrets.compare_digest(want, have)


def _describe(expect: PublicIdentity | str) -> str:
    return expect.fingerprint if isinstance(expect, PublicIdentity) else expect


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


class _Cipher:
    """One direction of the record layer: ChaCha20-Poly1305 with a 64-bit frame counter."""

    __slots__ = ("_aead", "_counter")

    def __init__(self, key: bytes) -> None:
        self._aead = ChaCha20Poly1305(key)
        self._counter = 0

    def _nonce(self) -> bytes:
        if self._counter >= _MAX_COUNTER:
            raise FrameError("frame counter exhausted")
        nonce = bytes(4) + self._counter.to_bytes(8, "big")
        self._counter += 1
        return nonce

    def seal(self, plaintext: bytes) -> bytes:
        """The whole wire frame (length prefix included) carrying ``plaintext``."""
        size = len(plaintext) + AEAD_TAG_SIZE
        if size > MAX_FRAME_SIZE:
            raise FrameError(f"message of {len(plaintext)} bytes does not fit in a frame")
        header = size.to_bytes(LENGTH_PREFIX_SIZE, "big")
        return header + self._aead.encrypt(self._nonce(), plaintext, header)

    def open(self, payload: bytes) -> bytes:
        """Decrypt one frame payload; a forged, reordered or replayed frame raises FrameError."""
        header = len(payload).to_bytes(LENGTH_PREFIX_SIZE, "big")
        try:
            return self._aead.decrypt(self._nonce(), payload, header)
        except InvalidTag:
            raise FrameError("frame failed authentication (forged, reordered, replayed)") from None


class _FrameReader:
    """Pulls complete frame payloads out of a stream through a FrameDecoder."""

    __slots__ = ("_decoder", "_pending", "_stream")

    def __init__(self, stream: trio.abc.Stream, decoder: FrameDecoder) -> None:
        self._stream = stream
        self._decoder = decoder
        self._pending: deque[bytes] = deque()

    @property
    def decoder(self) -> FrameDecoder:
        return self._decoder

    async def next(self) -> bytes | None:
        """The next frame payload, or None at end of stream."""
        while not self._pending:
            data = await self._stream.receive_some(_RECEIVE_SIZE)
            if not data:
                return None
            self._pending.extend(self._decoder.feed(data))
        return self._pending.popleft()


# --- handshake ----------------------------------------------------------------------------


@dataclass
class _Session:
    peer: PublicIdentity
    tx: _Cipher
    rx: _Cipher
    reader: _FrameReader


def transcript_hash(hello_initiator: bytes, hello_responder: bytes) -> bytes:
    """``SHA-256(HANDSHAKE_DOMAIN ‖ u32 len ‖ hello_I ‖ u32 len ‖ hello_R)`` over the encodings."""
    h = hashlib.sha256(HANDSHAKE_DOMAIN)
    for part in (hello_initiator, hello_responder):
        h.update(len(part).to_bytes(4, "big"))
        h.update(part)
    return h.digest()


def derive_keys(shared_secret: bytes, th: bytes) -> tuple[bytes, bytes]:
    """(initiator→responder key, responder→initiator key) from HKDF-SHA256(secret, salt=th)."""
    okm = HKDF(algorithm=hashes.SHA256(), length=2 * KEY_SIZE, salt=th, info=KEYS_INFO).derive(
        shared_secret
    )
    return okm[:KEY_SIZE], okm[KEY_SIZE:]


async def _send_bye_plain(stream: trio.abc.Stream, reason: str, code: str | None = None) -> None:
    """Best effort: tell the peer why we hang up before it is authenticated."""
    with trio.move_on_after(_BYE_TIMEOUT):
        with suppress(trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            await stream.send_all(encode_frame(encode_message(Bye.of(reason, code))))


def _refused(bye: Bye) -> RefusedByPeer:
    """The error for a peer's refusal: by its code, never by its words."""
    return (
        PeerBusy(bye.reason, code=bye.code)
        if bye.busy
        else RefusedByPeer(bye.reason, code=bye.code)
    )


async def _read_plain(reader: _FrameReader, what: str) -> tuple[bytes, Message]:
    frame = await reader.next()
    if frame is None:
        raise HandshakeError(f"connection closed while waiting for {what}")
    message = decode_message(frame)
    if isinstance(message, Bye):
        raise _refused(message)
    return frame, message


async def _read_auth(reader: _FrameReader, rx: _Cipher) -> Auth:
    frame = await reader.next()
    if frame is None:
        raise HandshakeError("connection closed while waiting for auth")
    try:
        plaintext = rx.open(frame)
    except FrameError:
        # A peer that rejects our hello refuses before it has keys: a plaintext bye.
        try:
            refusal = decode_message(frame)
        except FrameError:
            refusal = None
        if isinstance(refusal, Bye):
            raise _refused(refusal) from None
        raise
    message = decode_message(plaintext)
    if isinstance(message, Bye):
        raise _refused(message)
    if not isinstance(message, Auth):
        raise HandshakeError(f"expected auth, got {type(message).__name__.lower()}")
    return message


def _peer_identity(hello: Hello, own: PublicIdentity) -> PublicIdentity:
    if hello.version != TRANSPORT_VERSION:
        raise HandshakeError(
            f"unsupported transport version {hello.version} (we speak {TRANSPORT_VERSION})"
        )
    try:
        peer = PublicIdentity(hello.identity)
    except InvalidIdentity as exc:
        raise HandshakeError(f"invalid identity key: {exc}") from None
    if peer == own:
        raise OwnIdentity(
            "peer presented our own identity: a second peer on this machine shares this one's "
            "data folder (give it its own with --data-dir DIR)"
        )
    return peer


async def _handshake(
    stream: trio.abc.Stream,
    identity: Identity,
    *,
    initiator: bool,
    expect: PublicIdentity | str | None,
    authorize: Authorizer | None,
    timeout: float,
) -> _Session:
    reader = _FrameReader(stream, FrameDecoder(MAX_HANDSHAKE_FRAME_SIZE))
    ephemeral = X25519PrivateKey.from_private_bytes(secrets.token_bytes(KEY_SIZE))
    mine = encode_message(
        Hello(
            TRANSPORT_VERSION,
            identity.public.raw,
            ephemeral.public_key().public_bytes_raw(),
            secrets.token_bytes(NONCE_SIZE),
        )
    )
    try:
        with trio.fail_after(timeout):
            if initiator:
                await stream.send_all(encode_frame(mine))
            theirs, hello = await _read_plain(reader, "hello")
            if not isinstance(hello, Hello):
                raise HandshakeError(f"expected hello, got {type(hello).__name__.lower()}")
            refusal_code: str | None = None
            try:
                peer = _peer_identity(hello, identity.public)
                if initiator and expect is not None and not _matches(expect, peer):
                    raise IdentityMismatch(
                        f"expected {_describe(expect)}, but the peer proved {peer.fingerprint}"
                    )
                if not initiator and authorize is not None:
                    refusal = authorize(peer)
                    if isinstance(refusal, Refusal) and refusal.code == BYE_BUSY:
                        raise TurnedAway(f"{peer.fingerprint} turned away: {refusal.reason}")
                    if refusal is not None:
                        text = refusal.reason if isinstance(refusal, Refusal) else refusal
                        if isinstance(refusal, Refusal):
                            refusal_code = refusal.code  # the dialer decides by it
                        raise IdentityMismatch(f"{peer.fingerprint} refused: {text}")
            except HandshakeError as exc:
                code = BYE_BUSY if isinstance(exc, TurnedAway) else refusal_code
                if isinstance(exc, OwnIdentity):
                    code = BYE_OWN_IDENTITY  # the dialer says: a second peer needs --data-dir
                await _send_bye_plain(stream, str(exc), code)
                raise
            # From here the peer has sent a well-formed hello: allow full-size frames, since an
            # initiator may pipeline data right behind its auth.
            reader.decoder.max_size = MAX_FRAME_SIZE
            hello_i, hello_r = (mine, theirs) if initiator else (theirs, mine)
            th = transcript_hash(hello_i, hello_r)
            try:
                shared = ephemeral.exchange(X25519PublicKey.from_public_bytes(hello.ephemeral))
            except ValueError:
                raise HandshakeError("peer's ephemeral key gives no shared secret") from None
            if shared == bytes(KEY_SIZE):
                raise HandshakeError("peer's ephemeral key is of small order")
            k_ir, k_ri = derive_keys(shared, th)
            tx, rx = (_Cipher(k_ir), _Cipher(k_ri)) if initiator else (_Cipher(k_ri), _Cipher(k_ir))
            own_domain, peer_domain = (
                (AUTH_DOMAIN_INITIATOR, AUTH_DOMAIN_RESPONDER)
                if initiator
                else (AUTH_DOMAIN_RESPONDER, AUTH_DOMAIN_INITIATOR)
            )
            my_auth = tx.seal(encode_message(Auth(identity.sign(own_domain + th))))
            if not initiator:
                await stream.send_all(encode_frame(mine) + my_auth)
            auth = await _read_auth(reader, rx)
            if not peer.verify(auth.signature, peer_domain + th):
                raise HandshakeError(f"bad handshake signature from {peer.fingerprint}")
            if initiator:
                await stream.send_all(my_auth)
    except trio.TooSlowError:
        raise HandshakeError(f"handshake timed out after {timeout:g} s") from None
    except FrameError as exc:
        raise HandshakeError(f"malformed handshake: {exc}") from None
    except (trio.BrokenResourceError, trio.ClosedResourceError, OSError) as exc:
        raise HandshakeError(f"connection lost during handshake: {exc!r}") from None
    return _Session(peer, tx, rx, reader)


# --- the connection -----------------------------------------------------------------------


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
        session: _Session,
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

    async def aclose(self, reason: str = "closed") -> None:
        """Say bye with ``reason`` (best effort, bounded) and close. Idempotent."""
        if self._close_reason is None:
            self._close_reason = f"closed locally: {reason}"
            with (
                trio.CancelScope(shield=True),
                trio.move_on_after(_BYE_TIMEOUT),
                suppress(NetError, trio.BrokenResourceError, trio.ClosedResourceError, OSError),
            ):
                await self._write(Bye.of(reason))
            self._finish()
        await trio.aclose_forcefully(self._stream)

    # -- internals --

    def _closed_error(self) -> ConnectionClosed:
        return ConnectionClosed(self._close_reason or "closed", peer_fault=self._peer_fault)

    def _finish(self) -> None:
        self._incoming_send.close()
        self._background_scope.cancel()
        self._settled.set()

    def _close_now(self, reason: str, *, peer_fault: bool = False, drain: bool = False) -> None:
        """End the connection for `reason`; with `drain` (a send failed: the peer went away)
        the read loop first delivers what the peer sent before, for at most _DRAIN_TIMEOUT."""
        if self._close_reason is not None:
            return
        reason = peer_text(reason, 400)
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
                self._close_now(f"connection lost: {exc!r}", drain=True)
                raise
            except BaseException:
                # A frame may be half written: the stream cannot carry another one.
                self._close_now("send failed or was interrupted mid-frame")
                raise
            if scope.cancelled_caught:
                self._close_now(f"peer did not read for {self._config.peer_timeout:g} s")
                raise self._closed_error()
            self._last_sent = trio.current_time()

    async def _send_message(self, message: Message) -> None:
        if self._close_reason is not None:
            raise self._closed_error()
        try:
            await self._write(message)
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError) as exc:
            self._close_now(f"connection lost: {exc!r}")
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
            most, most_bytes, who = config.receive_queue, config.receive_bytes, ""
        else:
            most, most_bytes, who = config.stranger_queue, config.stranger_bytes, "untrusted: "
        messages, size = self.queued
        if messages + 1 > most:
            return (
                f"{who}more than {most} messages waiting "
                "(the application is too slow, or the peer floods)"
            )
        if size + _queued_size(message) > most_bytes:
            return (
                f"{who}more than {most_bytes} bytes waiting "
                "(the application is too slow, or the peer floods)"
            )
        return None

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
                self._read_scope = None
                if scope.cancelled_caught:
                    self._close_now(f"peer silent for {timeout:g} s")
                    return
                if frame is None:
                    self._close_now("peer closed the connection without bye")
                    return
                message = decode_message(self._session.rx.open(frame))
                self._last_heard = trio.current_time()
                if isinstance(message, Bye):
                    self._close_now(f"peer said bye: {quoted(message.reason, 200)}")
                    return
                if isinstance(message, Heartbeat):
                    continue
                if isinstance(message, Hello | Auth):
                    raise FrameError(f"{type(message).__name__.lower()} after the handshake")
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
            self._close_now(f"protocol violation: {exc}", peer_fault=True)
        except (trio.BrokenResourceError, OSError) as exc:
            self._close_now(f"connection lost: {exc!r}")
        except trio.ClosedResourceError:
            self._close_now("closed")


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
        session = await _handshake(
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
    session = await _handshake(
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
