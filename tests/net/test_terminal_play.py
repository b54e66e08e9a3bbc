"""A person plays a whole hand from the terminal (a real pseudo-terminal) against a bot peer."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pexpect

from p2p_dominoes.session.verify import verify_transcript


def test_a_human_seat_plays_a_hand_through_the_terminal_menu(tmp_path: Path) -> None:
    record = tmp_path / "human.p2pd"
    child = pexpect.spawn(
        sys.executable,
        [
            "-m",
            "p2p_dominoes",
            "host",
            "--name",
            "Ann",
            "--players",
            "2",
            "--bots",
            "1",
            "--hands",
            "1",
            "--interface",
            "127.0.0.1",
            "--port",
            "0",
            "--no-mdns",
            "--data-dir",
            str(tmp_path / "ann"),
            "--record",
            str(record),
        ],
        encoding="utf-8",
        timeout=60,
        dimensions=(60, 200),
    )
    turns = 0
    described = False
    try:
        while True:
            index = child.expect(
                ["Choose: ", r"final transcript hash: ([0-9a-f]{64})", pexpect.EOF]
            )
            if index == 0:
                turns += 1
                screen = child.before
                assert "Your tiles:" in screen and "Boneyard:" in screen
                # The board is a compact line of tiles; the sentence is one key away.
                assert re.search(r"^Line: (\(empty|(\[\d\|\d\])+\r?$)", screen, re.MULTILINE), (
                    screen
                )
                assert "Connections:" not in screen and "b) the board in words" in screen
                keys = re.findall(r"^\s+([0-9]+|d|p)\) ", screen, flags=re.MULTILINE)
                assert keys, screen
                child.sendline("x")  # a wrong key is refused, saying what to type
                child.expect(re.escape("“x” is not a choice. Type "))
                child.expect("Choose: ")
                if not described and "Line: [" in screen:  # `b` says the board in words
                    described = True
                    child.sendline("b")
                    child.expect(r"Tiles: [^\n]*Open places: ")
                    child.expect("Choose: ")
                child.sendline(keys[0])
            elif index == 1:
                final_hash = child.match.group(1)
                break
            else:
                raise AssertionError(f"the peer ended early:\n{child.before}")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0
    assert turns >= 1 and described
    report = verify_transcript(record.read_bytes())
    assert report.ok and report.hands == 1
    assert report.head.hex() == final_hash
