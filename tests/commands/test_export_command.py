"""`p2p-dominoes export TRANSCRIPT --hand N`: an audited hand's plain JSON record, which
`replay` then reads with the players' names and the same result."""

import json
from pathlib import Path

from p2p_dominoes.engine import load_record, replay, result_text
from tests.commands.records import (
    NAMES,
    match_hands,
    match_transcript,
    random_bytes,
    run,
    write_table_folder,
    write_transcript,
)


def test_each_audited_hand_exports_a_record_that_replays_to_the_same_result(
    tmp_path: Path,
) -> None:
    transcript = write_transcript(tmp_path / "match.p2pd")
    for hand in match_hands():
        out = run("export", str(transcript), "--hand", str(hand.number))
        assert out.returncode == 0, out.stderr
        record = json.loads(out.stdout)
        assert record["hand"] == hand.number and record["players"] == list(NAMES)
        assert record == dict(hand.record.to_dict(), players=list(NAMES))
        replayed = replay(load_record(out.stdout))
        assert replayed.result == hand.result
        assert replayed.scores == hand.scores
        saved = tmp_path / f"hand{hand.number}.json"
        out = run("export", str(transcript), "--hand", str(hand.number), "--output", str(saved))
        assert out.returncode == 0 and out.stdout == ""
        assert f"hand {hand.number} of {transcript} written to {saved}" in out.stderr
        out = run("replay", str(saved))
        assert out.returncode == 0, out.stderr
        assert result_text(hand.result, "en", NAMES) in out.stdout.splitlines()
        assert "seat 1" not in out.stdout and "seat 2" not in out.stdout


def test_a_table_folder_exports_too(tmp_path: Path) -> None:
    folder = write_table_folder(tmp_path / "table")
    out = run("export", str(folder), "--hand", "1")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == json.loads(run_export_of_transcript(tmp_path))


def run_export_of_transcript(tmp_path: Path) -> str:
    out = run("export", str(write_transcript(tmp_path / "m.p2pd")), "--hand", "1")
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_a_hand_not_audited_or_bad_options_are_exit_2_with_one_line(tmp_path: Path) -> None:
    transcript = write_transcript(tmp_path / "match.p2pd")
    unfinished = write_table_folder(tmp_path / "table", count=len(match_transcript()) - 5)
    (tmp_path / "folder").mkdir()
    cases = [
        (["export", str(transcript), "--hand", "3"], "has no audited hand 3 (it holds 2 audited"),
        (["export", str(unfinished), "--hand", "2"], "has no audited hand 2 (it holds 1 audited"),
        (["export", str(transcript), "--hand", "0"], "--hand must be 1–10000"),
        (
            ["export", str(transcript), "--hand", "1", "--output", str(tmp_path / "folder")],
            "is a folder: give a file name inside it",
        ),
        (
            ["export", str(transcript), "--hand", "1", "--output", str(tmp_path / "no" / "x")],
            "does not exist: create it first",
        ),
        (["export", str(random_bytes(tmp_path / "junk")), "--hand", "1"], "not a p2p-dominoes"),
        (["export", str(tmp_path / "missing"), "--hand", "1"], "cannot read"),
    ]
    for argv, said in cases:
        out = run(*argv)
        assert out.returncode == 2, (argv, out.stderr)
        assert out.stdout == "" and out.stderr.count("\n") == 1, (argv, out.stderr)
        assert said in out.stderr, (argv, out.stderr)
    assert not list((tmp_path / "folder").iterdir())


def test_a_transcript_that_fails_verification_exports_nothing_and_exits_1(
    tmp_path: Path,
) -> None:
    data = bytearray(match_transcript().to_bytes())
    data[len(data) // 2] ^= 0x10
    path = tmp_path / "bad.p2pd"
    path.write_bytes(bytes(data))
    out = run("export", str(path), "--hand", "1")
    assert out.returncode == 1 and out.stdout == ""
    assert out.stderr.count("\n") == 1 and "nothing exported" in out.stderr
