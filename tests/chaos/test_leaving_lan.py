"""Issue 29 (v4, PROTOCOL.md §16), over real processes and TCP: a joiner `kill -9`ed for good in
the second hand does not end the table. After the stall limit the host (the lowest remaining
seat) says the joiner is gone, the hand in play is void, the host proposes a fresh key for the
seat and starts a bot that takes it (handed the transcript so far), every remaining seat signs,
and the match goes on to its end: the host and the other joiner exit 0 on the same record, and
`verify` of every record names the void hand and the seat change. The same when a person at
the terminal types `leave` in the second hand (a signed goodbye): the leaver exits 0 too.
"""

from __future__ import annotations

import json
import re
import signal
import sys
from contextlib import ExitStack
from functools import partial
from pathlib import Path

import pexpect
import pytest

from tests.chaos.peers import Peer, Table, message_type, sender, verify, wait_until

PLAYERS = 3
STALL_TIMEOUT = 20
HANDS = 4
"""A short match (the hands or the target, whichever comes first): the void hand 2 and two more."""
ATTEMPTS = 3


def _in_hand_two(peer: Peer, players: int) -> bool:
    """The peer's log holds a key commit of hand 2 (its first message), or the match is over."""
    view = peer.log(cached=True)
    if view is None:
        return False
    commits = sum(1 for data in view.messages if message_type(data) == "key_commit")
    return view.finished is not None or commits > players


def _seat_three_killed_in_hand_two(
    stack: ExitStack,
    root: Path,
    players: int,
    hands: int,
    host_args: tuple[str, ...],
    seat: int = 2,
) -> tuple[Table, Peer]:
    """A table of real peers whose seat 3 (or `seat`, counted from 0) is `kill -9`ed once it
    plays in hand 2; a match that was over before hand 2 (a target reached in hand 1) is played
    to its end and another one tried. The table, and the peer that was killed."""
    for attempt in range(ATTEMPTS):
        table = Table(
            root / f"m{attempt}", players, hands, ["127.0.0.1"] * players, host_args=host_args
        )
        stack.enter_context(table)
        table.open()
        gone = table.by_seat()[seat]
        assert wait_until(partial(_in_hand_two, gone, players), 120.0), table.outputs()
        gone.kill()
        view = gone.log()
        assert view is not None
        if view.finished is None:
            return table, gone
        # The match was over in hand 1: the others end it; the kill may have come before the
        # killed peer's own exit (status -9) or after it (0).
        statuses = table.wait_all(60.0)
        assert statuses.pop(gone.label) in (0, -9), table.outputs()
        assert set(statuses.values()) == {0}, table.outputs()
    raise AssertionError(f"{ATTEMPTS} matches were over before hand 2")


@pytest.mark.slow
@pytest.mark.parametrize(("players", "rules"), [(3, "draw"), (4, "kozel")])
def test_a_joiner_killed_for_good_in_hand_two_is_replaced_and_the_match_ends(
    tmp_path: Path, players: int, rules: str
) -> None:
    """Kozel: seat 3 is the host's partner; a `partner` bot takes it, so the pairs stay."""
    host_args = ("--stall-timeout", str(STALL_TIMEOUT), "--rules", rules)
    with ExitStack() as stack:
        table, gone = _seat_three_killed_in_hand_two(stack, tmp_path, players, HANDS, host_args)
        others = [p for p in table.peers if p is not gone]
        statuses = {p.label: p.wait(STALL_TIMEOUT + 240.0) for p in others}
        outputs = table.outputs()
        assert set(statuses.values()) == {0}, (statuses, outputs)
        records = [p.record.read_bytes() for p in others]
        assert records[0] == records[1], "the survivors' records differ"
        for peer in others:
            said = f"{gone.label} (bot) takes {gone.label}'s seat from hand 3 on"
            assert f"Hand 2 is void: {gone.label} stopped responding" in peer.output(), outputs
            assert said in peer.output(), outputs
            for path in (peer.record, peer.table_dir()):
                assert path is not None
                result = verify(path)
                assert result.status == 0, result.output
                assert ": clean — " in result.output, result.output
                assert "void: abandoned by " + gone.label in result.output, result.output
                assert f"changed hands: {gone.label} → {gone.label} (bot)" in result.output, (
                    result.output
                )
        lost = gone.table_dir()
        assert lost is not None
        result = verify(lost)  # the leaver's own log: clean, up to where it died
        assert result.status == 0 and "match unfinished" in result.output, result.output


@pytest.mark.slow
def test_the_host_killed_for_good_in_hand_two_is_replaced_and_the_match_ends(
    tmp_path: Path,
) -> None:
    """The host (seat 1) dies: the lowest remaining seat (j1) says it is gone, proposes the
    continuation and starts the bot that takes the host's seat; the joiners finish the match on
    the same record, and `verify` of each names the void hand and the seat change."""
    host_args = ("--stall-timeout", str(STALL_TIMEOUT))
    with ExitStack() as stack:
        table, gone = _seat_three_killed_in_hand_two(
            stack, tmp_path, PLAYERS, HANDS, host_args, seat=0
        )
        assert gone is table.host
        others = [p for p in table.peers if p is not gone]
        statuses = {p.label: p.wait(STALL_TIMEOUT + 240.0) for p in others}
        outputs = table.outputs()
        assert set(statuses.values()) == {0}, (statuses, outputs)
        records = [p.record.read_bytes() for p in others]
        assert records[0] == records[1], "the joiners' records differ"
        said = "host (bot) takes host's seat from hand 3 on"
        for peer in others:
            assert "Hand 2 is void: host stopped responding" in peer.output(), outputs
            assert said in peer.output(), outputs
            result = verify(peer.record)
            assert result.status == 0 and ": clean — " in result.output, result.output
            assert "void: abandoned by host (stalled)" in result.output, result.output
            assert "changed hands: host → host (bot)" in result.output, result.output


def _person_joins(root: Path, port: int) -> pexpect.spawn:
    """j2, a person at a terminal (no bot): it is asked at its turns."""
    (root / "j2").mkdir(parents=True, exist_ok=True)
    argv = ["-m", "p2p_dominoes", "join", "--connect", f"127.0.0.1:{port}", "--name", "j2"]
    argv += ["--ui", "text", "--no-mdns", "--port", "0", "--interface", "127.0.0.1"]
    argv += ["--data-dir", str(root / "j2" / "data"), "--record", str(root / "j2" / "record.p2pd")]
    return pexpect.spawn(sys.executable, argv, encoding="utf-8", timeout=120, dimensions=(60, 200))


@pytest.mark.slow
@pytest.mark.parametrize("how", ["leave", "ctrl-c twice", "ctrl-c once"])
def test_a_person_who_leaves_in_hand_two_says_goodbye_and_the_match_ends(
    tmp_path: Path, how: str
) -> None:
    """The person types `leave` at their turn, or presses Ctrl+C twice (the first says what
    the second does). Once, Ctrl+C stops the peer as before (130, how to come back)."""
    host_args = ("--stall-timeout", str(STALL_TIMEOUT))
    for attempt in range(ATTEMPTS):
        root = tmp_path / f"m{attempt}"
        if _person_leaves(root, how, host_args):
            return
    raise AssertionError(f"{ATTEMPTS} matches were over before hand 2")


def _person_leaves(root: Path, how: str, host_args: tuple[str, ...]) -> bool:
    """One match of the test above; False when it was over before hand 2 (try again)."""
    host, j1 = Peer("host", root, "127.0.0.1"), Peer("j1", root, "127.0.0.1")
    person: pexpect.spawn | None = None
    try:
        host.host(PLAYERS, HANDS, *host_args)
        assert wait_until(lambda: host.port() is not None or not host.alive, 20), host.all_output()
        port = host.port()
        assert port is not None
        j1.join("127.0.0.1", port)
        person = _person_joins(root, port)
        seen = ""
        while True:
            index = person.expect(["Choose: ", "Match finished|wins the match", pexpect.EOF])
            seen += person.before
            if index == 1:
                return False  # the target was reached in hand 1
            assert index == 0, f"j2 ended before hand 2:\n{seen}"
            if re.search(r"^Hand 2", seen, re.MULTILINE):
                if how == "leave":
                    person.sendline("leave")
                else:
                    person.kill(signal.SIGINT)
                    person.expect("Press Ctrl\\+C again within 3 s to leave the table for good")
                    if how == "ctrl-c once":  # stops as one Ctrl+C always did: 130, resume
                        person.expect("p2p-dominoes resume")
                        person.expect(pexpect.EOF)
                        person.close()
                        assert person.exitstatus == 130, seen + person.before
                        return True
                    person.kill(signal.SIGINT)
                break
            keys = re.findall(r"^\s+([0-9]+|d|p)\) ", person.before, flags=re.MULTILINE)
            assert keys, person.before
            person.sendline(keys[0])
        person.expect("You left the table")
        person.expect(pexpect.EOF)
        person.close()
        assert person.exitstatus == 0, seen + person.before
        statuses = {p.label: p.wait(240.0) for p in (host, j1)}
        outputs = host.all_output() + j1.all_output()
        assert set(statuses.values()) == {0}, (statuses, outputs)
        assert host.record.read_bytes() == j1.record.read_bytes(), "the records differ"
        for path in (host.record, j1.record, root / "j2" / "record.p2pd"):
            result = verify(path)
            assert result.status == 0 and ": clean — " in result.output, result.output
            assert "void: abandoned by j2 (left)" in result.output, result.output
        for peer in (host, j1):
            result = verify(peer.record)
            assert "changed hands: j2 → j2 (bot)" in result.output, result.output
        return True
    finally:
        if person is not None and person.isalive():
            person.terminate(force=True)
        for peer in (host, j1):
            if peer.alive:
                peer.kill()


@pytest.mark.slow
def test_a_joiner_that_wakes_after_its_seat_went_to_a_bot_stops_saying_so(
    tmp_path: Path,
) -> None:
    """Frozen (SIGSTOP) in hand 2 past the stall limit, then thawed once the table went on: the
    joiner catches up as a former holder (`mesh.serve_former`), reads the goodbye in its name
    (and the continuation, if its own last message had reached the others) and stops (3) with
    one line saying so; its log says so and verifies clean. The others finish (0)."""
    host_args = ("--stall-timeout", str(STALL_TIMEOUT))
    with ExitStack() as stack:
        for attempt in range(ATTEMPTS):
            table = Table(
                tmp_path / f"m{attempt}",
                PLAYERS,
                HANDS,
                ["127.0.0.1"] * PLAYERS,
                host_args=host_args,
            )
            stack.enter_context(table)
            table.open()
            gone = table.by_seat()[2]
            assert wait_until(partial(_in_hand_two, gone, PLAYERS), 120.0), table.outputs()
            gone.freeze()
            view = gone.log()
            assert view is not None
            if view.finished is None:
                break
            gone.thaw()
            assert set(table.wait_all(60.0).values()) == {0}, table.outputs()
        else:
            raise AssertionError(f"{ATTEMPTS} matches were over before hand 2")
        went_on = f"{gone.label} (bot) takes {gone.label}'s seat from hand"
        assert wait_until(lambda: went_on in table.host.output(), STALL_TIMEOUT + 60.0), (
            table.outputs()
        )
        gone.thaw()
        assert gone.wait(60.0) == 3, table.outputs()
        last = gone.output().strip().splitlines()[-1]
        directory = gone.table_dir()
        assert directory is not None
        # Its last message reached the others (it follows the goodbye and the continuation:
        # the line says where the record so far is, §16.1), or it did not (the records parted
        # at the goodbye's head: the host's signed word).
        log_path = directory / "table.log"
        assert last in (
            f"The table went on without this seat (it was said to be gone): {gone.label} (bot) "
            f"holds it now. The record so far is in {log_path} (check it: p2p-dominoes verify "
            f"{log_path}).",
            "The others went on without this seat: host said it sent nothing in time (a signed "
            f"goodbye), while its last message never reached them. The record so far is in "
            f"{log_path} (check it: p2p-dominoes verify {log_path}).",
        ), table.outputs()
        if last.startswith("The table went on") or last.startswith("The others went on"):
            result = verify(log_path)
            assert result.status == 0 and ": clean — " in result.output, result.output
        view = gone.log()
        assert view is not None and view.finished is not None
        assert "went on" in view.finished, view.finished
        result = verify(directory)
        assert result.status == 0 and ": clean — " in result.output, result.output
        others = [p for p in table.peers if p is not gone]
        statuses = {p.label: p.wait(240.0) for p in others}
        assert set(statuses.values()) == {0}, (statuses, table.outputs())


def _person_hosts(root: Path) -> pexpect.spawn:
    """host, a person at a terminal: asked at its turns, and whether to go on without a seat."""
    (root / "host").mkdir(parents=True, exist_ok=True)
    argv = ["-m", "p2p_dominoes", "host", "--name", "host", "--players", str(PLAYERS)]
    argv += ["--hands", str(HANDS), "--stall-timeout", str(STALL_TIMEOUT), "--no-ask"]
    argv += ["--ui", "text", "--no-mdns", "--port", "0", "--interface", "127.0.0.1"]
    argv += ["--data-dir", str(root / "host" / "data")]
    argv += ["--record", str(root / "host" / "record.p2pd")]
    return pexpect.spawn(sys.executable, argv, encoding="utf-8", timeout=120, dimensions=(60, 200))


@pytest.mark.slow
@pytest.mark.parametrize("answer", ["y", "n"])
def test_a_person_is_asked_whether_to_go_on_when_a_seat_is_gone(
    tmp_path: Path, answer: str
) -> None:
    """The host is a person at the terminal; the joiner j2 (a bot) is `kill -9`ed in hand 2.
    Past the stall limit the host's terminal asks one line whether to go on with a bot in j2's
    seat. `y`: the match finishes with j2 (bot) in the seat, every peer exits 0 on one record.
    `n`: the host stops (3) with one line; j1, whose turn it is to wait for the host's
    continuation, stops with the §15 verdict naming the host (3)."""
    for attempt in range(ATTEMPTS):
        if _asked(tmp_path / f"m{attempt}", answer):
            return
    raise AssertionError(f"{ATTEMPTS} matches were over before hand 2")


def _asked(root: Path, answer: str) -> bool:
    """One match of the test above; False when it was over before hand 2 (try again)."""
    j1, j2 = Peer("j1", root, "127.0.0.1"), Peer("j2", root, "127.0.0.1")
    person = _person_hosts(root)
    try:
        person.expect(r"open on port (\d+)")
        port = int(person.match.group(1))
        j1.join("127.0.0.1", port)
        j2.join("127.0.0.1", port)
        seen, killed = "", False
        patterns = ["Choose: ", "Go on with a bot in their seat", "Match finished|wins the match"]
        while True:
            index = person.expect([*patterns, pexpect.EOF])
            seen += person.before
            if index == 2 and not killed:
                return False  # the target was reached in hand 1
            assert index in (0, 1), f"host ended before the question:\n{seen}"
            if index == 1:
                break
            if not killed and re.search(r"^Hand 2", seen, re.MULTILINE):
                j2.kill()
                killed = True
            keys = re.findall(r"^\s+([0-9]+|d|p)\) ", person.before, flags=re.MULTILINE)
            assert keys, person.before
            person.sendline(keys[0])
        assert "j2 has left the table" in person.before + person.after, seen
        person.sendline(answer)
        if answer == "n":
            person.expect("The table stopped for you: you did not agree to go on without j2")
            person.expect(pexpect.EOF)
            person.close()
            assert person.exitstatus == 3, person.before
            assert j1.wait(STALL_TIMEOUT * 3 + 60.0) == 3, j1.all_output()
            assert "host" in j1.output().strip().splitlines()[-1], j1.all_output()
            result = verify(root / "host" / "record.p2pd")
            assert result.status == 0 and ": clean — " in result.output, result.output
            return True
        while True:
            index = person.expect([*patterns, pexpect.EOF])
            if index != 0:
                break
            keys = re.findall(r"^\s+([0-9]+|d|p)\) ", person.before, flags=re.MULTILINE)
            assert keys, person.before
            person.sendline(keys[0])
        assert index == 2, person.before
        person.expect(pexpect.EOF)
        person.close()
        assert person.exitstatus == 0, person.before
        assert j1.wait(120.0) == 0, j1.all_output()
        record = root / "host" / "record.p2pd"
        assert record.read_bytes() == j1.record.read_bytes(), "the records differ"
        result = verify(record)
        assert result.status == 0 and ": clean — " in result.output, result.output
        assert "void: abandoned by j2 (stalled)" in result.output, result.output
        assert "changed hands: j2 → j2 (bot)" in result.output, result.output
        return True
    finally:
        if person.isalive():
            person.terminate(force=True)
        for peer in (j1, j2):
            if peer.alive:
                peer.kill()


@pytest.mark.slow
def test_a_person_who_signs_the_continuation_is_asked_first(tmp_path: Path) -> None:
    """The person is j2 (a joiner at the terminal), not the proposer: the host's bot proposes
    the continuation once j1 (a bot) is `kill -9`ed in hand 2, and j2's terminal asks before it
    signs. `y`: the match finishes, j2 and the host exit 0 on one record."""
    for attempt in range(ATTEMPTS):
        if _signer_asked(tmp_path / f"m{attempt}"):
            return
    raise AssertionError(f"{ATTEMPTS} matches were over before hand 2")


def _signer_asked(root: Path) -> bool:
    """One match of the test above; False when it was over before hand 2 (try again)."""
    host, j1 = Peer("host", root, "127.0.0.1"), Peer("j1", root, "127.0.0.1")
    person: pexpect.spawn | None = None
    try:
        host.host(PLAYERS, HANDS, "--stall-timeout", str(STALL_TIMEOUT))
        assert wait_until(lambda: host.port() is not None or not host.alive, 20), host.all_output()
        port = host.port()
        assert port is not None
        j1.join("127.0.0.1", port)
        person = _person_joins(root, port)
        patterns = ["Choose: ", "Go on with a bot in their seat", "Match finished|wins the match"]
        seen, killed = "", False
        while True:
            index = person.expect([*patterns, pexpect.EOF])
            seen += person.before
            if index == 2 and not killed:
                return False  # the target was reached in hand 1
            assert index in (0, 1), f"j2 ended before the question:\n{seen}"
            if index == 1:
                break
            if not killed and re.search(r"^Hand 2", seen, re.MULTILINE):
                j1.kill()
                killed = True
            keys = re.findall(r"^\s+([0-9]+|d|p)\) ", person.before, flags=re.MULTILINE)
            assert keys, person.before
            person.sendline(keys[0])
        assert "j1 has left the table" in person.before + person.after, seen
        person.sendline("y")
        while (index := person.expect([*patterns, pexpect.EOF])) == 0:
            keys = re.findall(r"^\s+([0-9]+|d|p)\) ", person.before, flags=re.MULTILINE)
            assert keys, person.before
            person.sendline(keys[0])
        assert index == 2, person.before
        person.expect(pexpect.EOF)
        person.close()
        assert person.exitstatus == 0, person.before
        assert host.wait(120.0) == 0, host.all_output()
        record = root / "j2" / "record.p2pd"
        assert record.read_bytes() == host.record.read_bytes(), "the records differ"
        result = verify(record)
        assert result.status == 0 and ": clean — " in result.output, result.output
        assert "changed hands: j1 → j1 (bot)" in result.output, result.output
        return True
    finally:
        if person is not None and person.isalive():
            person.terminate(force=True)
        for peer in (host, j1):
            if peer.alive:
                peer.kill()


LONG_HANDS = 8
"""The coming-back match: long enough (a target nobody reaches) that the leaver's `resume` comes
while it is on: hand 2 void, a bot's hands, a hand set aside, then the returner's hands."""


@pytest.mark.slow
def test_a_joiner_killed_in_hand_two_comes_back_and_takes_its_seat_again(
    tmp_path: Path,
) -> None:
    """§16.1: j2 is `kill -9`ed in hand 2 and a bot takes its seat from hand 3; j2 runs `resume`
    while the match is on. It catches up as a former holder, asks its seat back (a fresh key,
    signed with its old one), the host puts the request on the table at the next hand's start,
    every seat signs, and j2 plays on; the bot gives the seat back. All three finish (0) on the
    same record, and `verify` of each names the void hand and both seat changes."""
    rules = tmp_path / "long-draw.json"
    targets = [[2, 1000], [3, 1000], [4, 1000]]  # nobody reaches them: the hands end it
    rules.write_text(json.dumps({"base": "draw", "name": "long draw", "targets": targets}))
    host_args = ("--stall-timeout", str(STALL_TIMEOUT), "--rules", str(rules))
    with ExitStack() as stack:
        table, gone = _seat_three_killed_in_hand_two(
            stack, tmp_path, PLAYERS, LONG_HANDS, host_args
        )
        label = gone.label
        went_on = f"{label} (bot) takes {label}'s seat from hand"
        assert wait_until(lambda: went_on in table.host.output(), STALL_TIMEOUT + 60.0), (
            table.outputs()
        )
        gone.resume()
        asked = "This seat went on without you: asking the others to give it back"
        assert wait_until(lambda: asked in gone.output(), 60.0), table.outputs()
        back = f"{label} is back and takes the seat again from {label} (bot)"
        assert wait_until(lambda: back in table.host.output(), 120.0), table.outputs()
        statuses = {p.label: p.wait(240.0) for p in table.peers}
        outputs = table.outputs()
        assert set(statuses.values()) == {0}, (statuses, outputs)
        records = [p.record.read_bytes() for p in table.peers]
        assert records[0] == records[1] == records[2], "the records differ"
        # The host heard the request and says when the seat goes back.
        assert f"{label} asks to come back" in table.host.output(), outputs
        for peer in table.peers:
            result = verify(peer.record)
            assert result.status == 0 and ": clean — " in result.output, result.output
            assert f"void: abandoned by {label} (stalled)" in result.output, result.output
            assert f"changed hands: {label} → {label} (bot)" in result.output, result.output
            assert f"seat 3 back to {label} from hand" in result.output, result.output
        # The leaver's old log ends where it took the seat back, and verifies clean.
        view = gone.log()
        assert view is not None and view.finished is not None
        assert "taken back" in view.finished, view.finished
        directory = gone.table_dir()
        assert directory is not None
        result = verify(directory)
        assert result.status == 0 and ": clean — " in result.output, result.output


def _played_after_a_continuation(peer: Peer) -> bool:
    """The peer's log holds a continuation and, after it, a key commit of its own (it plays a
    hand with the seat's new holder), or the match is over."""
    view = peer.log(cached=True)
    if view is None:
        return False
    if view.finished is not None:
        return True
    types = [message_type(data) for data in view.messages]
    if "continue" not in types:
        return False
    after = len(types) - types[::-1].index("continue")
    return any(
        message_type(data) == "key_commit" and sender(data) == view.seat
        for data in view.messages[after:]
    )


@pytest.mark.slow
def test_a_returner_whose_proposing_seat_is_a_bot_still_takes_its_seat_again(
    tmp_path: Path,
) -> None:
    """§16.1 when the seat that proposes a return has itself gone to a bot: the host (seat 1) is
    `kill -9`ed in hand 2 and j1 starts "host (bot)" for it; j2 is `kill -9`ed in a hand after
    that, and host (bot) starts "j2 (bot)". j2 runs `resume`: its log knows the host's dead
    address and j1's, never the bot's. It asks j1, who does not propose its return (seat 1
    does): j1 passes the request on over its link to host (bot), which puts it on the table;
    j2 plays on. j1 and j2 finish (0) on the same record, and `verify` names every change.
    (Here j1 and j2 name the joiners in seats 2 and 3, whichever joined first.)"""
    rules = tmp_path / "long-draw.json"
    targets = [[2, 1000], [3, 1000], [4, 1000]]  # nobody reaches them: the hands end it
    rules.write_text(json.dumps({"base": "draw", "name": "long draw", "targets": targets}))
    host_args = ("--stall-timeout", str(STALL_TIMEOUT), "--rules", str(rules))
    # Seven hands played: 1, a hand of the bots, then (one set aside for the return) j2's;
    # two more than it needs, so that a return delayed on a loaded machine still comes before
    # the end. They are slow: host (bot) and j2 are not linked (neither knows where the other
    # listens now), and their messages reach each other through j1's catch-up answers.
    with Table(tmp_path, PLAYERS, 7, ["127.0.0.1"] * PLAYERS, host_args=host_args) as table:
        table.open()
        seats = table.by_seat()
        host, j1, j2 = seats[0], seats[1], seats[2]  # by seat: the joiners' order varies
        three = j2.label
        assert wait_until(partial(_in_hand_two, host, PLAYERS), 120.0), table.outputs()
        host.kill()
        bot = "host (bot) takes host's seat from hand"
        assert wait_until(lambda: bot in j1.output(), STALL_TIMEOUT + 60.0), table.outputs()
        assert wait_until(partial(_played_after_a_continuation, j2), 60.0), table.outputs()
        j2.kill()
        view = j2.log()
        assert view is not None and view.finished is None, table.outputs()
        went_on = f"{three} (bot) takes {three}'s seat from hand"
        assert wait_until(lambda: went_on in j1.output(), STALL_TIMEOUT + 60.0), table.outputs()
        j2.resume()
        asked = "This seat went on without you: asking the others to give it back"
        assert wait_until(lambda: asked in j2.output(), 60.0), table.outputs()
        passed = f"{three} asks to come back: the request is passed on to host (bot)"
        assert wait_until(lambda: passed in j1.output(), 60.0), table.outputs()
        back = f"{three} is back and takes the seat again from {three} (bot)"
        assert wait_until(lambda: back in j1.output(), 120.0), table.outputs()
        statuses = {p.label: p.wait(420.0) for p in (j1, j2)}
        outputs = table.outputs()
        assert set(statuses.values()) == {0}, (statuses, outputs)
        assert j1.record.read_bytes() == j2.record.read_bytes(), "the records differ"
        result = verify(j1.record)
        assert result.status == 0 and ": clean — " in result.output, result.output
        assert "changed hands: host → host (bot)" in result.output, result.output
        assert f"changed hands: {three} → {three} (bot)" in result.output, result.output
        assert f"seat 3 back to {three} from hand" in result.output, result.output
