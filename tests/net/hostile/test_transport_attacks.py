"""Transport attacks from strangers on the LAN, against real `host`, `join` and `play` processes.

Every attacker here runs in the test process and reaches the victims over 127.0.0.1 from source
addresses of its own (127.0.x.y: Linux routes all of 127/8 to loopback), so that "one address"
and "many addresses" mean what they say to the victims' per-source limits. Each test checks that
the victims survive, records its figures, and then lets honest peers finish a real match whose
records agree and verify.

- RST flood: hundreds of connections reset right after connect (SO_LINGER 0) at a host, a joiner
  and a web peer's LAN and page ports; they used to end the process (`getpeername()` raised).
- Stranger memory pressure: authenticated strangers push 64 KiB messages as fast as they can at a
  joiner (which does not read strangers before the genesis) and at the host; peak RSS recorded.
- Slot exhaustion from one address and from many: silent connections and idle authenticated
  strangers hold every slot they can, re-opened as soon as they are closed, while an honest
  joiner joins; the time it takes to get a seat is recorded.
"""

from __future__ import annotations

import re
import socket
import time
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any

import pytest
import trio

from p2p_dominoes.net import connect
from p2p_dominoes.session import Identity
from tests.net.hostile import clients
from tests.net.hostile.figures import Attacks
from tests.net.lan_peers import (
    Peer,
    check_agreement,
    cli_argv,
    finish_all,
    peers,
    start_host,
    verify_cli,
)
from tests.ports import unallocated_port
from tests.ui.page_client import PageSocket, log_in

LOOPBACK = ("--interface", "127.0.0.1", "--port", "0", "--no-mdns")
LISTENING = re.compile(r"Listening on port (\d+)")
TOOK_SEAT = re.compile(r"took a seat")
PAGE_URL = re.compile(r"open http://127\.0\.0\.1:(\d+)/\?token=(\S+)")
MATCH_SECONDS = 120


def _host(tmp_path: Path, started: list[Peer], players: int, record: Path) -> Peer:
    return start_host(
        tmp_path,
        started,
        *("--bot", "random", "--players", str(players), "--hands", "1"),
        *("--record", str(record)),
    )


def _joiner(tmp_path: Path, started: list[Peer], name: str, port: int, record: Path) -> Peer:
    joiner = Peer(
        name,
        cli_argv(
            "join",
            *("--connect", f"127.0.0.1:{port}", "--name", name, "--bot", "random"),
            *("--ui", "none", "--record", str(record), *LOOPBACK),
        ),
        tmp_path,
    )
    started.append(joiner)
    return joiner


def _alive(*victims: Peer) -> None:
    for victim in victims:
        assert victim.process.poll() is None, f"{victim.name} died\n{victim}"


def _no_traceback(*victims: Peer) -> None:
    for victim in victims:
        assert "Traceback" not in victim.stderr, str(victim)


def _peak_rss_mib(pid: int) -> float:
    """The process's peak resident set (VmHWM), in MiB."""
    status = Path(f"/proc/{pid}/status").read_text()
    found = re.search(r"^VmHWM:\s+(\d+) kB", status, re.MULTILINE)
    assert found, status
    return int(found.group(1)) / 1024


def _match_completes(started: list[Peer], records: list[Path]) -> str:
    """Every peer exits 0 with the same final hash; the records agree and verify."""
    finish_all(started, timeout=MATCH_SECONDS)
    final = check_agreement(started, records)
    line = verify_cli(records[0])
    assert f"head {final[:16]}" in line
    return final


def _handshake_works(port: int) -> None:
    """A fresh key completes the handshake (a lobby accepts anyone to ask for a seat)."""

    async def dial() -> None:
        async with connect("127.0.0.1", port, Identity.generate(), expect=None):
            pass

    trio.run(dial)


def _wait_listening(port: int, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def _web_command(page_port: int, token: str, command: dict[str, Any]) -> None:
    """Open the page's one-time link as a browser would, then send one command over its socket."""
    login = log_in(page_port, token)
    with PageSocket(page_port, cookie=login.cookie, key=login.key) as page:
        assert page.status == 101, page.status
        page.receive_until("state")
        page.send_json(command)
        time.sleep(0.5)


def _page_answers(page_port: int) -> bool:
    """The page server still answers HTTP (a request without the session cookie gets 403)."""
    with socket.create_connection(("127.0.0.1", page_port), timeout=10) as sock:
        sock.sendall(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{page_port}\r\n\r\n".encode())
        return sock.recv(64).startswith(b"HTTP/1.1 403")


def _web_peer(tmp_path: Path, started: list[Peer]) -> tuple[Peer, int, int]:
    """A `play` peer hosting a two-seat table from its page; (peer, page port, LAN port)."""
    lan_port = unallocated_port()
    web = Peer(
        "web",
        cli_argv(
            "play",
            *("--no-browser", "--no-mdns", "--interface", "127.0.0.1", "--name", "web"),
            *("--lan-port", str(lan_port), "--data-dir", str(tmp_path / "web-data")),
        ),
        tmp_path,
    )
    started.append(web)
    found = web.wait_for(PAGE_URL)
    page_port, token = int(found.group(1)), found.group(2)
    command = {"type": "host", "table": "Web", "rules": "draw", "players": 2, "bots": 0}
    _web_command(page_port, token, command)
    _wait_listening(lan_port)
    return web, page_port, lan_port


# --- RST flood ------------------------------------------------------------------------------

RESETS = 240


def test_rst_flood_ends_no_peer_and_the_match_completes(tmp_path: Path, attacks: Attacks) -> None:
    records = [tmp_path / f"{name}.p2pd" for name in ("host", "one", "two")]
    with peers() as started:
        host = _host(tmp_path, started, 3, records[0])
        host_port = host.port()
        one = _joiner(tmp_path, started, "one", host_port, records[1])
        one_port = int(one.wait_for(LISTENING).group(1))
        one.wait_for(re.compile(r"seats: "))
        web, page_port, web_port = _web_peer(tmp_path, started)
        targets = [host_port, one_port, web_port, page_port]
        with ThreadPoolExecutor(max_workers=len(targets)) as pool:
            jobs = [
                pool.submit(clients.reset_burst, port, RESETS, source_ip=clients.source(n + 600))
                for n, port in enumerate(targets)
            ]
            connected = [job.result(timeout=120) for job in jobs]
        time.sleep(1.0)
        _alive(host, one, web)
        assert all(n >= RESETS * 0.9 for n in connected), connected
        _handshake_works(web_port)
        assert _page_answers(page_port)
        web.process.terminate()
        web.wait(20)
        started.remove(web)
        two = _joiner(tmp_path, started, "two", host_port, records[2])
        _match_completes(started, records)
        _no_traceback(host, one, two)
    attacks.tried(
        "rst-flood",
        survived=True,
        detail=f"{sum(connected)} connections reset right after connect at host, joiner, "
        "play (LAN and page ports); all alive, then a 3-seat match verified",
    )


# --- stranger memory pressure ---------------------------------------------------------------

PRESSURE_SECONDS = 12.0
RSS_BOUND_MIB = 64.0
"""How far the victims' peak RSS may rise above where it was before the attack."""


def test_stranger_memory_pressure_is_bounded(tmp_path: Path, attacks: Attacks) -> None:
    records = [tmp_path / f"{name}.p2pd" for name in ("host", "one", "two")]
    with peers() as started:
        host = _host(tmp_path, started, 3, records[0])
        host_port = host.port()
        one = _joiner(tmp_path, started, "one", host_port, records[1])
        one_port = int(one.wait_for(LISTENING).group(1))
        one.wait_for(re.compile(r"seats: "))
        time.sleep(0.5)
        before = {p.name: _peak_rss_mib(p.process.pid) for p in (host, one)}
        sources = [clients.source(n + 300) for n in range(24)]
        pushers = [
            clients.Pusher(one_port, sources[:16], per_source=2),
            clients.Pusher(host_port, sources[16:], per_source=2),
        ]

        async def attack() -> None:
            async with trio.open_nursery() as nursery:
                for pusher in pushers:
                    nursery.start_soon(pusher.run)
                await trio.sleep(PRESSURE_SECONDS)
                for pusher in pushers:
                    pusher.stop.set()

        trio.run(attack)
        _alive(host, one)
        peak = {p.name: _peak_rss_mib(p.process.pid) for p in (host, one)}
        pushed_mib = [round(p.sent / 2**20) for p in pushers]
        # A joiner before the genesis lets only the host's announced keys past its handshake:
        # no stranger gets to send it anything. The host must take strangers (they may be
        # asking for a seat), so they push for real there: more than any queue holds.
        assert pushers[0].connections == 0 and pushers[0].sent == 0, pushed_mib
        assert pushers[1].sent > 8 * 2**20, pushed_mib
        for name, value in peak.items():
            assert value - before[name] < RSS_BOUND_MIB, (before, peak)
        two = _joiner(tmp_path, started, "two", host_port, records[2])
        _match_completes(started, records)
        _no_traceback(host, one, two)
    figure = {name: round(value, 1) for name, value in peak.items()}
    start = {name: round(value, 1) for name, value in before.items()}
    attacks.figure("peak_rss_mib_under_memory_attack", figure)
    attacks.tried(
        "stranger-memory-pressure",
        survived=True,
        detail=f"strangers refused at a joiner's handshake (nothing queued), {pushed_mib[1]} MiB "
        f"pushed at the host in {PRESSURE_SECONDS:g} s; peak RSS {figure} MiB (before {start}); "
        "match verified",
    )


# --- slot exhaustion ------------------------------------------------------------------------


@pytest.mark.parametrize("spread", ["one-address", "many-addresses"])
def test_slot_exhaustion_does_not_keep_an_honest_joiner_out(
    tmp_path: Path, attacks: Attacks, spread: str
) -> None:
    sources = (
        [clients.source(900)]
        if spread == "one-address"
        else [clients.source(n + 1000) for n in range(64)]
    )
    # One address: the attack, idle authenticated connections (31 filled every slot).
    # Many addresses: silent handshakes and idle strangers from each of 64 sources.
    silent, strangers = (0, 40) if spread == "one-address" else (5, 5)
    records = [tmp_path / f"{name}.p2pd" for name in ("host", "honest")]
    with peers() as started:
        host = _host(tmp_path, started, 2, records[0])
        host_port = host.port()
        attack = clients.SlotAttack(host_port, sources, silent=silent, strangers=strangers)
        seen: dict[str, float] = {}

        async def scenario() -> None:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(attack.run)
                await trio.sleep(3.0)  # every slot the attack can get is taken
                seen["held"] = attack.authenticated
                honest = _joiner(tmp_path, started, "honest", host_port, records[1])
                await trio.to_thread.run_sync(partial(honest.wait_for, LISTENING, timeout=30))
                listening = time.monotonic()
                await trio.to_thread.run_sync(partial(host.wait_for, TOOK_SEAT, timeout=60))
                seen["seconds"] = time.monotonic() - listening
                attack.stop.set()

        trio.run(scenario)
        honest = started[-1]
        seconds, held_before = seen["seconds"], seen["held"]
        # While the attack winds down, the one-hand match may already be over: the host has
        # then ended as it should (status 0), not died.
        status = host.process.poll()
        assert status in (None, 0), f"host died (status {status})\n{host}"
        _match_completes(started, records)
        _no_traceback(host, honest)
    assert held_before > 0  # the attack did hold slots
    attacks.figure(f"honest_join_seconds_under_slot_attack ({spread})", round(seconds, 2))
    attacks.tried(
        f"slot-exhaustion-{spread}",
        survived=True,
        detail=f"{len(sources)} source(s), {attack.opened} silent and {attack.authenticated} "
        f"authenticated idle connections; honest joiner seated in {seconds:.2f} s; match verified",
    )
