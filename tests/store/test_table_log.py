"""The table log: appended and fsynced per message, torn last records dropped, damage refused."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from p2p_dominoes.session import Transcript, default_registry
from p2p_dominoes.store import (
    LOG_FILE_NAME,
    LogCorrupted,
    PeerAddress,
    TableLog,
    TableLogBusy,
    TableLogError,
    read_log,
)
from p2p_dominoes.store.log_records import (
    CHECK_SIZE,
    KIND_MESSAGE,
    LOG_MAGIC,
    MAX_RECORD_SIZE,
    encode_record,
    parse_log,
)
from tests.store.logs import messages, played_transcript, write_log


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_log_reopens_with_every_message_in_order(tmp_path: Path) -> None:
    held = write_log(tmp_path / "t")
    log, reopened, dropped = TableLog.open(tmp_path / "t")
    with log:
        assert reopened == held and dropped == 0
        assert log.messages == len(held)
        assert (log.header.seat, log.header.name, log.header.max_hands) == (1, "Kitchen", 1)
        assert log.header.table_id == played_transcript().table_id


def test_the_log_file_is_0600_in_0700_directories(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        write_log(tmp_path / "data" / "tables" / "abc", count=3)
    finally:
        os.umask(old)
    assert mode(tmp_path / "data" / "tables" / "abc" / LOG_FILE_NAME) == 0o600
    for directory in ("data", "data/tables", "data/tables/abc"):
        assert mode(tmp_path / directory) == 0o700, directory


def test_a_table_has_one_log_and_one_writer(tmp_path: Path) -> None:
    write_log(tmp_path, count=2)
    genesis = messages()[0]
    with pytest.raises(FileExistsError):
        TableLog.create(tmp_path, played_transcript().table_id, 0, genesis)
    log, _, _ = TableLog.open(tmp_path)
    with log, pytest.raises(TableLogBusy):
        TableLog.open(tmp_path)
    TableLog.open(tmp_path)[0].close()  # free again once closed


def test_create_refuses_a_genesis_of_another_table(tmp_path: Path) -> None:
    with pytest.raises(LogCorrupted, match="different tables"):
        TableLog.create(tmp_path, bytes(16), 0, messages()[0])
    assert not (tmp_path / LOG_FILE_NAME).exists()


def test_sync_appends_what_the_transcript_accepted_since(tmp_path: Path) -> None:
    transcript = played_transcript()
    write_log(tmp_path, count=5)
    log, _, _ = TableLog.open(tmp_path)
    with log:
        assert log.sync(transcript) == len(transcript) - 5
        assert log.sync(transcript) == 0
    assert read_log(tmp_path).messages == tuple(messages())


def test_sync_refuses_a_transcript_that_does_not_extend_the_log(tmp_path: Path) -> None:
    other = played_transcript(3)
    write_log(tmp_path, count=5)
    log, _, _ = TableLog.open(tmp_path)
    with log, pytest.raises(ValueError, match="does not extend"):
        log.sync(other)


def test_peers_evidence_and_the_end_are_kept(tmp_path: Path) -> None:
    write_log(tmp_path, count=3)
    log, _, _ = TableLog.open(tmp_path)
    with log:
        log.note_peers([PeerAddress(0, "192.0.2.1", 47800)])
        log.note_peers([PeerAddress(0, "192.0.2.7", 47800), PeerAddress(1, "fe80::1", 1)])
        log.keep_evidence(messages()[4])
        log.finish("over")
    contents = read_log(tmp_path / LOG_FILE_NAME)
    assert contents.peers == (PeerAddress(0, "192.0.2.7", 47800), PeerAddress(1, "fe80::1", 1))
    assert contents.evidence == (messages()[4],)
    assert contents.finished == "over"
    assert len(contents.messages) == 3


def test_a_closed_log_refuses_appends(tmp_path: Path) -> None:
    write_log(tmp_path, count=2)
    log, _, _ = TableLog.open(tmp_path)
    log.close()
    with pytest.raises(TableLogError, match="closed"):
        log.append(messages()[2])


def test_a_failed_fsync_cuts_the_record_back_and_stops_the_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_log(tmp_path, count=2)
    log, _, _ = TableLog.open(tmp_path)
    size = (tmp_path / LOG_FILE_NAME).stat().st_size
    real_fsync = os.fsync

    def failing_fsync(fd: int) -> None:
        monkeypatch.setattr(os, "fsync", real_fsync)
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "fsync", failing_fsync)
    with log:
        with pytest.raises(OSError):
            log.append(messages()[2])
        assert (tmp_path / LOG_FILE_NAME).stat().st_size == size
        with pytest.raises(TableLogError, match="earlier write failed"):
            log.append(messages()[2])


# -- torn writes ---------------------------------------------------------------------------


def whole_and_last_start(directory: Path) -> tuple[bytes, int]:
    data = (directory / LOG_FILE_NAME).read_bytes()
    last = encode_record(KIND_MESSAGE, messages()[-1])
    assert data.endswith(last)
    return data, len(data) - len(last)


def test_a_log_cut_at_every_byte_of_its_last_record_keeps_every_earlier_message(
    tmp_path: Path,
) -> None:
    held = write_log(tmp_path / "good")
    data, start = whole_and_last_start(tmp_path / "good")
    for cut in range(start, len(data)):
        contents = parse_log(data[:cut])
        assert contents.messages == tuple(held[:-1]), cut
        assert (contents.valid_size, contents.dropped_bytes) == (start, cut - start)


def test_opening_a_torn_log_truncates_it_and_appending_goes_on(tmp_path: Path) -> None:
    held = write_log(tmp_path / "good")
    data, start = whole_and_last_start(tmp_path / "good")
    path = tmp_path / LOG_FILE_NAME
    cuts = {start + 1, start + 4, start + 5, start + 6, len(data) - 1, *range(start, len(data), 7)}
    for cut in sorted(cuts):
        path.write_bytes(data[:cut])
        os.chmod(path, 0o600)
        log, reopened, dropped = TableLog.open(tmp_path)
        with log:
            assert (reopened, dropped) == (held[:-1], cut - start)
            assert path.stat().st_size == start
            log.append(held[-1])
        assert path.read_bytes() == data


def test_a_last_record_with_any_byte_changed_is_dropped_not_misread(tmp_path: Path) -> None:
    held = write_log(tmp_path)
    data, start = whole_and_last_start(tmp_path)
    for at in range(start, len(data)):
        damaged = bytearray(data)
        damaged[at] ^= 0xFF
        contents = parse_log(bytes(damaged))
        assert contents.messages == tuple(held[:-1]), at
        assert contents.dropped_bytes == len(data) - start


def test_a_last_record_whose_tail_never_reached_the_disk_is_dropped(tmp_path: Path) -> None:
    held = write_log(tmp_path)
    data, start = whole_and_last_start(tmp_path)
    # The hand is dealt afresh each run, so the check may end in zero bytes by chance (1 in 256):
    # zeroing from the last non-zero byte on is the shortest tail that changes what is on disk.
    kept = len(data.rstrip(b"\0")) - 1 - start
    for written in (0, 3, 5, 40, min(len(data) - start - CHECK_SIZE, kept), kept):
        zeroed = data[: start + written] + bytes(len(data) - start - written)
        assert zeroed != data
        assert parse_log(zeroed).messages == tuple(held[:-1]), written


def test_damage_before_the_last_record_is_refused_not_dropped(tmp_path: Path) -> None:
    held = write_log(tmp_path)
    data, start = whole_and_last_start(tmp_path)
    before_last = start - len(encode_record(KIND_MESSAGE, held[-2]))
    for at in (len(LOG_MAGIC) + 8, before_last + 20, start - 1):
        damaged = bytearray(data)
        damaged[at] ^= 0x01
        with pytest.raises(LogCorrupted):
            parse_log(bytes(damaged))


def test_more_garbage_than_one_record_is_refused(tmp_path: Path) -> None:
    write_log(tmp_path, count=3)
    data = (tmp_path / LOG_FILE_NAME).read_bytes()
    with pytest.raises(LogCorrupted, match="more than one torn record"):
        parse_log(data + b"\xff" * (MAX_RECORD_SIZE + 1))
    assert parse_log(data + b"\xff" * MAX_RECORD_SIZE).dropped_bytes == MAX_RECORD_SIZE


@pytest.mark.parametrize(
    "data", [b"", b"P2PD", b"P2PD-TX\x01", LOG_MAGIC, LOG_MAGIC + encode_record(KIND_MESSAGE, b"x")]
)
def test_what_is_not_a_whole_log_is_refused(data: bytes) -> None:
    with pytest.raises(TableLogError):
        parse_log(data)


def test_read_log_names_the_file(tmp_path: Path) -> None:
    (tmp_path / LOG_FILE_NAME).write_bytes(b"junk")
    with pytest.raises(TableLogError, match=str(tmp_path)):
        read_log(tmp_path)


# -- the log as a transcript ---------------------------------------------------------------


def test_a_log_is_the_same_record_as_the_transcript_file(tmp_path: Path) -> None:
    write_log(tmp_path)
    assert read_log(tmp_path).transcript_bytes() == played_transcript().to_bytes()
    loaded = Transcript.from_bytes(read_log(tmp_path).transcript_bytes(), default_registry())
    assert loaded.head == played_transcript().head


def test_a_table_stopped_for_a_phrase_keeps_its_english_text(tmp_path: Path) -> None:
    from p2p_dominoes.words import phrase

    said = phrase("net.log_busy")
    with TableLog.create(tmp_path, played_transcript().table_id, 0, messages()[0]) as log:
        log.finish(said)
    assert read_log(tmp_path / LOG_FILE_NAME).finished == str(said)
