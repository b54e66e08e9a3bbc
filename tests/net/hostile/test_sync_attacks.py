"""A seated peer that floods catch-up requests (PROTOCOL.md §10.10) cannot make the host work
for nothing: over real TCP on loopback, a joiner (tests/net/hostile/sync_flooder.py) asks the
host 300 times for a catch-up from a random head after every message it sends. The two-hand
match still ends with the same final hash and identical records, the host names the flood in
its log without a traceback, and its CPU time stays close to an honest run's (both printed)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from tests.net.hostile.figures import Attacks
from tests.net.lan_peers import LOOPBACK, Peer, check_agreement, cli_argv, finish_all, peers

HANDS = ("--players", "2", "--hands", "2")
CPU = re.compile(r"host cpu seconds: ([0-9.]+)")


def _match(tmp_path: Path, joiner_module: str | None) -> tuple[float, Peer, Peer]:
    """A two-hand match between a bot host and a bot joiner; the host's CPU seconds."""
    records = [tmp_path / "host.p2pd", tmp_path / "joiner.p2pd"]
    with peers() as started:
        host = Peer(
            "host",
            [
                sys.executable,
                "-m",
                "tests.net.hostile.cpu_host",
                *("--name", "host", "--bot", "random", *HANDS, "--record", str(records[0])),
                *LOOPBACK,
            ],
            tmp_path,
        )
        started.append(host)
        where = f"127.0.0.1:{host.port()}"
        args = ("--connect", where, "--name", "joiner", "--bot", "random")
        argv = (
            cli_argv("join", *args)
            if joiner_module is None
            else [sys.executable, "-m", joiner_module, *args]
        )
        joiner = Peer("joiner", [*argv, "--record", str(records[1]), *LOOPBACK], tmp_path)
        started.append(joiner)
        finish_all(started, timeout=120)
        check_agreement(started, records)
    found = CPU.search(host.stderr)
    assert found is not None, host.stderr
    assert "Traceback" not in host.stderr, host.stderr
    return float(found.group(1)), host, joiner


def test_a_seated_peer_flooding_catch_up_requests_gets_a_few_answers(
    tmp_path: Path, attacks: Attacks
) -> None:
    (tmp_path / "honest").mkdir()
    (tmp_path / "flood").mkdir()
    honest_cpu, _, _ = _match(tmp_path / "honest", None)
    flooded_cpu, host, flooder = _match(tmp_path / "flood", "tests.net.hostile.sync_flooder")
    queued = re.search(r"flooding: (\d+) catch-up requests queued", flooder.stderr)
    assert queued is not None and int(queued.group(1)) >= 300 * 20, flooder.stderr
    named = re.findall(
        r"stranger at 127\.0\.0\.1:\d+: seat 1 floods catch-up requests", host.stderr
    )
    assert named, host.stderr
    # Unlimited, each of these requests was answered with the whole transcript so far.
    assert flooded_cpu < 2 * honest_cpu + 0.5, (flooded_cpu, honest_cpu)
    attacks.figure("catch_up_flood_host_cpu_s", f"{flooded_cpu:.2f} (honest run {honest_cpu:.2f})")
    attacks.tried(
        "catch-up-request-flood",
        survived=True,
        detail=(
            f"{queued.group(1)} requests from random heads (300 after each message) over a "
            f"two-hand match: it ended, records agree; host CPU {flooded_cpu:.2f} s "
            f"against {honest_cpu:.2f} s"
        ),
    )
