"""`p2p-dominoes verify`: a finished `--hands` match reads as finished, failures name the player,
and exit 1 is only for a record that fails verification (bad input is 2, with one line)."""

import json
import re
from pathlib import Path
from typing import Any

import pytest

from p2p_dominoes.bots import random_bot
from p2p_dominoes.cli import main
from p2p_dominoes.engine import DRAW_RULES, match_outcome
from p2p_dominoes.session.local import LocalTable
from tests.commands.records import (
    match_transcript,
    random_bytes,
    run,
    write_table_folder,
    write_transcript,
)


@pytest.mark.parametrize("form", ["transcript", "table.log", "table folder"])
def test_a_finished_hands_match_verifies_as_finished(tmp_path: Path, form: str) -> None:
    if form == "transcript":
        path = write_transcript(tmp_path / "match.p2pd")
    else:
        folder = write_table_folder(tmp_path / "table")
        path = folder / "table.log" if form == "table.log" else folder
    out = run("verify", str(path))
    assert out.returncode == 0, out.stderr
    first = out.stdout.splitlines()[0]
    assert "2 hands audited, match finished after 2 of 2 hands, scores Ann " in first
    assert ", Bob " in first and "unfinished" not in first
    summary = json.loads(run("verify", str(path), "--json").stdout)
    assert summary["complete"] and summary["max_hands"] == 2 and summary["hands"] == 2
    assert summary["match"]["limit_reached"] is True
    assert summary["players"] == ["Ann", "Bob"]


def test_an_unfinished_log_says_how_many_of_its_hands_were_played(tmp_path: Path) -> None:
    folder = write_table_folder(tmp_path / "table", count=len(match_transcript()) - 5)
    out = run("verify", str(folder))
    assert out.returncode == 0, out.stderr
    assert "1 hand audited, match unfinished (1 of 2 hands)" in out.stdout


def test_a_failing_message_names_the_player_and_exits_1(tmp_path: Path) -> None:
    transcript = match_transcript()
    data = bytearray(transcript.to_bytes())
    # A bit of the signature (the envelope's last field) of a message in mid-match: the message
    # still decodes, names its seat, and fails its signature check.
    middle = transcript.entries[len(transcript.entries) // 2].encoded
    data[data.index(middle) + len(middle) - 10] ^= 0x10
    path = tmp_path / "bad.p2pd"
    path.write_bytes(bytes(data))
    out = run("verify", str(path))
    assert out.returncode == 1
    assert out.stdout.count("\n") == 1
    assert "(Ann, seat 1): " in out.stdout or "(Bob, seat 2): " in out.stdout
    failure = json.loads(run("verify", str(path), "--json").stdout)["failure"]
    assert failure["seat"] in (0, 1) and failure["text"] in out.stdout


def test_input_that_is_not_a_record_is_exit_2_with_one_line(tmp_path: Path) -> None:
    (tmp_path / "empty.p2pd").write_bytes(b"")
    (tmp_path / "folder").mkdir()
    (tmp_path / "hand.json").write_text("{}")
    cases = {
        "random bytes": (random_bytes(tmp_path / "junk.bin"), "is not a p2p-dominoes record"),
        "a JSON file": (tmp_path / "hand.json", "is not a p2p-dominoes record"),
        "empty file": (tmp_path / "empty.p2pd", "is empty"),
        "folder without a log": (tmp_path / "folder", "is a folder with no table.log in it"),
        "missing": (tmp_path / "missing.p2pd", "cannot read"),
    }
    for case, (path, said) in cases.items():
        out = run("verify", str(path))
        assert out.returncode == 2, (case, out.stdout, out.stderr)
        assert out.stdout == "", case
        assert out.stderr.startswith("p2p-dominoes verify: "), case
        assert out.stderr.count("\n") == 1 and said in out.stderr, (case, out.stderr)
        assert "Traceback" not in out.stderr, case


def test_a_whole_match_names_its_winner(tmp_path: Path) -> None:
    table = LocalTable.create(DRAW_RULES, ["Ann", "Bob"], [random_bot] * 2, seed=2)
    table.run()
    outcome = match_outcome(DRAW_RULES, table.sessions[0].scores)
    assert outcome.over and table.sessions[0].transcript.genesis.max_hands is None
    path = tmp_path / "whole.p2pd"
    path.write_bytes(table.sessions[0].transcript.to_bytes())
    out = run("verify", str(path))
    assert out.returncode == 0, out.stderr
    if outcome.winner is None:
        assert "match complete, drawn" in out.stdout
    else:
        assert f"match complete, won by {['Ann', 'Bob'][outcome.winner]}, scores Ann " in out.stdout
    replayed = run("replay", str(path)).stdout.splitlines()
    assert (
        replayed[-2].endswith(
            " wins the match: "
            + ", ".join(
                f"{n} {s}" for n, s in zip(["Ann", "Bob"], table.sessions[0].scores, strict=True)
            )
            + "."
        )
        or "drawn" in replayed[-2]
    )


def test_a_file_this_user_may_not_read_is_exit_2_with_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """EACCES (root reads every file, so the refusal is made where the file is opened)."""
    record = tmp_path / "theirs.p2pd"
    record.write_bytes(b"someone else's record")
    opened = Path.open

    def refuse(self: Path, *args: Any, **kwargs: Any) -> Any:
        if self == record:
            raise PermissionError(13, "Permission denied", str(self))
        return opened(self, *args, **kwargs)

    monkeypatch.setattr(Path, "open", refuse)
    assert main(["verify", str(record)]) == 2
    out = capsys.readouterr()
    assert out.out == ""
    assert out.err == f"p2p-dominoes verify: cannot read {record}: Permission denied\n"


def test_a_hand_record_export_wrote_is_named_with_what_can_check_it(tmp_path: Path) -> None:
    """`verify` cannot audit a hand record (no signatures), but it says what the file is and
    that `replay` checks it under its rules, instead of "not a p2p-dominoes record"."""
    record = tmp_path / "hand 1.json"
    exported = run(
        "export", str(write_transcript(tmp_path / "m.p2pd")), "--hand", "1", "--output", str(record)
    )
    assert exported.returncode == 0, exported.stderr
    for command in ("verify", "export"):
        argv = [command, str(record)] + (["--hand", "1"] if command == "export" else [])
        out = run(*argv)
        assert out.returncode == 2 and out.stdout == "", (out.stdout, out.stderr)
        assert out.stderr == (
            f"p2p-dominoes {command}: {record} is a hand record (as `export` writes it), not a "
            "transcript: a hand record carries no signatures to verify; "
            f"`p2p-dominoes replay '{record}'` replays it under its rules\n"
        )
    assert run("replay", str(record)).returncode == 0


def test_every_seat_a_failure_names_counts_from_1(tmp_path: Path) -> None:
    """`(bot-3, seat 4): bad signature for seat 3` named one seat two ways: people read seats
    counted from 1, in the reason too (the JSON's `seat` stays the wire's, from 0)."""
    transcript = match_transcript()
    data = bytearray(transcript.to_bytes())
    middle = transcript.entries[len(transcript.entries) // 2].encoded
    data[data.index(middle) + len(middle) - 10] ^= 0x10  # a signature byte
    path = tmp_path / "bad.p2pd"
    path.write_bytes(bytes(data))
    out = run("verify", str(path))
    assert out.returncode == 1
    named = re.search(r"\((Ann|Bob), seat (\d)\): bad signature for seat (\d)$", out.stdout, re.M)
    assert named is not None, out.stdout
    assert named[2] == named[3] == str(["Ann", "Bob"].index(named[1]) + 1)
    failure = json.loads(run("verify", str(path), "--json").stdout)["failure"]
    assert failure["seat"] == int(named[2]) - 1


def test_a_blame_and_a_rejected_message_name_seats_from_1() -> None:
    from p2p_dominoes.session import InvalidMessage
    from p2p_dominoes.session.events import Blame

    blame = Blame(2, "sent nothing for 180 s", "stall", via=0)
    assert str(blame) == "seat 3: sent nothing for 180 s (evidence forwarded by seat 1)"
    refused = InvalidMessage("bad-signature", "bad signature for seat 4", seat=3, index=12)
    assert str(refused) == "message #12 seat 4: bad signature for seat 4 [bad-signature]"
