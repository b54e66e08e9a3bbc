"""`list_tables`: what `resume` offers — each table's name, seat, players, progress and state."""

from __future__ import annotations

import os
from pathlib import Path

from p2p_dominoes.store import TableLog, list_tables, table_dir
from tests.store.logs import messages, played_transcript, write_log


def test_no_data_directory_means_no_tables(tmp_path: Path) -> None:
    assert list_tables(tmp_path / "nothing") == []


def test_tables_are_listed_most_recent_first_with_their_state(tmp_path: Path) -> None:
    two = played_transcript(2)
    three = played_transcript(3)
    write_log(table_dir(tmp_path, two.table_id), 2, count=10)
    write_log(table_dir(tmp_path, three.table_id), 3)
    log, _, _ = TableLog.open(table_dir(tmp_path, three.table_id))
    with log:
        log.finish("over")
    os.utime(table_dir(tmp_path, two.table_id) / "table.log", (1, 1))
    broken = tmp_path / "tables" / "not-a-table"
    broken.mkdir()
    (broken / "table.log").write_bytes(b"junk")
    os.utime(broken / "table.log", (2, 2))
    (tmp_path / "tables" / "empty").mkdir()

    first, second, third = list_tables(tmp_path)
    assert (first.table_id, first.seat, first.name) == (three.table_id, 1, "Kitchen")
    assert first.players == ("player0", "player1", "player2")
    assert (first.messages, first.finished, first.finish_reason) == (len(three), True, "over")
    assert second.problem is not None and "not a p2p-dominoes table log" in second.problem
    assert (third.table_id, third.messages, third.finished) == (two.table_id, 10, False)
    assert third.problem is None and third.dropped_bytes == 0


def test_a_torn_log_is_listed_with_what_it_holds(tmp_path: Path) -> None:
    transcript = played_transcript(2)
    directory = table_dir(tmp_path, transcript.table_id)
    write_log(directory, 2, count=6)
    with (directory / "table.log").open("ab") as handle:
        handle.write(b"\x02\x00\x00")
    (summary,) = list_tables(tmp_path)
    assert (summary.messages, summary.dropped_bytes) == (6, 3)
    assert messages(2)[5] == TableLog.open(directory)[1][-1]


def test_a_table_stopped_during_the_opener_lottery_is_found_by_the_staller_s_key(
    tmp_path: Path,
) -> None:
    from p2p_dominoes.session import LOTTERY_STALL
    from p2p_dominoes.store import lottery_stalls

    three = played_transcript(3)
    write_log(table_dir(tmp_path, three.table_id), 3, count=5)
    log, _, _ = TableLog.open(table_dir(tmp_path, three.table_id))
    with log:
        reason = f"sent nothing for 180 s when its key_reveal was expected ({LOTTERY_STALL}: …)"
        log.finish(f"seat 2: {reason}")
    keys = three.keys
    (found,) = lottery_stalls(tmp_path, [keys[2], keys[0]])
    assert (found.key, found.name, found.table) == (keys[2], "player2", "Kitchen")
    assert lottery_stalls(tmp_path, [keys[0], keys[1]]) == []  # only the staller is named
    other = played_transcript(2)
    write_log(table_dir(tmp_path, other.table_id), 2)
    log, _, _ = TableLog.open(table_dir(tmp_path, other.table_id))
    with log:
        log.finish("seat 1: sent nothing for 180 s when its play was expected")  # a plain stall
    assert lottery_stalls(tmp_path, other.keys) == []
