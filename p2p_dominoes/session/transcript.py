"""The hash-chained transcript: accepted envelopes in order, their head, and kept evidence.

Each message names the head it was written on; the head after a message is its message hash.
``append`` accepts a message only if it is signed by its seat's key (from the genesis, or from
the last `continue` that gave the seat a new holder, PROTOCOL.md §16) and extends the current
head. A validly signed message from a seat for a place in the chain that
seat already filled with a different message is equivocation: both are kept as evidence.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Final

from p2p_dominoes.session.envelope import (
    Envelope,
    MessageRegistry,
    MessageType,
    genesis_head,
    message_hash,
)
from p2p_dominoes.session.errors import InvalidMessage
from p2p_dominoes.session.genesis import GENESIS, Genesis
from p2p_dominoes.session.identity import Identity, PublicIdentity
from p2p_dominoes.session.leave_messages import CONTINUE, Continuation
from p2p_dominoes.session.schema import Wire
from p2p_dominoes.words import phrase

TRANSCRIPT_MAGIC: Final = b"P2PD-TX\x01"
RECORD_MESSAGE: Final = 0x01
RECORD_EQUIVOCATION: Final = 0x02
_RECORD_HEADER: Final = struct.Struct(">BI")

Check = Callable[["Transcript", Envelope], None]
"""A semantic rule run by ``append`` after the chain checks, before the message is kept."""


@dataclass(frozen=True)
class Entry:
    """One accepted message: its position, envelope, exact bytes and hash (the next head)."""

    index: int
    envelope: Envelope
    encoded: bytes
    hash: bytes


@dataclass(frozen=True)
class Equivocation:
    """Proof that ``seat`` signed two different messages on the same ``head``."""

    seat: int
    head: bytes
    first: Envelope
    second: Envelope

    def verify(self, key: PublicIdentity) -> bool:
        """True when this is genuine evidence against the holder of ``key``."""
        try:
            self.first.verify(key)
            self.second.verify(key)
        except InvalidMessage:
            return False
        return (
            self.first.seat == self.second.seat == self.seat
            and self.first.head == self.second.head == self.head
            and self.first.table_id == self.second.table_id
            and self.first.encode() != self.second.encode()
        )


class ReplayedMessage(InvalidMessage):
    """A message identical to one already in the transcript."""


class EquivocationDetected(InvalidMessage):
    """A seat signed a second, different message for a place in the chain; see ``evidence``."""

    def __init__(self, evidence: Equivocation) -> None:
        super().__init__(
            "equivocation",
            "signed two different messages on the same head",
            seat=evidence.seat,
        )
        self.evidence = evidence


class Transcript:
    """The ordered, signed, hash-chained record of a table, starting at its genesis message.

    Pure: no I/O. ``to_bytes``/``from_bytes`` give the transcript file format (PROTOCOL.md §8).
    """

    def __init__(self, genesis: Envelope, registry: MessageRegistry) -> None:
        """Start a transcript from a genesis envelope, which is fully checked."""
        if registry.by_code(GENESIS.code) != GENESIS:
            raise ValueError("the registry must contain the genesis message type")
        if genesis.type != GENESIS:
            raise InvalidMessage(
                "bad-genesis", phrase("session.why.first_message", type=genesis.type.name)
            )
        info = Genesis.from_wire(genesis.body)
        if info.table_id != genesis.table_id or info.protocol_version != genesis.version:
            raise InvalidMessage(
                "bad-genesis", phrase("session.why.genesis_body_disagrees_with_envelope")
            )
        if genesis.head != genesis_head(info.table_id):
            raise InvalidMessage("wrong-head", phrase("session.why.genesis_not_on_table_s"))
        if genesis.seat >= len(info.seats):
            raise InvalidMessage(
                "unknown-seat", phrase("session.why.seat_not_table", seat=genesis.seat + 1)
            )
        genesis.verify(info.seats[genesis.seat].key)
        self._registry = registry
        self._genesis = info
        self._entries: list[Entry] = []
        self._view: tuple[Entry, ...] = ()
        self._by_hash: dict[bytes, int] = {}
        self._by_head: dict[bytes, int] = {}
        self._equivocations: list[Equivocation] = []
        self._keys = [seat.key for seat in info.seats]
        """Each seat's key now: the genesis's, until a `continue` gives a seat a new holder."""
        self._ever: set[PublicIdentity] = set(self._keys)
        self._before: list[PublicIdentity | None] = [None] * len(self._keys)
        """Each seat's key before its current holder's (None: the genesis's holder still)."""
        encoded = genesis.encode()
        self._commit(genesis, encoded, message_hash(encoded))

    # -- reading -----------------------------------------------------------------------------

    @property
    def registry(self) -> MessageRegistry:
        """The message types this transcript accepts."""
        return self._registry

    @property
    def genesis(self) -> Genesis:
        """The parsed genesis: table id, rules, seats and their keys."""
        return self._genesis

    @property
    def table_id(self) -> bytes:
        """The 16-byte table id."""
        return self._genesis.table_id

    @property
    def keys(self) -> tuple[PublicIdentity, ...]:
        """Each seat's identity key now, by seat number (the genesis's, or a continuation's)."""
        return tuple(self._keys)

    def previous_key(self, seat: int) -> PublicIdentity | None:
        """The key `seat`'s current holder took over from (§16.1: the one a returning player
        signs its request with); None while the genesis's holder still holds it."""
        return self._before[seat]

    def held_before(self, key: PublicIdentity) -> bool:
        """Whether `key` held a seat of this table at any point (a new holder's key is fresh)."""
        return key in self._ever

    @property
    def genesis_hash(self) -> bytes:
        """The hash of the genesis message, which every seat signs."""
        return self._entries[0].hash

    @property
    def head(self) -> bytes:
        """The current head: the hash of the last accepted message."""
        return self._entries[-1].hash

    @property
    def entries(self) -> Sequence[Entry]:
        """Accepted messages in order (an immutable snapshot, cached until the next append)."""
        if len(self._view) != len(self._entries):
            self._view = tuple(self._entries)
        return self._view

    @property
    def equivocations(self) -> tuple[Equivocation, ...]:
        """Equivocation evidence found so far."""
        return tuple(self._equivocations)

    def __len__(self) -> int:
        return len(self._entries)

    def __getitem__(self, index: int) -> Entry:
        """The entry at ``index`` (negative indices count from the end), in O(1)."""
        return self._entries[index]

    def __iter__(self) -> Iterator[Envelope]:
        return (entry.envelope for entry in self._entries)

    # -- writing -----------------------------------------------------------------------------

    def sign_next(
        self, identity: Identity, seat: int, mtype: MessageType, body: Sequence[Wire]
    ) -> Envelope:
        """Sign a message from ``seat`` on the current head (does not append it)."""
        return Envelope.sign(
            identity,
            table_id=self.table_id,
            seat=seat,
            head=self.head,
            mtype=mtype,
            body=body,
            version=self._genesis.protocol_version,
        )

    def receive(self, data: bytes, check: Check | None = None) -> Entry:
        """Decode wire bytes and append them; see :meth:`append`."""
        return self.append(Envelope.decode(data, self._registry), check)

    def append(self, envelope: Envelope, check: Check | None = None) -> Entry:
        """Accept ``envelope`` as the next message or raise InvalidMessage.

        Checks, in order: table and version, seat, replay (by hash, before any signature check:
        the bytes were verified when first accepted), signature, head (with equivocation
        detection), type registered and not a second genesis, then ``check`` (the session's
        turn and game rules). Once the signature is verified every error names the seat.
        """
        encoded, digest = self._admit(envelope)
        if check is not None:
            try:
                check(self, envelope)
            except InvalidMessage as exc:
                exc.seat = envelope.seat
                raise
        return self._commit(envelope, encoded, digest)

    def _admit(self, envelope: Envelope) -> tuple[bytes, bytes]:
        if not isinstance(envelope, Envelope):
            raise TypeError("append() takes an Envelope")
        if envelope.table_id != self.table_id:
            raise InvalidMessage("wrong-table", phrase("session.why.message_another_table"))
        if envelope.version != self._genesis.protocol_version:
            raise InvalidMessage(
                "unsupported-version", phrase("session.why.protocol_version_differs_from_genesis")
            )
        if envelope.seat >= len(self._genesis.seats):
            raise InvalidMessage(
                "unknown-seat", phrase("session.why.seat_not_table", seat=envelope.seat + 1)
            )
        seat = envelope.seat
        encoded = envelope.encode()
        digest = message_hash(encoded)
        if digest in self._by_hash:
            # The same bytes were verified when they were accepted: a duplicate (catch-up sends
            # many) costs a hash, never a second signature check.
            index = self._by_hash[digest]
            raise ReplayedMessage("replay", phrase("session.why.replays", index=index), seat=seat)
        envelope.verify(self._keys[envelope.seat])
        if envelope.head != self.head:
            position = self._by_head.get(envelope.head)
            if position is not None and self._entries[position].envelope.seat == seat:
                raise EquivocationDetected(self._keep_evidence(position, envelope))
            raise InvalidMessage(
                "wrong-head", phrase("session.why.head_not_transcript_head"), seat=seat
            )
        if self._registry.by_code(envelope.type.code) != envelope.type:
            raise InvalidMessage(
                "unknown-type",
                phrase("session.why.not_accepted", type=envelope.type.name),
                seat=seat,
            )
        if envelope.type == GENESIS:
            raise InvalidMessage(
                "bad-genesis", phrase("session.why.second_genesis_message"), seat=seat
            )
        return encoded, digest

    def _keep_evidence(self, position: int, envelope: Envelope) -> Equivocation:
        first = self._entries[position].envelope
        evidence = Equivocation(envelope.seat, envelope.head, first, envelope)
        if evidence not in self._equivocations:
            self._equivocations.append(evidence)
        return evidence

    def _commit(self, envelope: Envelope, encoded: bytes, digest: bytes) -> Entry:
        entry = Entry(len(self._entries), envelope, encoded, digest)
        if envelope.type == CONTINUE:
            for seat, new in enumerate(Continuation.of(envelope).seats):
                if new.replaces is not None:  # the seat's new holder signs from here on
                    self._before[seat] = self._keys[seat]
                    self._keys[seat] = new.key
                    self._ever.add(new.key)
        self._by_hash[digest] = entry.index
        self._by_head[envelope.head] = entry.index
        self._entries.append(entry)
        return entry

    # -- file format -------------------------------------------------------------------------

    def to_bytes(self) -> bytes:
        """The transcript file: magic, message records in order, then equivocation records."""
        parts = [TRANSCRIPT_MAGIC]
        for entry in self._entries:
            parts += (_RECORD_HEADER.pack(RECORD_MESSAGE, len(entry.encoded)), entry.encoded)
        for evidence in self._equivocations:
            encoded = evidence.second.encode()
            parts += (_RECORD_HEADER.pack(RECORD_EQUIVOCATION, len(encoded)), encoded)
        return b"".join(parts)

    @classmethod
    def from_bytes(
        cls, data: bytes, registry: MessageRegistry, check: Check | None = None
    ) -> Transcript:
        """Parse and re-verify a transcript file; errors carry the failing record's ``index``.

        ``check`` is applied to every message after the genesis, as in :meth:`append`.
        """
        if type(data) is not bytes or not data.startswith(TRANSCRIPT_MAGIC):
            raise InvalidMessage("bad-file", phrase("session.why.not_p2p_dominoes_transcript_file"))
        transcript: Transcript | None = None
        offset = len(TRANSCRIPT_MAGIC)
        index = 0
        in_evidence = False
        while offset < len(data):
            try:
                kind, envelope, offset = _read_record(data, offset, registry)
                if transcript is None:
                    if kind != RECORD_MESSAGE:
                        raise InvalidMessage(
                            "bad-file", phrase("session.why.first_record_must_genesis")
                        )
                    transcript = cls(envelope, registry)
                elif kind == RECORD_MESSAGE and not in_evidence:
                    transcript.append(envelope, check)
                elif kind == RECORD_EQUIVOCATION:
                    in_evidence = True
                    transcript._load_evidence(envelope)
                else:
                    raise InvalidMessage(
                        "bad-file", phrase("session.why.message_record_after_evidence_records")
                    )
            except InvalidMessage as exc:
                exc.index = index
                raise
            index += 1
        if transcript is None:
            raise InvalidMessage("bad-file", phrase("session.why.transcript_has_no_genesis"))
        return transcript

    def _load_evidence(self, envelope: Envelope) -> None:
        try:
            self._admit(envelope)
        except EquivocationDetected:
            return
        raise InvalidMessage("bad-file", phrase("session.why.evidence_record_not_equivocation"))


def read_records(data: bytes, registry: MessageRegistry) -> Iterator[tuple[int, Envelope]]:
    """The (kind, envelope) records of a transcript file in order, without chain checks.

    Raises InvalidMessage (with the record's ``index``) at the first unreadable record.
    """
    if type(data) is not bytes or not data.startswith(TRANSCRIPT_MAGIC):
        raise InvalidMessage("bad-file", phrase("session.why.not_p2p_dominoes_transcript_file"))
    offset = len(TRANSCRIPT_MAGIC)
    index = 0
    while offset < len(data):
        try:
            kind, envelope, offset = _read_record(data, offset, registry)
        except InvalidMessage as exc:
            exc.index = index
            raise
        yield kind, envelope
        index += 1


def _read_record(data: bytes, offset: int, registry: MessageRegistry) -> tuple[int, Envelope, int]:
    if len(data) - offset < _RECORD_HEADER.size:
        raise InvalidMessage("bad-file", phrase("session.why.truncated_record_header"))
    kind, length = _RECORD_HEADER.unpack_from(data, offset)
    if kind not in (RECORD_MESSAGE, RECORD_EQUIVOCATION):
        raise InvalidMessage("bad-file", phrase("session.why.unknown_record_kind", kind=kind))
    start = offset + _RECORD_HEADER.size
    if length > len(data) - start:
        raise InvalidMessage("bad-file", phrase("session.why.truncated_record"))
    end = start + length
    return kind, Envelope.decode(data[start:end], registry), end
