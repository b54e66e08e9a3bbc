"""Whole matches between real OS processes over real TCP on 127.0.0.1, for 2, 3 and 4 seats.

One `host` and N−1 `join --connect` processes, each a bot with its own record and no mDNS:
they must all exit 0, print the same final transcript hash and write byte-identical records,
which `p2p-dominoes verify` finds clean and complete.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.net.lan_peers import play_on_loopback, verify_cli


@pytest.mark.slow
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_processes_on_loopback_play_a_whole_match_and_agree(tmp_path: Path, seats: int) -> None:
    table = play_on_loopback(tmp_path, seats, host_bot="random", timeout=120)
    records, final, started, host = table.records, table.final, table.peers, table.host
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
