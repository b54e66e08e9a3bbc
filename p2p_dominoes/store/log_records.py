"""The table log's format: its records, its header and what it holds, read from bytes.

The format (PROTOCOL.md §8.1): ``LOG_MAGIC``, then records ``kind ‖ length ‖ payload ‖ check``;
the first record is the header (table id, this peer's seat, the table's name, the hand limit),
the second the genesis, then messages, peers, evidence and the finish. The 8-byte check is a
truncated, domain-separated SHA-256 of the rest of the record.

Reading never changes the file: a torn last record is found by its length and check and left
out (``LogContents.dropped_bytes``); damage that a torn append cannot explain (unreadable bytes
followed by a good record, or more unreadable bytes than one record can hold) raises
:class:`LogCorrupted` instead of silently dropping messages. The writer that appends these
records is `table_log.TableLog`; ``p2p-dominoes verify`` reads logs with :func:`parse_log`
(:func:`transcript_bytes` turns one into a transcript file).
"""

from __future__ import annotations

import hashlib
import os
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import msgpack  # type: ignore[import-untyped]

from p2p_dominoes.mental.errors import message_of
from p2p_dominoes.session.envelope import MAX_ENVELOPE_SIZE, TABLE_ID_SIZE, Envelope
from p2p_dominoes.session.errors import InvalidMessage
from p2p_dominoes.session.genesis import GENESIS, Genesis
from p2p_dominoes.session.messages import default_registry
from p2p_dominoes.session.transcript import (
    RECORD_EQUIVOCATION,
    RECORD_MESSAGE,
    TRANSCRIPT_MAGIC,
    Transcript,
)
from p2p_dominoes.words import phrase

LOG_MAGIC: Final = b"P2PD-LG\x01"
LOG_FILE_NAME: Final = "table.log"
LOG_FORMAT_VERSION: Final = 1

KIND_HEADER: Final = 0x01
KIND_MESSAGE: Final = 0x02
KIND_PEERS: Final = 0x03
KIND_EVIDENCE: Final = 0x04
KIND_FINISHED: Final = 0x05
_KINDS: Final = frozenset({KIND_HEADER, KIND_MESSAGE, KIND_PEERS, KIND_EVIDENCE, KIND_FINISHED})

_RECORD_HEAD: Final = struct.Struct(">BI")
CHECK_SIZE: Final = 8
CHECK_DOMAIN: Final = b"p2p-dominoes v1 log record\x00"
MAX_RECORD_PAYLOAD: Final = MAX_ENVELOPE_SIZE
"""Largest payload of one record: an envelope is the largest thing a record holds."""
MAX_RECORD_SIZE: Final = _RECORD_HEAD.size + MAX_RECORD_PAYLOAD + CHECK_SIZE
MAX_LOG_SIZE: Final = 256 * 1024 * 1024
MAX_NAME_BYTES: Final = 64
MAX_REASON_BYTES: Final = 256


class TableLogError(Exception):
    """The table log cannot be used; the message is one line naming the file and why."""


class LogCorrupted(TableLogError):
    """The log is damaged in a way a crash during an append cannot explain."""


class TableLogBusy(TableLogError):
    """Another process has this table's log open (two peers resuming the same seat)."""


@dataclass(frozen=True)
class LogHeader:
    """What the log is of: the table, this peer's seat, the table's name and hand limit.

    The name (from the lobby and mDNS ad) and the hand limit (from the host's offer) are not in
    the genesis, and a resumed peer needs both.
    """

    table_id: bytes
    seat: int
    name: str = ""
    max_hands: int | None = None

    def __post_init__(self) -> None:
        if type(self.table_id) is not bytes or len(self.table_id) != TABLE_ID_SIZE:
            raise ValueError(phrase("store.why.table_id_must_bytes", table_id_size=TABLE_ID_SIZE))
        if type(self.seat) is not int or not 0 <= self.seat < 4:
            raise ValueError(phrase("store.why.seat_must_int_0_3"))
        if type(self.name) is not str or len(self.name.encode("utf-8")) > MAX_NAME_BYTES:
            raise ValueError(
                phrase("store.why.table_name_must_str_most", max_name_bytes=MAX_NAME_BYTES)
            )
        if self.max_hands is not None and (type(self.max_hands) is not int or self.max_hands < 1):
            raise ValueError(phrase("store.why.max_hands_must_none_or"))

    def to_bytes(self) -> bytes:
        """``msgpack([1, table_id, seat, name, max_hands])``."""
        return pack([LOG_FORMAT_VERSION, self.table_id, self.seat, self.name, self.max_hands])

    @classmethod
    def from_bytes(cls, data: bytes) -> LogHeader:
        """Parse a header record's payload; ValueError if it is not one."""
        value = _unpack(data)
        if not isinstance(value, tuple) or len(value) != 5:
            raise ValueError(phrase("store.why.header_not_array_5"))
        version, table_id, seat, name, max_hands = value
        if version != LOG_FORMAT_VERSION or type(version) is not int:
            raise ValueError(
                phrase("store.why.unsupported_log_format_version", version=repr(version))
            )
        return cls(table_id, seat, name, max_hands)


@dataclass(frozen=True)
class PeerAddress:
    """Where a seat's peer was last reached, so a resumed peer can dial it without mDNS."""

    seat: int
    host: str
    port: int

    def __post_init__(self) -> None:
        if type(self.seat) is not int or not 0 <= self.seat < 4:
            raise ValueError(phrase("store.why.seat_must_int_0_3"))
        if type(self.host) is not str or not 0 < len(self.host.encode("utf-8")) <= 255:
            raise ValueError(phrase("store.why.host_must_non_empty_str"))
        if type(self.port) is not int or not 0 < self.port <= 65535:
            raise ValueError(phrase("store.why.port_must_int_1_65535"))


@dataclass(frozen=True)
class LogContents:
    """Everything a log holds, read without changing the file.

    ``messages`` are the transcript's envelopes in order, the genesis first, exactly as
    accepted. ``valid_size`` is how many bytes of the file are good; ``dropped_bytes`` how many
    after them were a torn last record.
    """

    header: LogHeader
    genesis: Genesis
    messages: tuple[bytes, ...]
    peers: tuple[PeerAddress, ...]
    evidence: tuple[bytes, ...]
    finished: str | None
    valid_size: int
    dropped_bytes: int

    def transcript_bytes(self) -> bytes:
        """The same record as a transcript file (PROTOCOL.md §8), for ``verify`` and sharing."""
        return transcript_bytes(self)


# -- records -----------------------------------------------------------------------------------


def pack(value: object) -> bytes:
    """`value` as msgpack (binary as bin): the payload of a header, peers or finish record."""
    packed = msgpack.packb(value, use_bin_type=True)
    assert isinstance(packed, bytes)
    return packed


def _unpack(data: bytes) -> object:
    try:
        return msgpack.unpackb(
            data,
            raw=False,
            use_list=False,
            strict_map_key=True,
            timestamp=0,
            max_map_len=0,
            max_ext_len=0,
        )
    except Exception as exc:  # msgpack raises many types; all mean "not ours"
        raise ValueError(phrase("store.why.not_valid_msgpack", kind=type(exc).__name__)) from None


def _check(head: bytes, payload: bytes) -> bytes:
    return hashlib.sha256(CHECK_DOMAIN + head + payload).digest()[:CHECK_SIZE]


def encode_record(kind: int, payload: bytes) -> bytes:
    """One record: ``kind:u8 ‖ length:u32be ‖ payload ‖ check[8]``.

    ``check = SHA-256(CHECK_DOMAIN ‖ kind ‖ length ‖ payload)[:8]``.
    """
    if kind not in _KINDS:
        raise ValueError(phrase("store.why.unknown_record_kind", kind=kind))
    if type(payload) is not bytes or len(payload) > MAX_RECORD_PAYLOAD:
        raise ValueError(
            phrase("store.why.record_payload_bytes_most", max_record_payload=MAX_RECORD_PAYLOAD)
        )
    head = _RECORD_HEAD.pack(kind, len(payload))
    return head + payload + _check(head, payload)


def _record_at(data: bytes, offset: int) -> tuple[int, bytes, int] | None:
    """The (kind, payload, end) of a whole, checked record at ``offset``, or None."""
    if len(data) - offset < _RECORD_HEAD.size:
        return None
    kind, length = _RECORD_HEAD.unpack_from(data, offset)
    if length > MAX_RECORD_PAYLOAD:
        return None
    start = offset + _RECORD_HEAD.size
    end = start + length + CHECK_SIZE
    if end > len(data):
        return None
    payload = data[start : start + length]
    if _check(data[offset:start], payload) != data[start + length : end]:
        return None
    return kind, payload, end


def _scan(data: bytes) -> tuple[list[tuple[int, bytes]], int]:
    """The whole records from the start and the size they cover; LogCorrupted for bad damage."""
    records: list[tuple[int, bytes]] = []
    offset = len(LOG_MAGIC)
    while offset < len(data):
        found = _record_at(data, offset)
        if found is None:
            break
        kind, payload, offset = found
        records.append((kind, payload))
    dropped = len(data) - offset
    if dropped > MAX_RECORD_SIZE:
        raise LogCorrupted(
            phrase("store.why.unreadable_bytes_offset_more_than", dropped=dropped, offset=offset)
        )
    if dropped >= _RECORD_HEAD.size:
        # A record whose length is intact but whose bytes are bad, followed by a good record,
        # is damage in the middle of the log: a crash tears only the last record.
        _, length = _RECORD_HEAD.unpack_from(data, offset)
        after = offset + _RECORD_HEAD.size + length + CHECK_SIZE
        if length <= MAX_RECORD_PAYLOAD and after < len(data) and _record_at(data, after):
            raise LogCorrupted(phrase("store.why.record_offset_damaged_and_not", offset=offset))
    return records, offset


def parse_log(data: bytes) -> LogContents:
    """Read a log's bytes: drop a torn last record; LogCorrupted (or TableLogError) otherwise."""
    if type(data) is not bytes or not data.startswith(LOG_MAGIC):
        raise TableLogError(phrase("store.why.not_p2p_dominoes_table_log"))
    records, valid = _scan(data)
    if len(records) < 2 or records[0][0] != KIND_HEADER or records[1][0] != KIND_MESSAGE:
        raise LogCorrupted(phrase("store.why.log_does_not_start_with"))
    try:
        header = LogHeader.from_bytes(records[0][1])
    except ValueError as exc:
        raise LogCorrupted(phrase("store.why.bad_header", reason=message_of(exc))) from None
    messages: list[bytes] = []
    peers: tuple[PeerAddress, ...] = ()
    evidence: list[bytes] = []
    finished: str | None = None
    for kind, payload in records[1:]:
        if kind == KIND_MESSAGE:
            messages.append(payload)
        elif kind == KIND_PEERS:
            peers = _parse_peers(payload)
        elif kind == KIND_EVIDENCE:
            evidence.append(payload)
        elif kind == KIND_FINISHED:
            finished = _parse_finished(payload)
        else:
            raise LogCorrupted(phrase("store.why.record_kind_not_known_newer", kind=kind))
    genesis = check_genesis(messages[0], header)
    return LogContents(
        header, genesis, tuple(messages), peers, tuple(evidence), finished, valid, len(data) - valid
    )


def check_genesis(data: bytes, header: LogHeader) -> Genesis:
    """The genesis in `data`, checked to be a genesis of the table and seat `header` names;
    LogCorrupted otherwise."""
    try:
        envelope = Envelope.decode(data, default_registry())
        if envelope.type != GENESIS:
            raise InvalidMessage("bad-genesis", phrase("store.why.first_message_not_genesis"))
        genesis = Transcript(envelope, default_registry()).genesis
    except InvalidMessage as exc:
        raise LogCorrupted(phrase("store.why.bad_genesis", reason=exc.reason)) from None
    if genesis.table_id != header.table_id:
        raise LogCorrupted(phrase("store.why.header_and_genesis_name_different"))
    if header.seat >= len(genesis.seats):
        raise LogCorrupted(phrase("store.why.seat_not_table", seat=header.seat + 1))
    return genesis


def _parse_peers(payload: bytes) -> tuple[PeerAddress, ...]:
    try:
        value = _unpack(payload)
        if not isinstance(value, tuple):
            raise ValueError(phrase("store.why.not_array"))
        peers = []
        for item in value:
            if not isinstance(item, tuple) or len(item) != 3:
                raise ValueError(phrase("store.why.peer_seat_host_port"))
            peers.append(PeerAddress(*item))
    except ValueError as exc:
        raise LogCorrupted(phrase("store.why.bad_peers_record", reason=message_of(exc))) from None
    return tuple(peers)


def _parse_finished(payload: bytes) -> str:
    value = _unpack(payload) if payload else None
    if not isinstance(value, str):
        raise LogCorrupted(phrase("store.why.bad_finished_record"))
    return value


def transcript_bytes(contents: LogContents) -> bytes:
    """A transcript file (PROTOCOL.md §8) with the log's messages, then its evidence."""
    parts = [TRANSCRIPT_MAGIC]
    sections = ((RECORD_MESSAGE, contents.messages), (RECORD_EQUIVOCATION, contents.evidence))
    for kind, items in sections:
        for item in items:
            parts += (struct.pack(">BI", kind, len(item)), item)
    return b"".join(parts)


def read_log_bytes(path: Path) -> bytes:
    """The bytes of the log file at `path` (at most MAX_LOG_SIZE; TableLogError otherwise)."""
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_LOG_SIZE + 1)
    except FileNotFoundError:
        raise
    except OSError as exc:
        raise TableLogError(
            phrase("store.why.cannot_read_table_log", path=path, system=exc.strerror or exc)
        ) from None
    if len(data) > MAX_LOG_SIZE:
        raise TableLogError(phrase("store.why.log_too_large", path=path, max_log_size=MAX_LOG_SIZE))
    return data


def log_path(directory: str | os.PathLike[str]) -> Path:
    """The log file of a table directory (or ``directory`` itself when it is a log file)."""
    path = Path(directory)
    return path if path.is_file() else path / LOG_FILE_NAME


def read_log(path: str | os.PathLike[str]) -> LogContents:
    """Read a table log (a table directory or the file) without changing it.

    A torn last record is left out (``dropped_bytes``); other damage raises LogCorrupted, naming
    the file. FileNotFoundError if there is no log.
    """
    file = log_path(path)
    try:
        return parse_log(read_log_bytes(file))
    except TableLogError as exc:
        raise type(exc)(phrase("store.why.in_file", path=file, reason=message_of(exc))) from None
