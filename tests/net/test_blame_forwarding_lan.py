"""Blame reaches everyone, with real processes over real TCP: a peer that cheats one peer
only (tests/net/cheating_peer.py) is named by every honest peer, with the same reason, long
before any stall timeout could name it; the third peer's record says the evidence was
forwarded by the victim (or, when the cheater's own forwarding reaches it first, that the
cheater signed two shuffles for one place)."""

from __future__ import annotations

import sys
from pathlib import Path

from p2p_dominoes.store import list_tables
from tests.net.lan_peers import Peer, cli_argv, peers, start_host

LOOPBACK = ("--interface", "127.0.0.1", "--port", "0", "--no-mdns", "--ui", "none")


def test_a_cheat_sent_to_the_host_only_stops_every_honest_peer(tmp_path: Path) -> None:
    data = {name: tmp_path / name for name in ("host", "joiner", "cheater")}
    with peers() as started:
        host = start_host(
            tmp_path,
            started,
            *("--bot", "random", "--players", "3", "--hands", "1"),
            *("--data-dir", str(data["host"])),
        )
        port = host.port()
        joiner = Peer(
            "joiner",
            cli_argv(
                "join",
                *("--connect", f"127.0.0.1:{port}", "--name", "joiner", "--bot", "random"),
                *("--data-dir", str(data["joiner"]), *LOOPBACK),
            ),
            tmp_path,
        )
        started.append(joiner)
        cheater = Peer(
            "cheater",
            [
                sys.executable,
                "-m",
                "tests.net.cheating_peer",
                *("--connect", f"127.0.0.1:{port}", "--name", "cheater", "--bot", "random"),
                *("--data-dir", str(data["cheater"]), *LOOPBACK),
            ],
            tmp_path,
        )
        started.append(cheater)
        # Far below the rules' 180 s stall timeout: only forwarded evidence can stop them.
        statuses = [peer.wait(60) for peer in (host, joiner)]
    assert "cheating: a swapped shuffle to seat 0 only" in cheater.stderr, cheater.stderr
    assert statuses == [3, 3], (host, joiner)
    (host_table,) = list_tables(data["host"])
    (joiner_table,) = list_tables(data["joiner"])
    seat = host_table.players.index("cheater")
    host_reason, joiner_reason = host_table.finish_reason, joiner_table.finish_reason
    assert host_reason is not None and joiner_reason is not None
    assert host_reason.startswith(f"seat {seat + 1}: ") and "shuffle" in host_reason, host_reason
    # The victim forwards the swapped shuffle; the cheater, shown its own swapped shuffle by the
    # victim, halts on an equivocation and forwards both of its shuffles. Whichever reaches the
    # joiner first is its evidence (a race on CI): both name the cheater.
    forwarded = f"{host_reason} (evidence forwarded by seat 1)"  # seats count from 1
    both = f"seat {seat + 1}: signed two different messages for the same place in the transcript"
    assert joiner_reason in (forwarded, both), joiner_reason
    for peer in (host, joiner):
        assert "The table stopped: cheater" in peer.stdout, peer.stdout
