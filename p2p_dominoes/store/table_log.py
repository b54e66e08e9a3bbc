"""The crash-safe table log: every accepted message on disk before the peer acts on it.

One append-only file per table (``DATA/tables/<table id hex>/table.log``, mode 0600, in a 0700
directory; format in PROTOCOL.md §8.1). It starts with a header (table id, this peer's seat,
the table's name, the hand limit) and the genesis message, written together atomically, so a
log that exists is never without them. Then each accepted transcript message is appended as
one record ``kind ‖ length ‖ payload ‖ check`` and the file is fsynced before
:meth:`TableLog.append` returns: the runtime may act on (send, answer, show) a message only
after that. The 8-byte check is a truncated, domain-separated SHA-256 of the rest of the record.

A crash during an append leaves at most that one record torn (short, or its bytes not all on
disk). Opening the log finds it by its length and check, drops it (reporting how many bytes)
and truncates the file back, so a torn record is never misread. Damage that a torn append
cannot explain (unreadable bytes followed by a good record, or more unreadable bytes than one
record can hold) raises :class:`LogCorrupted` instead of silently dropping messages.

The log holds bytes, not sessions: resuming replays its messages through a fresh
``TableSession``, which re-verifies every one. ``p2p-dominoes verify`` reads logs too
(:func:`transcript_bytes` turns one into a transcript file).
"""

from __future__ import annotations

import hashlib
import os
import struct
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Final

import msgpack  # type: ignore[import-untyped]

from p2p_dominoes.session import LOTTERY_STALL
from p2p_dominoes.session.envelope import MAX_ENVELOPE_SIZE, TABLE_ID_SIZE, Envelope
from p2p_dominoes.session.errors import InvalidMessage
from p2p_dominoes.session.genesis import GENESIS, Genesis
from p2p_dominoes.session.identity import PublicIdentity
from p2p_dominoes.session.messages import default_registry
from p2p_dominoes.session.transcript import (
    RECORD_EQUIVOCATION,
    RECORD_MESSAGE,
    TRANSCRIPT_MAGIC,
    Transcript,
)
from p2p_dominoes.store._atomic import PRIVATE_MODE, make_private_dirs, write_private_new
from p2p_dominoes.store.paths import tables_dir

try:  # POSIX: one writer per log
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

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
            raise ValueError(f"table id must be {TABLE_ID_SIZE} bytes")
        if type(self.seat) is not int or not 0 <= self.seat < 4:
            raise ValueError("seat must be an int in 0..3")
        if type(self.name) is not str or len(self.name.encode("utf-8")) > MAX_NAME_BYTES:
            raise ValueError(f"table name must be a str of at most {MAX_NAME_BYTES} bytes")
        if self.max_hands is not None and (type(self.max_hands) is not int or self.max_hands < 1):
            raise ValueError("max_hands must be None or a positive int")

    def to_bytes(self) -> bytes:
        """``msgpack([1, table_id, seat, name, max_hands])``."""
        return _pack([LOG_FORMAT_VERSION, self.table_id, self.seat, self.name, self.max_hands])

    @classmethod
    def from_bytes(cls, data: bytes) -> LogHeader:
        """Parse a header record's payload; ValueError if it is not one."""
        value = _unpack(data)
        if not isinstance(value, tuple) or len(value) != 5:
            raise ValueError("header is not an array of 5")
        version, table_id, seat, name, max_hands = value
        if version != LOG_FORMAT_VERSION or type(version) is not int:
            raise ValueError(f"unsupported log format version {version!r}")
        return cls(table_id, seat, name, max_hands)


@dataclass(frozen=True)
class PeerAddress:
    """Where a seat's peer was last reached, so a resumed peer can dial it without mDNS."""

    seat: int
    host: str
    port: int

    def __post_init__(self) -> None:
        if type(self.seat) is not int or not 0 <= self.seat < 4:
            raise ValueError("seat must be an int in 0..3")
        if type(self.host) is not str or not 0 < len(self.host.encode("utf-8")) <= 255:
            raise ValueError("host must be a non-empty str of at most 255 bytes")
        if type(self.port) is not int or not 0 < self.port <= 65535:
            raise ValueError("port must be an int in 1..65535")


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


def _pack(value: object) -> bytes:
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
        raise ValueError(f"not valid msgpack ({type(exc).__name__})") from None


def _check(head: bytes, payload: bytes) -> bytes:
    return hashlib.sha256(CHECK_DOMAIN + head + payload).digest()[:CHECK_SIZE]


def encode_record(kind: int, payload: bytes) -> bytes:
    """One record: ``kind:u8 ‖ length:u32be ‖ payload ‖ check[8]``.

    ``check = SHA-256(CHECK_DOMAIN ‖ kind ‖ length ‖ payload)[:8]``.
    """
    if kind not in _KINDS:
        raise ValueError(f"unknown record kind {kind}")
    if type(payload) is not bytes or len(payload) > MAX_RECORD_PAYLOAD:
        raise ValueError(f"a record payload is bytes of at most {MAX_RECORD_PAYLOAD}")
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
            f"{dropped} unreadable bytes at offset {offset}: more than one torn record"
        )
    if dropped >= _RECORD_HEAD.size:
        # A record whose length is intact but whose bytes are bad, followed by a good record,
        # is damage in the middle of the log: a crash tears only the last record.
        _, length = _RECORD_HEAD.unpack_from(data, offset)
        after = offset + _RECORD_HEAD.size + length + CHECK_SIZE
        if length <= MAX_RECORD_PAYLOAD and after < len(data) and _record_at(data, after):
            raise LogCorrupted(f"the record at offset {offset} is damaged and not the last")
    return records, offset


def parse_log(data: bytes) -> LogContents:
    """Read a log's bytes: drop a torn last record; LogCorrupted (or TableLogError) otherwise."""
    if type(data) is not bytes or not data.startswith(LOG_MAGIC):
        raise TableLogError("not a p2p-dominoes table log")
    records, valid = _scan(data)
    if len(records) < 2 or records[0][0] != KIND_HEADER or records[1][0] != KIND_MESSAGE:
        raise LogCorrupted("the log does not start with its header and genesis")
    try:
        header = LogHeader.from_bytes(records[0][1])
    except ValueError as exc:
        raise LogCorrupted(f"bad header: {exc}") from None
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
            raise LogCorrupted(f"record kind {kind} is not known (a newer program's log?)")
    genesis = _check_genesis(messages[0], header)
    return LogContents(
        header, genesis, tuple(messages), peers, tuple(evidence), finished, valid, len(data) - valid
    )


def _check_genesis(data: bytes, header: LogHeader) -> Genesis:
    try:
        envelope = Envelope.decode(data, default_registry())
        if envelope.type != GENESIS:
            raise InvalidMessage("bad-genesis", "the first message is not a genesis")
        genesis = Transcript(envelope, default_registry()).genesis
    except InvalidMessage as exc:
        raise LogCorrupted(f"bad genesis: {exc.reason}") from None
    if genesis.table_id != header.table_id:
        raise LogCorrupted("the header and the genesis name different tables")
    if header.seat >= len(genesis.seats):
        raise LogCorrupted(f"seat {header.seat + 1} is not at this table")
    return genesis


def _parse_peers(payload: bytes) -> tuple[PeerAddress, ...]:
    try:
        value = _unpack(payload)
        if not isinstance(value, tuple):
            raise ValueError("not an array")
        peers = []
        for item in value:
            if not isinstance(item, tuple) or len(item) != 3:
                raise ValueError("a peer is [seat, host, port]")
            peers.append(PeerAddress(*item))
    except ValueError as exc:
        raise LogCorrupted(f"bad peers record: {exc}") from None
    return tuple(peers)


def _parse_finished(payload: bytes) -> str:
    value = _unpack(payload) if payload else None
    if not isinstance(value, str):
        raise LogCorrupted("bad finished record")
    return value


def transcript_bytes(contents: LogContents) -> bytes:
    """A transcript file (PROTOCOL.md §8) with the log's messages, then its evidence."""
    parts = [TRANSCRIPT_MAGIC]
    sections = ((RECORD_MESSAGE, contents.messages), (RECORD_EQUIVOCATION, contents.evidence))
    for kind, items in sections:
        for item in items:
            parts += (struct.pack(">BI", kind, len(item)), item)
    return b"".join(parts)


def _read(path: Path) -> bytes:
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_LOG_SIZE + 1)
    except FileNotFoundError:
        raise
    except OSError as exc:
        raise TableLogError(f"{path}: cannot read the table log ({exc.strerror or exc})") from None
    if len(data) > MAX_LOG_SIZE:
        raise TableLogError(f"{path}: larger than {MAX_LOG_SIZE} bytes")
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
        return parse_log(_read(file))
    except TableLogError as exc:
        raise type(exc)(f"{file}: {exc}") from None


# -- the writer --------------------------------------------------------------------------------


class TableLog:
    """The open, locked log of one table, appending with an fsync per record.

    Use :meth:`create` for a new table and :meth:`open` to resume; both hold an exclusive lock
    (POSIX ``flock``) until :meth:`close`, so two processes never write one log.
    """

    def __init__(self, path: Path, fd: int, header: LogHeader, messages: Sequence[bytes]) -> None:
        """Internal: use :meth:`create` or :meth:`open`."""
        self._path = path
        self._fd: int | None = fd
        self._header = header
        self._count = len(messages)
        self._last = messages[-1] if messages else b""
        self._broken: str | None = None

    # -- opening ---------------------------------------------------------------------------

    @classmethod
    def create(
        cls,
        directory: str | os.PathLike[str],
        table_id: bytes,
        seat: int,
        genesis: bytes,
        *,
        name: str = "",
        max_hands: int | None = None,
    ) -> TableLog:
        """Start the log of a new table in ``directory`` (made 0700 with missing parents).

        The header and the genesis envelope are written in one atomic step (temp file, fsync,
        link), so the log either does not exist or has both. FileExistsError if the table
        already has a log; LogCorrupted if ``genesis`` is not this table's genesis.
        """
        header = LogHeader(table_id, seat, name, max_hands)
        _check_genesis(genesis, header)
        path = Path(directory) / LOG_FILE_NAME
        make_private_dirs(path.parent)
        data = (
            LOG_MAGIC
            + encode_record(KIND_HEADER, header.to_bytes())
            + encode_record(KIND_MESSAGE, genesis)
        )
        write_private_new(path, data)
        fd = cls._open_locked(path)
        return cls(path, fd, header, [genesis])

    @classmethod
    def open(cls, directory: str | os.PathLike[str]) -> tuple[TableLog, list[bytes], int]:
        """Open a table's log to resume: the log, its messages (genesis first), bytes dropped.

        A torn last record is dropped and the file truncated back to its last whole record
        (then fsynced), so the next append follows good data. Raises FileNotFoundError,
        TableLogBusy, LogCorrupted or TableLogError.
        """
        path = log_path(directory)
        fd = cls._open_locked(path)
        try:
            try:
                contents = parse_log(_read(path))
            except TableLogError as exc:
                raise type(exc)(f"{path}: {exc}") from None
            if contents.dropped_bytes:
                os.ftruncate(fd, contents.valid_size)
                os.fsync(fd)
        except BaseException:
            os.close(fd)
            raise
        log = cls(path, fd, contents.header, contents.messages)
        return log, list(contents.messages), contents.dropped_bytes

    @staticmethod
    def _open_locked(path: Path) -> int:
        fd = os.open(path, os.O_RDWR | os.O_APPEND | getattr(os, "O_NOFOLLOW", 0))
        try:
            if fcntl is not None:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    raise TableLogBusy(f"{path}: the table is open in another process") from None
            if os.fstat(fd).st_mode & 0o077:
                os.fchmod(fd, PRIVATE_MODE)
        except BaseException:
            os.close(fd)
            raise
        return fd

    # -- reading ---------------------------------------------------------------------------

    @property
    def path(self) -> Path:
        """The log file."""
        return self._path

    @property
    def header(self) -> LogHeader:
        """The table id, seat, name and hand limit the log was created with."""
        return self._header

    @property
    def messages(self) -> int:
        """How many messages (the genesis included) are safely on disk."""
        return self._count

    # -- appending ---------------------------------------------------------------------------

    def append(self, envelope: bytes) -> None:
        """Append one accepted message and fsync; once this returns the message survives a crash.

        On a write or fsync failure the log is cut back to its last whole record and refuses
        further appends (OSError, then TableLogError): a peer that cannot keep its record must
        not go on playing.
        """
        self._write(KIND_MESSAGE, envelope)
        self._count += 1
        self._last = envelope

    def sync(self, transcript: Transcript) -> int:
        """Append the transcript's entries that the log does not hold yet; returns how many.

        The runtime calls this after every session call and before sending or acting on what
        it produced. ValueError if the transcript does not extend what the log holds.
        """
        if len(transcript) < self._count or transcript[self._count - 1].encoded != self._last:
            raise ValueError("the transcript does not extend the log")
        added = 0
        for entry in transcript.entries[self._count :]:
            self.append(entry.encoded)
            added += 1
        return added

    def note_peers(self, peers: Sequence[PeerAddress]) -> None:
        """Remember where the other seats were reached (the last such record counts)."""
        items = [(p.seat, p.host, p.port) for p in peers]
        self._write(KIND_PEERS, _pack(items))

    def keep_evidence(self, envelope: bytes) -> None:
        """Keep a conflicting signed message (equivocation evidence) with the record."""
        self._write(KIND_EVIDENCE, envelope)

    def finish(self, reason: str) -> None:
        """Mark the table finished (``"over"``, or why it stopped); ``list_tables`` shows it."""
        if type(reason) is not str:
            raise TypeError("reason must be a str")
        data = reason.encode("utf-8", "replace")[:MAX_REASON_BYTES]
        self._write(KIND_FINISHED, _pack(data.decode("utf-8", "ignore")))

    def _write(self, kind: int, payload: bytes) -> None:
        fd = self._fd
        if fd is None:
            raise TableLogError(f"{self._path}: the log is closed")
        if self._broken is not None:
            raise TableLogError(f"{self._path}: an earlier write failed ({self._broken})")
        record = encode_record(kind, payload)
        size = os.fstat(fd).st_size
        try:
            view = memoryview(record)
            while view:
                view = view[os.write(fd, view) :]
            os.fsync(fd)
        except OSError as exc:
            self._broken = exc.strerror or str(exc)
            try:
                os.ftruncate(fd, size)
                os.fsync(fd)
            except OSError:
                pass  # the next open drops the torn record anyway
            raise

    # -- closing ---------------------------------------------------------------------------

    def close(self) -> None:
        """Release the lock and the file; further appends raise TableLogError."""
        if self._fd is not None:
            fd, self._fd = self._fd, None
            os.close(fd)

    def __enter__(self) -> TableLog:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def __del__(self) -> None:
        if getattr(self, "_fd", None) is not None:
            self.close()


# -- the tables of a data directory ------------------------------------------------------------


@dataclass(frozen=True)
class TableSummary:
    """One table found in the data directory, for ``resume`` and listings.

    ``problem`` is set (and the other facts may be missing) when the log cannot be read.
    """

    directory: Path
    table_id: bytes
    name: str
    seat: int
    players: tuple[str, ...]
    messages: int
    finished: bool
    finish_reason: str | None
    modified: float
    dropped_bytes: int = 0
    problem: str | None = None


def list_tables(data: str | os.PathLike[str]) -> list[TableSummary]:
    """Every table with a log under ``DATA/tables``, the most recently written first."""
    root = tables_dir(data)
    try:
        children = sorted(root.iterdir())
    except FileNotFoundError:
        return []
    found: list[TableSummary] = []
    for child in children:
        path = child / LOG_FILE_NAME
        try:
            modified = path.stat().st_mtime
        except OSError:
            continue
        try:
            contents = read_log(path)
        except (TableLogError, OSError) as exc:
            try:
                table_id = bytes.fromhex(child.name)
            except ValueError:
                table_id = b""
            found.append(
                TableSummary(child, table_id, "", 0, (), 0, False, None, modified, 0, str(exc))
            )
            continue
        header = contents.header
        found.append(
            TableSummary(
                directory=child,
                table_id=header.table_id,
                name=header.name,
                seat=header.seat,
                players=tuple(seat.name for seat in contents.genesis.seats),
                messages=len(contents.messages),
                finished=contents.finished is not None,
                finish_reason=contents.finished,
                modified=modified,
                dropped_bytes=contents.dropped_bytes,
            )
        )
    found.sort(key=lambda summary: summary.modified, reverse=True)
    return found


@dataclass(frozen=True)
class LotteryStall:
    """An earlier table of this data directory that a seat stopped during the opener lottery."""

    key: PublicIdentity
    name: str
    """The player's name at that table."""
    table: str
    """That table's name (or the start of its id)."""
    modified: float


def lottery_stalls(
    data: str | os.PathLike[str], keys: Iterable[PublicIdentity]
) -> list[LotteryStall]:
    """The earlier tables, most recent first, that one of ``keys`` stopped by going silent
    during the opener lottery (its finish record says so, naming the seat)."""
    wanted = set(keys)
    found = []
    for summary in list_tables(data):
        reason = summary.finish_reason or ""
        seat_text, _, said = reason.partition(": ")
        if LOTTERY_STALL not in said or not seat_text.startswith("seat "):
            continue
        try:
            seat = int(seat_text.removeprefix("seat "))
            seats = read_log(summary.directory / LOG_FILE_NAME).genesis.seats
        except (ValueError, TableLogError, OSError):
            continue
        if 0 <= seat < len(seats) and seats[seat].key in wanted:
            table = summary.name or summary.table_id.hex()[:8]
            found.append(LotteryStall(seats[seat].key, seats[seat].name, table, summary.modified))
    return found


__all__ = [
    "CHECK_SIZE",
    "LOG_FILE_NAME",
    "LOG_MAGIC",
    "MAX_RECORD_PAYLOAD",
    "LogContents",
    "LogCorrupted",
    "LogHeader",
    "LotteryStall",
    "PeerAddress",
    "TableLog",
    "TableLogBusy",
    "TableLogError",
    "TableSummary",
    "list_tables",
    "log_path",
    "lottery_stalls",
    "parse_log",
    "read_log",
    "transcript_bytes",
]
