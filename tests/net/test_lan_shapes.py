"""Trains between real OS processes over TCP on 127.0.0.1: a host and two joiners play a
two-hand match of the `trains` preset; every peer derives the same trains and markers from the
signed plays, the records are byte-identical and `verify` finds them clean."""

from __future__ import annotations

from pathlib import Path

from tests.net.lan_peers import Peer, check_agreement, cli_argv, finish_all, peers, verify_cli

LOOPBACK = ("--interface", "127.0.0.1", "--port", "0", "--no-mdns", "--ui", "none")


def test_a_trains_table_plays_over_the_lan(tmp_path: Path) -> None:
    seats = 3
    records = [tmp_path / f"seat{k}.p2pd" for k in range(seats)]
    with peers() as started:
        host = Peer(
            "host",
            cli_argv(
                "host",
                *("--name", "host", "--bot", "greedy", "--players", str(seats)),
                *("--rules", "trains", "--hands", "2"),
                *("--record", str(records[0]), *LOOPBACK),
            ),
            tmp_path,
        )
        started.append(host)
        port = host.port()
        for k in range(1, seats):
            started.append(
                Peer(
                    f"joiner{k}",
                    cli_argv(
                        "join",
                        *("--connect", f"127.0.0.1:{port}", "--name", f"joiner{k}"),
                        *("--bot", "random", "--record", str(records[k]), *LOOPBACK),
                    ),
                    tmp_path,
                )
            )
        finish_all(started, timeout=180)
        final = check_agreement(started, records)
    line = verify_cli(records[0])
    assert "clean" in line and f"head {final[:16]}" in line, line
    assert "(trains, 3 seats)" in host.stdout, host
