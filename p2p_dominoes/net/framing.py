"""Sans-I/O framing: length-prefixed frames and the strict transport messages inside them.

A frame on the wire is ``u32 big-endian length ‖ payload`` with ``1 ≤ length ≤ limit``. The
decoder is incremental (feed it whatever ``receive_some`` returned; it hands back every complete
payload) and fails closed: a bad length raises :class:`FrameError` at once, without waiting for
the announced bytes, and the decoder stays broken afterwards.

Transport messages are canonical msgpack arrays ``[kind, ...]`` (no maps, exact types, shortest
encodings; PROTOCOL.md §12). They are separate from session envelopes: ``Data`` carries an
envelope (or any opaque bytes) and the transport never looks inside.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import msgpack  # type: ignore[import-untyped]

from p2p_dominoes.net.errors import FrameError
from p2p_dominoes.words import phrase

LENGTH_PREFIX_SIZE: Final = 4
MAX_FRAME_SIZE: Final = 128 * 1024
"""Largest frame payload accepted after the handshake (room for a 64 KiB envelope + overhead)."""
MAX_HANDSHAKE_FRAME_SIZE: Final = 512
"""Largest frame accepted before the peer is authenticated: hellos are ~110 bytes."""
MAX_DATA_SIZE: Final = 64 * 1024
"""Largest opaque payload of a ``Data`` message (the session's envelope limit)."""
MAX_REASON_BYTES: Final = 256
MAX_CODE_BYTES: Final = 32
BYE_BUSY: Final = "busy"
"""Bye code: the refusal is temporary (too many connections); dial again later, with backoff."""
BYE_OWN_IDENTITY: Final = "own-identity"
"""Bye code: the dialer proved our own key (a second peer sharing this one's data folder)."""
KEY_SIZE: Final = 32
NONCE_SIZE: Final = 32
SIGNATURE_SIZE: Final = 64
HEAD_SIZE: Final = 32
TRANSPORT_VERSION: Final = 1

KIND_HELLO: Final = 1
KIND_AUTH: Final = 2
KIND_HEARTBEAT: Final = 3
KIND_DATA: Final = 4
KIND_SYNC_REQUEST: Final = 5
KIND_BYE: Final = 6

_MAX_VERSION: Final = 0xFFFF


def encode_frame(payload: bytes, *, max_size: int = MAX_FRAME_SIZE) -> bytes:
    """Prefix ``payload`` with its 4-byte big-endian length; refuses empty or oversized ones."""
    if type(payload) is not bytes:
        raise TypeError("a frame payload must be bytes")
    if not 1 <= len(payload) <= max_size:
        raise FrameError(phrase("net.why.frame_payload_size", size=len(payload), most=max_size))
    return len(payload).to_bytes(LENGTH_PREFIX_SIZE, "big") + payload


class FrameDecoder:
    """Incremental decoder of length-prefixed frames with a hard size limit.

    Why incremental and sans-I/O: TCP delivers arbitrary slices, and keeping the parser free of
    sockets lets tests (and hypothesis) drive it with any split of any bytes.
    """

    __slots__ = ("_buffer", "_failed", "max_size")

    def __init__(self, max_size: int = MAX_FRAME_SIZE) -> None:
        if type(max_size) is not int or max_size < 1:
            raise ValueError("max_size must be a positive int")
        self.max_size = max_size
        self._buffer = bytearray()
        self._failed: FrameError | None = None

    @property
    def buffered(self) -> int:
        """Bytes received but not yet part of a complete frame (a half frame, if non-zero)."""
        return len(self._buffer)

    def feed(self, data: bytes | bytearray | memoryview) -> list[bytes]:
        """Add ``data`` and return every frame payload it completes, in order.

        Raises FrameError for a zero or oversized length prefix as soon as the prefix is seen;
        after that every call raises the same error (the stream cannot be resynchronised).
        """
        if self._failed is not None:
            raise self._failed
        self._buffer += data
        frames: list[bytes] = []
        while len(self._buffer) >= LENGTH_PREFIX_SIZE:
            length = int.from_bytes(self._buffer[:LENGTH_PREFIX_SIZE], "big")
            if length == 0 or length > self.max_size:
                self._failed = FrameError(
                    phrase("net.why.frame_length", length=length, most=self.max_size)
                )
                self._buffer.clear()
                raise self._failed
            end = LENGTH_PREFIX_SIZE + length
            if len(self._buffer) < end:
                break
            frames.append(bytes(self._buffer[LENGTH_PREFIX_SIZE:end]))
            del self._buffer[:end]
        return frames


# --- transport messages -------------------------------------------------------------------


def _exact_bytes(value: object, size: int, what: str) -> bytes:
    if type(value) is not bytes or len(value) != size:
        raise FrameError(phrase("net.why.field_bin", what=what, size=size))
    return value


@dataclass(frozen=True)
class Hello:
    """First handshake message of each side: who I claim to be and my fresh key material."""

    version: int
    identity: bytes
    ephemeral: bytes
    nonce: bytes

    def __post_init__(self) -> None:
        if type(self.version) is not int or not 0 <= self.version <= _MAX_VERSION:
            raise FrameError(phrase("net.why.hello_version", most=_MAX_VERSION))
        _exact_bytes(self.identity, KEY_SIZE, "hello identity key")
        _exact_bytes(self.ephemeral, KEY_SIZE, "hello ephemeral key")
        _exact_bytes(self.nonce, NONCE_SIZE, "hello nonce")

    def to_wire(self) -> tuple[object, ...]:
        return (KIND_HELLO, self.version, self.identity, self.ephemeral, self.nonce)


@dataclass(frozen=True)
class Auth:
    """Second handshake message: the identity key's signature over the handshake transcript."""

    signature: bytes

    def __post_init__(self) -> None:
        _exact_bytes(self.signature, SIGNATURE_SIZE, "auth signature")

    def to_wire(self) -> tuple[object, ...]:
        return (KIND_AUTH, self.signature)


@dataclass(frozen=True)
class Heartbeat:
    """'Still here': sent when a side has been quiet for a heartbeat interval."""

    def to_wire(self) -> tuple[object, ...]:
        return (KIND_HEARTBEAT,)


@dataclass(frozen=True)
class Data:
    """An opaque application message (a session envelope); the transport never parses it."""

    payload: bytes

    def __post_init__(self) -> None:
        if type(self.payload) is not bytes:
            raise FrameError(phrase("net.why.data_not_bin"))
        if len(self.payload) > MAX_DATA_SIZE:
            raise FrameError(
                phrase("net.why.data_too_big", size=len(self.payload), most=MAX_DATA_SIZE)
            )

    def to_wire(self) -> tuple[object, ...]:
        return (KIND_DATA, self.payload)


@dataclass(frozen=True)
class SyncRequest:
    """'My transcript head is ``head``; send me what I am missing' (the runtime answers)."""

    head: bytes

    def __post_init__(self) -> None:
        _exact_bytes(self.head, HEAD_SIZE, "sync-request head")

    def to_wire(self) -> tuple[object, ...]:
        return (KIND_SYNC_REQUEST, self.head)


@dataclass(frozen=True)
class Bye:
    """A polite close with a reason (also how a handshake is refused).

    ``code`` is an optional machine-readable word (``BYE_BUSY``: try again later) so that a
    dialer decides whether to retry from a fixed token, never from the reason's words. Without
    a code the bye is the original two-element array; unknown codes are kept and mean nothing.
    """

    reason: str
    code: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.reason, str):
            raise FrameError(phrase("net.why.bye_reason_not_str"))
        if type(self.reason) is not str:  # our own reason (a words.Phrase): sent as its text
            object.__setattr__(self, "reason", str(self.reason))
        try:
            size = len(self.reason.encode("utf-8"))
        except UnicodeEncodeError:
            raise FrameError(phrase("net.why.bye_reason_not_utf8")) from None
        if size > MAX_REASON_BYTES:
            raise FrameError(phrase("net.why.bye_reason_too_long", most=MAX_REASON_BYTES))
        if self.code is not None and (
            type(self.code) is not str
            or not 1 <= len(self.code) <= MAX_CODE_BYTES
            or not all("a" <= c <= "z" or c == "-" for c in self.code)
        ):
            raise FrameError(phrase("net.why.bye_code", most=MAX_CODE_BYTES))

    @classmethod
    def of(cls, reason: str, code: str | None = None) -> Bye:
        """A Bye whose reason is ``reason`` cut to the limit on a character boundary."""
        data = reason.encode("utf-8", "replace")[:MAX_REASON_BYTES]
        return cls(data.decode("utf-8", "ignore"), code)

    @property
    def busy(self) -> bool:
        """True when the peer says the refusal is temporary."""
        return self.code == BYE_BUSY

    def to_wire(self) -> tuple[object, ...]:
        if self.code is None:
            return (KIND_BYE, self.reason)
        return (KIND_BYE, self.reason, self.code)


Message = Hello | Auth | Heartbeat | Data | SyncRequest | Bye
"""Every transport message."""


def encode_message(message: Message) -> bytes:
    """The canonical msgpack encoding of a transport message."""
    packed = msgpack.packb(message.to_wire(), use_bin_type=True)
    assert isinstance(packed, bytes)
    return packed


def _arity(items: tuple[object, ...], n: int, name: str) -> None:
    if len(items) != n:
        raise FrameError(phrase("net.why.array_size", name=name, n=n, count=len(items)))


def decode_message(payload: bytes) -> Message:
    """Parse one transport message strictly; every problem raises FrameError and nothing else."""
    if type(payload) is not bytes or not payload:
        raise FrameError(phrase("net.why.empty_message"))
    try:
        value = msgpack.unpackb(
            payload,
            raw=False,
            use_list=False,
            strict_map_key=True,
            timestamp=0,
            max_str_len=MAX_FRAME_SIZE,
            max_bin_len=MAX_FRAME_SIZE,
            max_array_len=8,
            max_map_len=0,
            max_ext_len=0,
        )
    except Exception as exc:  # msgpack raises many types; all mean "not our msgpack"
        raise FrameError(phrase("net.why.not_msgpack", error=type(exc).__name__)) from None
    if type(value) is not tuple or not value:
        raise FrameError(phrase("net.why.not_array"))
    kind = value[0]
    if type(kind) is not int:
        raise FrameError(phrase("net.why.kind_not_int"))
    message: Message
    if kind == KIND_HELLO:
        _arity(value, 5, "hello")
        message = Hello(value[1], value[2], value[3], value[4])
    elif kind == KIND_AUTH:
        _arity(value, 2, "auth")
        message = Auth(value[1])
    elif kind == KIND_HEARTBEAT:
        _arity(value, 1, "heartbeat")
        message = Heartbeat()
    elif kind == KIND_DATA:
        _arity(value, 2, "data")
        message = Data(value[1])
    elif kind == KIND_SYNC_REQUEST:
        _arity(value, 2, "sync-request")
        message = SyncRequest(value[1])
    elif kind == KIND_BYE:
        if len(value) == 3:
            message = Bye(value[1], value[2])
        else:
            _arity(value, 2, "bye")
            message = Bye(value[1])
    else:
        raise FrameError(phrase("net.why.unknown_kind", kind=kind))
    if encode_message(message) != payload:
        raise FrameError(phrase("net.why.not_canonical"))
    return message
