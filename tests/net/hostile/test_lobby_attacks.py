"""Attacks on the lobby, from real processes on 127.0.0.1, each followed by an honest match.

- Seat squatting: five squatter processes, each its own source address (127.0.0.2–6), ask for a
  seat under fresh keys over and over. The host's person (this test, typing at the host) is
  asked about a bounded number of them — the rest are refused as busy, or automatically once a
  source has been refused three times — and an honest joiner, turned away as busy at first,
  retries and is asked, seated, and plays.
- Escape sequences: a fake host answers a real joiner with a refusal, and another with a bye,
  whose reasons carry terminal escapes (window title, screen clear, bell) and a bidi override; a
  stranger sends the real host a join whose name carries escapes, and another takes a seat and
  leaves with such a bye. Nothing of it reaches a terminal or a log: no ESC, BEL or bidi override.
- A stranger dials a joiner before the genesis: refused at the handshake at once, not held.
"""

from __future__ import annotations

import json
import re
import secrets
import subprocess
import sys
import threading
import time
from pathlib import Path

import trio

from p2p_dominoes.net import Connection, RefusedByPeer, connect, open_listener
from p2p_dominoes.net.admission import MAX_PENDING_PER_SOURCE, SOURCE_REFUSALS
from p2p_dominoes.net.lobby import Join, Refuse, encode_lobby
from p2p_dominoes.session import Identity
from tests.net.hostile.figures import Attacks
from tests.net.lan_peers import Peer, check_agreement, cli_argv, finish_all, peers, verify_cli
from tests.net.netns import REPO_ROOT

LOOPBACK = ("--interface", "127.0.0.1", "--port", "0", "--no-mdns")
REQUEST = re.compile(r'Request (\d+): "([^"]*)" asks for a seat')
LISTENING = re.compile(r"Listening on port (\d+)")
EVIL = "\x1b]0;owned\x07\x1b[2J\x1b[31mred\u202eevil\u2066x\x9b"
FORBIDDEN = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]")
SQUATTER_SOURCES = [f"127.0.0.{n}" for n in range(2, 7)]
SQUAT_SECONDS = 10.0


def _clean(text: str) -> bool:
    return FORBIDDEN.search(text) is None


def _host(name: str, record: Path, directory: Path, *extra: str, typed: bool = False) -> Peer:
    return Peer(
        name,
        cli_argv(
            "host",
            *("--name", name, "--bot", "random", "--hands", "1", "--record", str(record)),
            *extra,
            *LOOPBACK,
        ),
        directory,
        typed=typed,
    )


def _joiner(name: str, port: int, record: Path, directory: Path) -> Peer:
    return Peer(
        name,
        cli_argv(
            "join",
            *("--connect", f"127.0.0.1:{port}", "--name", name, "--bot", "random"),
            *("--ui", "none", "--record", str(record), *LOOPBACK),
        ),
        directory,
    )


def test_seat_squatting_by_many_keys_does_not_crowd_out_an_honest_joiner(
    tmp_path: Path, attacks: Attacks
) -> None:
    records = [tmp_path / "host.p2pd", tmp_path / "honest.p2pd"]
    squatters: list[subprocess.Popen[bytes]] = []
    answered: dict[int, str] = {}
    try:
        with peers() as started:
            host = _host(
                "host",
                records[0],
                tmp_path,
                *("--players", "2", "--ask", "--no-code", "--ui", "none"),  # a home network
                typed=True,
            )
            started.append(host)
            port = host.port()
            for source in SQUATTER_SOURCES:
                squatters.append(
                    subprocess.Popen(
                        [
                            sys.executable,
                            "-m",
                            "tests.net.hostile.squatter",
                            str(port),
                            source,
                            "4",
                            str(tmp_path / f"squat-{source}.json"),
                        ],
                        cwd=REPO_ROOT,
                        stdin=subprocess.DEVNULL,
                    )
                )

            def answer_requests() -> None:
                """The host's person: refuse every squatter, seat the honest joiner."""
                for found in REQUEST.finditer(host.stdout):
                    number, name = int(found.group(1)), found.group(2)
                    if number not in answered:
                        answered[number] = name
                        host.type_line(f"{'y' if name == 'honest' else 'n'} {number}")

            # Let the squatters ask for a while (at least SQUAT_SECONDS, whatever the load), so
            # that many more requests are made than the host's person can ever be shown.
            squat_until = time.monotonic() + SQUAT_SECONDS
            deadline = time.monotonic() + 30
            while (len(answered) < 3 or time.monotonic() < squat_until) and (
                time.monotonic() < deadline
            ):
                answer_requests()  # the squatters are asking
                time.sleep(0.05)
            honest_started = time.monotonic()
            honest = _joiner("honest", port, records[1], tmp_path)
            started.append(honest)
            deadline = time.monotonic() + 120
            while "honest (" not in host.stdout or " took a seat (2 of" not in host.stdout:
                assert time.monotonic() < deadline, f"{host}\n{honest}"
                assert host.process.poll() is None, str(host)
                answer_requests()
                time.sleep(0.05)
            seated_after = time.monotonic() - honest_started
            for squatter in squatters:
                squatter.kill()
                squatter.wait(10)
            finish_all(started, timeout=90)
            final = check_agreement(started, records)
    finally:
        for squatter in squatters:
            if squatter.poll() is None:
                squatter.kill()
                squatter.wait(10)
    verify_cli(records[0])
    line = verify_cli(records[1])
    assert f"head {final[:16]}" in line

    counts: dict[str, int] = {}
    for source in SQUATTER_SOURCES:
        for code, n in json.loads((tmp_path / f"squat-{source}.json").read_text()).items():
            counts[code] = counts.get(code, 0) + n
    prompts = [name for name in answered.values() if name != "honest"]
    bound = len(SQUATTER_SOURCES) * (SOURCE_REFUSALS + MAX_PENDING_PER_SOURCE)
    assert len(prompts) <= bound, (len(prompts), bound)
    assert counts.get("busy", 0) > 0 and counts.get("refused", 0) > len(prompts), counts
    assert counts["asked"] > 2 * len(prompts), counts  # most requests never reached the person
    assert list(answered.values()).count("honest") >= 1
    assert "Traceback" not in host.stderr + honest.stderr
    attacks.tried(
        "seat squatting (5 sources × 4 keys, fresh keys every 0.3 s)",
        survived=True,
        detail=f"{counts['asked']} requests, {len(prompts)} reached the host's person "
        f"(bound {bound}), honest joiner seated after {seated_after:.1f} s",
    )
    attacks.figure("seat_under_squatting_s", round(seated_after, 1))


def _fake_host(
    answer: str, ready: threading.Event, ports: list[int], stop: threading.Event
) -> None:
    """A host that answers every join with a refusal (or just a bye) carrying EVIL."""

    async def handler(connection: Connection) -> None:
        await connection.receive()  # the join
        if answer == "refuse":
            await connection.send(encode_lobby(Refuse("refused", EVIL)))
        await connection.aclose(EVIL)

    async def main() -> None:
        listener = await open_listener(interface="127.0.0.1", port=0)
        ports.append(listener.port)
        async with trio.open_nursery() as nursery:
            await nursery.start(listener.serve, Identity.generate(), handler)
            ready.set()
            while not stop.is_set():
                await trio.sleep(0.1)
            nursery.cancel_scope.cancel()

    trio.run(main)


def _stranger(port: int, name: str, *, bye: str | None = None, hold: float = 0.5) -> None:
    """A stranger key sends `join` (any name, unchecked) and leaves with `bye` as its reason."""

    async def main() -> None:
        async with connect("127.0.0.1", port, Identity.generate(), expect=None) as host:
            await host.send(encode_lobby(Join(name, 9, "127.0.0.1", secrets.token_bytes(32))))
            await trio.sleep(hold)
            await host.aclose(bye or "bye")

    trio.run(main)


def test_escape_sequences_in_names_and_reasons_reach_no_terminal_or_log(
    tmp_path: Path, attacks: Attacks
) -> None:
    outputs: list[str] = []
    for answer in ("refuse", "bye"):
        ready, stop = threading.Event(), threading.Event()
        ports: list[int] = []
        fake = threading.Thread(target=_fake_host, args=(answer, ready, ports, stop))
        fake.start()
        try:
            assert ready.wait(10)
            with peers() as started:
                victim = _joiner(f"victim-{answer}", ports[0], tmp_path / "x.p2pd", tmp_path)
                started.append(victim)
                assert victim.wait(30) != 0
                outputs.append(victim.stdout + victim.stderr)
        finally:
            stop.set()
            fake.join(10)
    refused, bye = outputs
    # The fake host's words are quoted and said to be its peer's, never shown as ours.
    said_by = re.search(
        r"the host refused you a seat \(the host's peer \([A-Z2-7-]{9}\) says: “", refused
    )
    assert said_by is not None, refused
    assert "]0;owned[2J[31mredevilx" in refused, refused  # what is left is plain text
    assert "the host closed the connection" in bye, bye

    records = [tmp_path / f"seat{k}.p2pd" for k in range(3)]
    with peers() as started:
        host = _host("host", records[0], tmp_path, "--players", "3", "--ui", "text")
        started.append(host)
        port = host.port()
        _stranger(port, f"mal{EVIL}lory")  # not a valid join: refused
        _stranger(port, "mallory", bye=EVIL)  # seated (nobody asks), then leaves with EVIL
        host.wait_for(re.compile("mallory left the lobby"))
        for k in (1, 2):
            started.append(_joiner(f"honest{k}", port, records[k], tmp_path))
        finish_all(started, timeout=90)
        check_agreement(started, records)
        verify_cli(records[0])
        host_output = host.stdout + host.stderr
    assert "sent something other than a join message" in host_output, host_output
    for text in (refused, bye, host_output):
        assert _clean(text), ascii(FORBIDDEN.findall(text))
        assert "Traceback" not in text
    attacks.tried(
        "escape sequences in a refusal, a bye, a name (joiner and host terminals and logs)",
        survived=True,
        detail="no ESC/BEL/C1/bidi character in any output; the honest match verified",
    )


def _dial_as_stranger(port: int) -> tuple[str, float]:
    async def main() -> tuple[str, float]:
        started = trio.current_time()
        try:
            async with connect("127.0.0.1", port, Identity.generate(), expect=None):
                pass
        except RefusedByPeer as exc:
            return str(exc), trio.current_time() - started
        raise AssertionError("a stranger got past a joiner's handshake before the genesis")

    return trio.run(main)


def test_a_stranger_dialing_a_joiner_before_the_genesis_is_refused_at_once(
    tmp_path: Path, attacks: Attacks
) -> None:
    records = [tmp_path / f"seat{k}.p2pd" for k in range(3)]
    with peers() as started:
        host = _host("host", records[0], tmp_path, "--players", "3", "--ui", "none")
        started.append(host)
        port = host.port()
        first = _joiner("first", port, records[1], tmp_path)
        started.append(first)
        first_port = int(first.wait_for(LISTENING).group(1))
        first.wait_for(re.compile(r"2 of 3 seats"))  # seated; the genesis is not made yet
        refusals = [_dial_as_stranger(first_port) for _ in range(5)]
        assert first.process.poll() is None
        started.append(_joiner("second", port, records[2], tmp_path))
        finish_all(started, timeout=120)
        check_agreement(started, records)
        verify_cli(records[0])
    assert all("not seated at this table" in reason for reason, _ in refusals), refusals
    slowest = max(took for _, took in refusals)
    assert slowest < 2.0, refusals
    assert "Traceback" not in first.stderr
    attacks.tried(
        "stranger key dials a joiner before the genesis",
        survived=True,
        detail=f"refused at the handshake in at most {slowest * 1000:.0f} ms (5 tries)",
    )
