"""`p2p-dominoes verify` on table logs: any peer's, also one torn by a crash."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from p2p_dominoes.cli import main
from p2p_dominoes.store import TableLog
from tests.session.tables import play_table
from tests.store.logs import played_transcript, write_log


def test_every_peer_log_verifies_to_the_same_head(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    played = play_table("block", 3, hands=1, seed=4)
    for seat, session in enumerate(played.sessions):
        transcript = session.transcript
        directory = tmp_path / f"seat{seat}"
        with TableLog.create(directory, transcript.table_id, seat, transcript[0].encoded) as log:
            log.sync(transcript)
        assert main(["verify", "--json", str(directory)]) == 0
        report = json.loads(capsys.readouterr().out)
        assert report["ok"] and report["head"] == transcript.head.hex()
        assert report["hands"] == 1 and report["torn_bytes"] == 0


def test_verify_takes_the_log_file_too(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_log(tmp_path)
    assert main(["verify", str(tmp_path / "table.log")]) == 0
    assert f"clean — {len(played_transcript())} messages, 1 hand audited" in capsys.readouterr().out


def test_verify_after_a_crash_mid_append(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_log(tmp_path, count=20)
    path = tmp_path / "table.log"
    path.write_bytes(path.read_bytes()[:-10])
    assert main(["verify", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "torn last record" in out and "clean — 19 messages" in out and "unfinished" in out


def test_a_damaged_log_cannot_be_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_log(tmp_path, count=20)
    path = tmp_path / "table.log"
    data = bytearray(path.read_bytes())
    data[200] ^= 1
    path.write_bytes(bytes(data))
    assert main(["verify", str(tmp_path)]) == 2
    assert "damaged and not the last" in capsys.readouterr().err
