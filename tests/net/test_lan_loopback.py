"""Whole matches between real OS processes over real TCP on 127.0.0.1, for 2, 3 and 4 seats.

One `host` and N−1 `join --connect` processes, each a bot with its own record and no mDNS:
they must all exit 0, print the same final transcript hash and write byte-identical records,
which `p2p-dominoes verify` finds clean and complete.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.net.lan_peers import Peer, check_agreement, cli_argv, finish_all, peers, verify_cli

LOOPBACK = ("--interface", "127.0.0.1", "--port", "0", "--no-mdns", "--ui", "none")


@pytest.mark.slow
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_processes_on_loopback_play_a_whole_match_and_agree(tmp_path: Path, seats: int) -> None:
    records = [tmp_path / f"seat{k}.p2pd" for k in range(seats)]
    with peers() as started:
        host = Peer(
            "host",
            cli_argv(
                "host",
                *("--name", "host", "--bot", "random", "--players", str(seats)),
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
        finish_all(started, timeout=120)
        final = check_agreement(started, records)
    line = verify_cli(records[0])
    assert "match complete" in line and f"head {final[:16]}" in line, line
    assert "took a seat" in host.stdout  # the lobby seated the joiners in order
    # Every seat printed one table code, the same on every screen, and the audit shows it too.
    codes = {p.name: _table_codes(p.stdout) for p in started}
    assert all(len(shown) == 1 for shown in codes.values()), codes
    assert len({shown[0] for shown in codes.values()}) == 1, codes
    assert f"table code {codes['host'][0]}" in line, line


def _table_codes(stdout: str) -> list[str]:
    return [
        ln.removeprefix("Table code: ")
        for ln in stdout.splitlines()
        if ln.startswith("Table code: ")
    ]
