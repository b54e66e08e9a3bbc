"""The host's person answers the lobby's questions at a real terminal (a pseudo-terminal).

`host` with the text UI asks before seating, and shows a join code beside its table: Mallory,
without the code, is refused before the person is asked; Eve's request (with the code) shows her
full fingerprint and is refused (`n N`), and Eve is told so; Bob's is accepted with a bare `y`
(his is the only one waiting), and Bob's own screen showed the short fingerprint the host saw;
then the person plays the hand from the menu and the record verifies.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pexpect
import trio
import trio.testing

from p2p_dominoes.net.admission import Admission, LobbySeat, LobbyState, Request
from p2p_dominoes.session import Identity
from p2p_dominoes.session.verify import verify_transcript
from p2p_dominoes.store import load_or_create_identity
from p2p_dominoes.ui.terminal import LobbyAnswer, parse_lobby_answer
from p2p_dominoes.ui.text import TextUI
from tests.net.lan_peers import Peer, cli_argv, peers

LOOPBACK = ("--interface", "127.0.0.1", "--port", "0", "--no-mdns")
REQUEST = re.compile(r'Request (\d+): "([^"]*)" asks for a seat — fingerprint ([A-Z2-7-]+)')


def test_the_hosts_answers_are_parsed_strictly() -> None:
    assert parse_lobby_answer("y 3", [3, 4]) == LobbyAnswer("approve", 3)
    assert parse_lobby_answer("  N 4 ", [3, 4]) == LobbyAnswer("refuse", 4)
    assert parse_lobby_answer("да 2", []) == LobbyAnswer("approve", 2)
    assert parse_lobby_answer("remove 1", []) == LobbyAnswer("remove", 1)
    assert parse_lobby_answer("y", [7]) == LobbyAnswer("approve", 7)  # the only one waiting
    for ambiguous in ("y", "n"):
        assert parse_lobby_answer(ambiguous, [3, 4]) is None
        assert parse_lobby_answer(ambiguous, []) is None
    for junk in ("", "yes please 3", "y three", "y -1", "y 99999999", "remove", "kick 1"):
        assert parse_lobby_answer(junk, [3]) is None


def test_the_terminal_desk_asks_once_per_request_and_prints_only_clean_text() -> None:
    printed: list[str] = []
    ui = TextUI("en", progress_only=True, out=printed.append)
    admission = Admission(ask=True)
    eve = Identity.generate().public
    request = admission.request(eve, "Eve\x1b]0;t\x07", "192.0.2.9:1", seats_free=1, seated=False)
    assert isinstance(request, Request)
    seats = (LobbySeat(0, "Ann", "F", False), LobbySeat(1, "bot-1", "G", True))
    state = LobbyState("t", 3, seats, (request,))
    ui.lobby(state)
    ui.lobby(state)  # nothing new: nothing printed again
    ui.say("a \x1b[2Jline\u202e from afar")
    assert printed == [
        'Type "remove N" to take seat N back before the game begins.',
        "Seats (2 of 3): 1 Ann (you), 2 bot-1 (bot)",
        f'Request {request.number}: "Eve]0;t" asks for a seat — fingerprint {eve.fingerprint}, '
        f"from 192.0.2.9; their screen shows {eve.short_fingerprint}. "
        f'Type "y {request.number}" to seat them, "n {request.number}" to refuse.',
        "a [2Jline from afar",
    ]


def _joiner(name: str, port: int, directory: Path, *code: str) -> Peer:
    return Peer(
        name,
        cli_argv(
            "join",
            *("--connect", f"127.0.0.1:{port}", "--name", name, "--bot", "random", *code),
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
        child.expect(r"Join code: ([a-z]+ [a-z]+ [a-z]+) \((\d{3}-\d{3}-\d{3})\)")
        words, digits = child.match.groups()
        child.expect(re.escape(f"--code '{words}'"))
        child.expect(re.escape('Type "remove N" to take seat N back'))
        with peers() as started:
            mallory = _joiner("Mallory", port, tmp_path)  # no code: refused before asking
            started.append(mallory)
            assert mallory.wait(30) != 0
            assert "no seat [code]: the table needs its join code" in mallory.stderr, mallory
            eve = _joiner("Eve", port, tmp_path, "--code", digits)
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

            bob = _joiner("Bob", port, tmp_path, "--code", words.upper())
            started.append(bob)
            child.expect(REQUEST.pattern)
            assert child.match.group(2) == "Bob"  # Mallory was never asked about
            assert child.match.group(3) == keys["Bob"].fingerprint
            bob.wait_for(re.compile(re.escape(keys["Bob"].short_fingerprint) + ": check"))
            child.sendline("y")  # the only request waiting
            child.expect(r"Bob \([A-Z2-7-]+\) took a seat \(2 of")
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


async def test_remove_n_takes_the_seat_numbered_n_on_the_screen() -> None:
    """Seats are numbered from 1 where the person reads them, so `remove 2` is the second."""

    class Control:
        def __init__(self) -> None:
            self.removed: list[int] = []

        def approve(self, number: int) -> bool:
            return False

        def refuse(self, number: int) -> bool:
            return False

        def remove(self, seat: int) -> bool:
            self.removed.append(seat)
            return True

    send, receive = trio.open_memory_channel[str](4)
    shown: list[str] = []
    ui = TextUI(lines=receive, out=shown.append)
    control = Control()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(ui.attend, control)
        await send.send("remove 2")
        await send.send("remove 0")  # no seat 0 on the screen
        await trio.testing.wait_all_tasks_blocked()
        nursery.cancel_scope.cancel()
    assert control.removed == [1]
    assert shown == ["Nothing to do for that (no such request or seat now)."]
