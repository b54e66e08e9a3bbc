"""The host's person answers the lobby's questions at a real terminal (a pseudo-terminal).

`host` with the text UI asks before seating: Eve's request shows her full fingerprint and is
refused (`n N`), and Eve is told so; Bob's is accepted with a bare `y` (his is the only one
waiting); then the person plays the hand from the menu and the record verifies.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pexpect

from p2p_dominoes.session.verify import verify_transcript
from p2p_dominoes.store import load_or_create_identity
from tests.net.lan_peers import Peer, cli_argv, peers

LOOPBACK = ("--interface", "127.0.0.1", "--port", "0", "--no-mdns")
REQUEST = re.compile(r'Request (\d+): "([^"]*)" asks for a seat — fingerprint ([A-Z2-7-]+)')


def _joiner(name: str, port: int, directory: Path) -> Peer:
    return Peer(
        name,
        cli_argv(
            "join",
            *("--connect", f"127.0.0.1:{port}", "--name", name, "--bot", "random"),
            *("--ui", "none", "--data-dir", str(directory / name), *LOOPBACK),
        ),
        directory,
    )


def test_the_host_refuses_and_seats_joiners_from_its_terminal_then_plays(tmp_path: Path) -> None:
    record = tmp_path / "ann.p2pd"
    keys = {name: load_or_create_identity(tmp_path / name).public for name in ("Eve", "Bob")}
    child = pexpect.spawn(
        sys.executable,
        [
            "-m", "p2p_dominoes", "host", "--name", "Ann", "--players", "2", "--hands", "1",
            *LOOPBACK, "--data-dir", str(tmp_path / "ann"), "--record", str(record),
        ],
        encoding="utf-8",
        timeout=60,
        dimensions=(60, 200),
    )  # fmt: skip
    turns = 0
    try:
        child.expect(r"is open on port (\d+)\.")
        port = int(child.match.group(1))
        child.expect(re.escape('Type "remove N" to take seat N back'))
        with peers() as started:
            eve = _joiner("Eve", port, tmp_path)
            started.append(eve)
            child.expect(REQUEST.pattern)
            number, name, fingerprint = child.match.groups()
            assert (name, fingerprint) == ("Eve", keys["Eve"].fingerprint)
            child.sendline("maybe")  # not an answer: the host is told what to type
            child.expect(re.escape('Answer with "y N"'))
            child.sendline(f"n {number}")
            child.expect(re.escape(f"Refused Eve ({fingerprint})."))
            assert eve.wait(30) != 0
            assert "no seat [refused]: the host refused you a seat" in eve.stderr, eve

            bob = _joiner("Bob", port, tmp_path)
            started.append(bob)
            child.expect(REQUEST.pattern)
            assert child.match.group(3) == keys["Bob"].fingerprint
            child.sendline("y")  # the only request waiting
            child.expect(r"Bob \([A-Z2-7-]+\) took seat 1")
            while True:
                index = child.expect(
                    ["Choose: ", r"final transcript hash: ([0-9a-f]{64})", pexpect.EOF]
                )
                if index == 0:
                    turns += 1
                    keys_shown = re.findall(r"^\s+([0-9]+|d|p)\) ", child.before, re.MULTILINE)
                    assert keys_shown, child.before
                    child.sendline(keys_shown[0])
                elif index == 1:
                    final_hash = child.match.group(1)
                    break
                else:
                    raise AssertionError(f"the host ended early:\n{child.before}")
            child.expect(pexpect.EOF)
            assert bob.wait(30) == 0, bob
    finally:
        child.close()
    assert child.exitstatus == 0
    assert turns >= 1
    report = verify_transcript(record.read_bytes())
    assert report.ok and report.head.hex() == final_hash
