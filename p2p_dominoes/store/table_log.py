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
and truncates the file back, so a torn record is never misread. The records, the header and
reading a log without changing it are `log_records.py`; the tables of a data directory, each
summed up from its log, are `table_list.py`.

The log holds bytes, not sessions: resuming replays its messages through a fresh
``TableSession``, which re-verifies every one. ``p2p-dominoes verify`` reads logs too
(:func:`log_records.transcript_bytes` turns one into a transcript file).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType

from p2p_dominoes.mental.errors import message_of
from p2p_dominoes.session.transcript import Transcript
from p2p_dominoes.store._atomic import PRIVATE_MODE, make_private_dirs, write_private_new
from p2p_dominoes.store.log_records import (
    KIND_EVIDENCE,
    KIND_FINISHED,
    KIND_HEADER,
    KIND_MESSAGE,
    KIND_PEERS,
    LOG_FILE_NAME,
    LOG_MAGIC,
    MAX_REASON_BYTES,
    LogHeader,
    PeerAddress,
    TableLogBusy,
    TableLogError,
    check_genesis,
    encode_record,
    log_path,
    pack,
    parse_log,
    read_log_bytes,
)
from p2p_dominoes.words import phrase

try:  # POSIX: one writer per log
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]


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
        check_genesis(genesis, header)
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
                contents = parse_log(read_log_bytes(path))
            except TableLogError as exc:
                raise type(exc)(
                    phrase("store.why.in_file", path=path, reason=message_of(exc))
                ) from None
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
                    raise TableLogBusy(
                        phrase("store.why.table_open_another_process", path=path)
                    ) from None
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
        self._write(KIND_PEERS, pack(items))

    def keep_evidence(self, envelope: bytes) -> None:
        """Keep a conflicting signed message (equivocation evidence) with the record."""
        self._write(KIND_EVIDENCE, envelope)

    def finish(self, reason: str) -> None:
        """Mark the table finished (``"over"``, or why it stopped); ``list_tables`` shows it."""
        if not isinstance(reason, str):  # a words.Phrase is kept as its (English) text
            raise TypeError("reason must be a str")
        data = str(reason).encode("utf-8", "replace")[:MAX_REASON_BYTES]
        self._write(KIND_FINISHED, pack(data.decode("utf-8", "ignore")))

    def _write(self, kind: int, payload: bytes) -> None:
        fd = self._fd
        if fd is None:
            raise TableLogError(phrase("store.why.log_closed", path=self._path))
        if self._broken is not None:
            raise TableLogError(
                phrase("store.why.earlier_write_failed", path=self._path, broken=self._broken)
            )
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
