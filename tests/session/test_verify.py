"""`verify`: a transcript audited offline; any flipped byte names the message it spoiled."""

from __future__ import annotations

import json
import struct
import subprocess
import sys
from functools import cache
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from p2p_dominoes.session import TRANSCRIPT_MAGIC
from p2p_dominoes.session.verify import verify_transcript
from tests.session.tables import play_table


@cache
def saved_match() -> bytes:
    played = play_table("draw", 2, hands=2, seed=11)
    return played.sessions[0].transcript.to_bytes()


def record_of_offset(data: bytes, offset: int) -> int:
    """The index of the transcript record that holds byte `offset`."""
    position, index = len(TRANSCRIPT_MAGIC), 0
    while True:
        (length,) = struct.unpack_from(">I", data, position + 1)
        end = position + 5 + length
        if offset < end:
            return index
        position, index = end, index + 1


def test_a_clean_transcript_verifies_with_its_scores() -> None:
    report = verify_transcript(saved_match())
    assert report.ok
    assert report.hands == 2
    assert report.messages > 40
    assert len(report.scores) == 2


@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_any_flipped_byte_makes_verify_fail_and_name_that_message(data: st.DataObject) -> None:
    original = saved_match()
    offset = data.draw(st.integers(len(TRANSCRIPT_MAGIC), len(original) - 1), label="offset")
    bit = data.draw(st.integers(0, 7), label="bit")
    spoiled = bytearray(original)
    spoiled[offset] ^= 1 << bit
    report = verify_transcript(bytes(spoiled))
    assert not report.ok
    assert report.failure is not None
    assert report.failure.index == record_of_offset(original, offset)


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "p2p_dominoes", *args], capture_output=True, text=True, timeout=300
    )


def test_the_verify_command_exits_0_when_clean_and_1_naming_the_bad_message(tmp_path: Path) -> None:
    path = tmp_path / "match.p2pd"
    path.write_bytes(saved_match())
    out = run("verify", str(path))
    assert out.returncode == 0, out.stderr
    assert "clean — " in out.stdout and "2 hands audited" in out.stdout
    summary = json.loads(run("verify", str(path), "--json").stdout)
    assert summary["ok"] and summary["hands"] == 2 and summary["failure"] is None
    code = summary["table_code"]  # the code the players compared, for the audit
    assert f"table code {code['en']} / {code['ru']} ({code['digits']})" in out.stdout
    spoiled = bytearray(saved_match())
    offset = len(spoiled) // 2
    spoiled[offset] ^= 0x10
    path.write_bytes(bytes(spoiled))
    out = run("verify", str(path))
    assert out.returncode == 1
    index = record_of_offset(saved_match(), offset)
    assert f"message #{index}" in out.stdout
    assert out.stdout.count("\n") == 1
    assert run("verify", str(tmp_path / "nothing.p2pd")).returncode == 2


def test_simulate_secure_records_a_transcript_that_verifies(tmp_path: Path) -> None:
    path = tmp_path / "secure.p2pd"
    out = run("simulate", "--secure", "--players", "3", "--hands", "1", "--record", str(path))
    assert out.returncode == 0, out.stderr
    assert "transcripts identical on all peers: True, verify: clean" in out.stdout
    assert "Audit clean: shuffles, shares, draws and passes checked." in out.stdout
    assert run("verify", str(path)).returncode == 0
