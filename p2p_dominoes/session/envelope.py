"""The signed envelope every session message travels in, with its canonical msgpack encoding.

Wire form (PROTOCOL.md §3): a msgpack array of exactly seven elements, in this order::

    [version: int, table_id: bin16, seat: int, head: bin32, type: int, body: array, sig: bin64]

The signature is Ed25519 over ``ENVELOPE_SIGNATURE_DOMAIN`` followed by the msgpack encoding of
the first six elements as an array. Encoding is canonical (shortest msgpack forms, arrays only);
decoding accepts only bytes that re-encode to themselves.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Final

import msgpack  # type: ignore[import-untyped]

from p2p_dominoes.session.errors import InvalidMessage
from p2p_dominoes.session.identity import SIGNATURE_SIZE, Identity, PublicIdentity
from p2p_dominoes.session.schema import Record, Wire
from p2p_dominoes.words import phrase

PROTOCOL_VERSION: Final = 4
"""The version new tables are created with: v3 (plays and lead claims that show the tile and not
its deck position, PROTOCOL.md §10.6) plus a table that goes on when a seat leaves (`goodbye`,
`continue`, `continue_sign`, §16)."""
THIRD_VERSION: Final = 3
"""v3 without the leaving messages: still verified and resumed, never created."""
FIRST_VERSION: Final = 1
"""The first version: still verified and resumed (its logs and vectors), never created."""
SECOND_VERSION: Final = 2
"""v2 lead claims (PROTOCOL.md §10.5), void hands, skip: still verified and resumed."""
SUPPORTED_VERSIONS: Final = frozenset(
    {FIRST_VERSION, SECOND_VERSION, THIRD_VERSION, PROTOCOL_VERSION}
)
MAX_ENVELOPE_SIZE: Final = 64 * 1024
TABLE_ID_SIZE: Final = 16
HASH_SIZE: Final = 32
MAX_SEATS: Final = 4
MAX_TYPE_CODE: Final = 127
ENVELOPE_FIELDS: Final = ("version", "table_id", "seat", "head", "type", "body", "signature")
ENVELOPE_SIGNATURE_DOMAIN: Final = b"p2p-dominoes v1 envelope signature\x00"
MESSAGE_HASH_DOMAIN: Final = b"p2p-dominoes v1 message hash\x00"
GENESIS_HEAD_DOMAIN: Final = b"p2p-dominoes v1 genesis head\x00"

_TYPE_NAME: Final = re.compile(r"[a-z][a-z0-9_]{0,31}")


@dataclass(frozen=True)
class MessageType:
    """A registered message type: its wire code, its name and the schema of its body."""

    code: int
    name: str
    body: Record

    def __post_init__(self) -> None:
        if type(self.code) is not int or not 1 <= self.code <= MAX_TYPE_CODE:
            raise ValueError(f"message type code must be an int in 1..{MAX_TYPE_CODE}")
        if type(self.name) is not str or not _TYPE_NAME.fullmatch(self.name):
            raise ValueError(f"message type name {self.name!r} must match {_TYPE_NAME.pattern}")
        if not isinstance(self.body, Record):
            raise ValueError("a message body schema must be a Record (a fixed-order array)")


class MessageRegistry:
    """The set of message types a decoder accepts; later phases add theirs with ``register``."""

    def __init__(self, types: Iterable[MessageType] = ()) -> None:
        self._by_code: dict[int, MessageType] = {}
        self._by_name: dict[str, MessageType] = {}
        for mtype in types:
            self.register(mtype)

    def register(self, mtype: MessageType) -> MessageType:
        """Add ``mtype``; a code or name already taken by another type is an error."""
        if not isinstance(mtype, MessageType):
            raise TypeError("register() takes a MessageType")
        for existing in (self._by_code.get(mtype.code), self._by_name.get(mtype.name)):
            if existing is not None and existing != mtype:
                raise ValueError(
                    f"{mtype.name} ({mtype.code}) clashes with {existing.name} ({existing.code})"
                )
        self._by_code[mtype.code] = mtype
        self._by_name[mtype.name] = mtype
        return mtype

    def extended(self, *types: MessageType) -> MessageRegistry:
        """A new registry with this one's types plus ``types``."""
        return MessageRegistry([*self._by_code.values(), *types])

    def by_code(self, code: int) -> MessageType | None:
        """The type with wire code ``code``, if registered."""
        return self._by_code.get(code)

    def by_name(self, name: str) -> MessageType:
        """The type named ``name``; KeyError if there is none."""
        return self._by_name[name]

    def __contains__(self, mtype: object) -> bool:
        return isinstance(mtype, MessageType) and self._by_code.get(mtype.code) == mtype

    def __iter__(self) -> Iterator[MessageType]:
        return iter(sorted(self._by_code.values(), key=lambda t: t.code))

    def __len__(self) -> int:
        return len(self._by_code)


def _packb(value: object) -> bytes:
    """The canonical encoder: msgpack with str and bin kept distinct, shortest forms."""
    packed = msgpack.packb(value, use_bin_type=True, strict_types=False)
    assert isinstance(packed, bytes)
    return packed


def _reject(code: str, reason: str) -> InvalidMessage:
    return InvalidMessage(code, reason)


def _check_header(version: object, table_id: object, seat: object, head: object) -> None:
    if type(version) is not int:
        raise _reject("bad-envelope", phrase("session.why.version_must_int"))
    if version not in SUPPORTED_VERSIONS:
        raise _reject(
            "unsupported-version",
            phrase("session.why.protocol_version_not_supported", version=version),
        )
    if type(table_id) is not bytes or len(table_id) != TABLE_ID_SIZE:
        raise _reject(
            "bad-envelope",
            phrase("session.why.table_id_must_bytes_bin", table_id_size=TABLE_ID_SIZE),
        )
    if type(seat) is not int or not 0 <= seat < MAX_SEATS:
        raise _reject(
            "bad-envelope", phrase("session.why.seat_must_int_0", max_seats=MAX_SEATS - 1)
        )
    if type(head) is not bytes or len(head) != HASH_SIZE:
        raise _reject(
            "bad-envelope", phrase("session.why.head_hash_must_bytes_bin", hash_size=HASH_SIZE)
        )


@dataclass(frozen=True)
class Envelope:
    """A structurally valid envelope. Its signature is checked by :meth:`verify` (or a Transcript).

    Construction validates every field and the body against the type's schema, so an Envelope
    that exists always encodes; ``body`` is stored normalised (tuples) so it re-encodes exactly.
    """

    version: int
    table_id: bytes
    seat: int
    head: bytes
    type: MessageType
    body: tuple[Wire, ...]
    signature: bytes

    def __post_init__(self) -> None:
        _check_header(self.version, self.table_id, self.seat, self.head)
        if not isinstance(self.type, MessageType):
            raise _reject("bad-envelope", phrase("session.why.type_must_messagetype"))
        body = self.type.body.check(self.body, self.type.name)
        object.__setattr__(self, "body", body)
        if type(self.signature) is not bytes or len(self.signature) != SIGNATURE_SIZE:
            raise _reject(
                "bad-envelope",
                phrase("session.why.signature_must_bytes_bin", signature_size=SIGNATURE_SIZE),
            )

    @classmethod
    def sign(
        cls,
        identity: Identity,
        *,
        table_id: bytes,
        seat: int,
        head: bytes,
        mtype: MessageType,
        body: Sequence[Wire],
        version: int = PROTOCOL_VERSION,
    ) -> Envelope:
        """Build and sign an envelope (raises InvalidMessage if a field is invalid)."""
        _check_header(version, table_id, seat, head)
        if not isinstance(mtype, MessageType):
            raise _reject("bad-envelope", phrase("session.why.mtype_must_messagetype"))
        normalised = mtype.body.check(body, mtype.name)
        unsigned = _signed_bytes(version, table_id, seat, head, mtype.code, normalised)
        return cls(version, table_id, seat, head, mtype, normalised, identity.sign(unsigned))

    @classmethod
    def decode(cls, data: bytes, registry: MessageRegistry) -> Envelope:
        """Parse wire bytes strictly; any problem raises InvalidMessage and nothing else."""
        if type(data) is not bytes:
            raise _reject(
                "bad-envelope", phrase("session.why.expected_bytes_got", kind=type(data).__name__)
            )
        if len(data) > MAX_ENVELOPE_SIZE:
            raise _reject(
                "too-large",
                phrase(
                    "session.why.bytes_exceeds",
                    count=len(data),
                    max_envelope_size=MAX_ENVELOPE_SIZE,
                ),
            )
        if not data:
            raise _reject("malformed", phrase("session.why.empty_message"))
        try:
            value = msgpack.unpackb(
                data,
                raw=False,
                use_list=False,
                strict_map_key=True,
                timestamp=0,
                max_str_len=MAX_ENVELOPE_SIZE,
                max_bin_len=MAX_ENVELOPE_SIZE,
                max_array_len=MAX_ENVELOPE_SIZE,
                max_map_len=0,
                max_ext_len=0,
            )
        except Exception as exc:  # msgpack raises many types; all mean "not our msgpack"
            raise _reject(
                "malformed", phrase("session.why.not_valid_msgpack", kind=type(exc).__name__)
            ) from None
        if type(value) is not tuple or len(value) != len(ENVELOPE_FIELDS):
            raise _reject(
                "bad-envelope",
                phrase("session.why.envelope_must_array", count=len(ENVELOPE_FIELDS)),
            )
        version, table_id, seat, head, code, body, signature = value
        _check_header(version, table_id, seat, head)
        if type(code) is not int:
            raise _reject("bad-envelope", phrase("session.why.message_type_must_int"))
        mtype = registry.by_code(code)
        if mtype is None:
            raise _reject("unknown-type", phrase("session.why.message_type_not_known", code=code))
        envelope = cls(version, table_id, seat, head, mtype, body, signature)
        if envelope.encode() != data:
            raise _reject("non-canonical", phrase("session.why.encoding_not_canonical_msgpack"))
        return envelope

    def signed_bytes(self) -> bytes:
        """The exact bytes the signature covers: domain prefix + canonical unsigned array."""
        return _signed_bytes(
            self.version, self.table_id, self.seat, self.head, self.type.code, self.body
        )

    def encode(self) -> bytes:
        """The canonical wire bytes."""
        return _packb(
            (
                self.version,
                self.table_id,
                self.seat,
                self.head,
                self.type.code,
                self.body,
                self.signature,
            )
        )

    def verify(self, key: PublicIdentity) -> None:
        """Raise InvalidMessage (``bad-signature``) unless ``key`` signed this envelope."""
        if not key.verify(self.signature, self.signed_bytes()):
            raise _reject(
                "bad-signature", phrase("session.why.bad_signature_seat", seat=self.seat + 1)
            )

    @property
    def hash(self) -> bytes:
        """This message's hash: the transcript head after it is accepted."""
        return message_hash(self.encode())

    def field(self, name: str) -> Wire:
        """The body field called ``name`` (by the type's schema); None for an optional
        trailing field the message leaves out."""
        index = self.type.body.index(name)
        return self.body[index] if index < len(self.body) else None

    def __repr__(self) -> str:
        return (
            f"Envelope({self.type.name} from seat {self.seat}, table {self.table_id.hex()}, "
            f"head {self.head.hex()[:16]}…)"
        )


def _signed_bytes(
    version: int, table_id: bytes, seat: int, head: bytes, code: int, body: tuple[Wire, ...]
) -> bytes:
    return ENVELOPE_SIGNATURE_DOMAIN + _packb((version, table_id, seat, head, code, body))


def message_hash(encoded: bytes) -> bytes:
    """SHA-256 over the message-hash domain prefix and a full encoded envelope."""
    return hashlib.sha256(MESSAGE_HASH_DOMAIN + encoded).digest()


def genesis_head(table_id: bytes) -> bytes:
    """The head a table's transcript starts from, before its genesis message."""
    if type(table_id) is not bytes or len(table_id) != TABLE_ID_SIZE:
        raise ValueError(f"table id must be {TABLE_ID_SIZE} bytes")
    return hashlib.sha256(GENESIS_HEAD_DOMAIN + table_id).digest()
