"""Three "laptops" in three network namespaces on one bridge play over real multicast mDNS.

Network hygiene: every peer runs inside a namespace made by `tests/net/netns.py:bridged_lan`
(veths created inside the namespaces, addresses 10.213.0.k, no default route), and each one is
pinned to its namespace's address with `--interface`, so its mDNS and TCP stay on that fake LAN.
Nothing here touches the machine's real interfaces, and the pytest process never starts zeroconf
(`conftest.py`).

- The host advertises the table; `tables --json` on another "laptop" lists it while it is in the
  lobby; the joiners find it by name and the three play two hands and agree.
- With multicast blocked on the bridge (a Wi-Fi that drops mDNS), nobody can find the table, but
  `join --connect HOST:PORT` still gets the three playing.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from tests.net.lan_peers import Peer, check_agreement, cli_argv, finish_all, peers, verify_cli
from tests.net.netns import REPO_ROOT, Lan, bridged_lan, namespace_support

pytestmark = [
    pytest.mark.netns,
    pytest.mark.slow,
    pytest.mark.skipif(namespace_support() is not None, reason=str(namespace_support())),
]

TABLE = "Kitchen"
ADVERTISED = re.compile(r"Advertised on the local network")


def _host(lan: Lan, tmp_path: Path, record: Path) -> Peer:
    return Peer(
        "host",
        lan.exec_argv(
            0,
            cli_argv(
                "host",
                *("--name", "Ann", "--table", TABLE, "--players", "3", "--hands", "2"),
                *("--bot", "random", "--ui", "none", "--record", str(record)),
                *("--interface", lan.v4[0]),
            ),
        ),
        tmp_path,
    )


def _joiner(lan: Lan, k: int, tmp_path: Path, record: Path, *how: str) -> Peer:
    return Peer(
        f"joiner{k}",
        lan.exec_argv(
            k,
            cli_argv(
                "join",
                *how,
                *("--name", f"player{k}", "--bot", "random", "--ui", "none"),
                *("--record", str(record), "--interface", lan.v4[k]),
            ),
        ),
        tmp_path,
    )


def _tables(lan: Lan, k: int, timeout: float) -> list[dict[str, object]]:
    """`p2p-dominoes tables --json` run on "laptop" k."""
    result = subprocess.run(
        lan.exec_argv(
            k, cli_argv("tables", "--json", "--timeout", str(timeout), "--interface", lan.v4[k])
        ),
        capture_output=True,
        text=True,
        timeout=60,
        cwd=REPO_ROOT,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    rows: list[dict[str, object]] = json.loads(result.stdout)
    return rows


def test_three_namespaces_find_the_table_over_mdns_and_play(tmp_path: Path) -> None:
    records = [tmp_path / f"seat{k}.p2pd" for k in range(3)]
    with bridged_lan(3) as lan, peers() as started:
        host = _host(lan, tmp_path, records[0])
        started.append(host)
        host.port()
        host.wait_for(ADVERTISED, timeout=30)
        listed = _tables(lan, 1, timeout=3.0)
        assert [(t["table"], t["host"], t["phase"], t["seats"]) for t in listed] == [
            (TABLE, "Ann", "lobby", "1/3")
        ], listed
        assert listed[0]["addresses"] == [lan.v4[0]]  # only the address it was told to use
        for k in (1, 2):
            started.append(_joiner(lan, k, tmp_path, records[k], TABLE))
        finish_all(started, timeout=120)
        final = check_agreement(started, records)
    line = verify_cli(records[0])
    assert f"head {final[:16]}" in line, line


def test_with_multicast_blocked_connect_by_address_still_plays(tmp_path: Path) -> None:
    records = [tmp_path / f"seat{k}.p2pd" for k in range(3)]
    with bridged_lan(3) as lan, peers() as started:
        lan.block_multicast()
        host = _host(lan, tmp_path, records[0])
        started.append(host)
        port = host.port()
        host.wait_for(ADVERTISED, timeout=30)
        assert _tables(lan, 1, timeout=2.0) == []  # the block is real: no discovery
        for k in (1, 2):
            started.append(
                _joiner(lan, k, tmp_path, records[k], "--connect", f"{lan.v4[0]}:{port}")
            )
        finish_all(started, timeout=120)
        check_agreement(started, records)
        for joiner in started[1:]:  # no advertised key to pin: the fingerprint is shown
            assert "compare it with the one the host's screen shows" in joiner.stdout
    verify_cli(records[0])
