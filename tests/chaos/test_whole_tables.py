"""Whole tables come back: `host --bots`, `demo` and a `play` table with a bot seat, each stopped
by `kill -9` of its whole process group (as a reboot would) and by Ctrl-C's SIGINT, mid-hand and
at the end of a hand, then resumed with everything (bots included) from the data directories;
the match finishes and every peer's record verifies.
"""

from __future__ import annotations

import re
import signal
import time
from pathlib import Path

from tests.chaos.conftest import Figures
from tests.chaos.whole_tables import (
    PAGE_URL,
    Group,
    PageDriver,
    bot_identities,
    check_whole,
    phase,
    table_log,
    wait_until,
)

STOPS = ((signal.SIGKILL, ("turns",)), (signal.SIGINT, ("reveal",)))
"""kill -9 mid-hand, then Ctrl-C at the end of a hand (hand_reveal / secret_reveal)."""
NAMES = {signal.SIGKILL: "kill -9", signal.SIGINT: "Ctrl-C"}
PEER = ("--ui", "none", "--no-mdns", "--interface", "127.0.0.1", "--port", "0")


def _wait_for_phase(data: Path, phases: tuple[str, ...], group: Group) -> str:
    """Wait until the log is in one of `phases` (or over); the phase found."""
    assert wait_until(lambda: phase(data) in (*phases, "over"), 90), group.text()
    found = phase(data)
    assert found is not None
    return found


def test_host_with_bots_comes_back_whole(tmp_path: Path, figures: Figures) -> None:
    data, record = tmp_path / "host-data", tmp_path / "host.p2pd"
    common = ["--bot", "random", *PEER, "--data-dir", str(data), "--record", str(record)]
    started = time.monotonic()
    group = Group.start(
        ["host", "--name", "host", "--players", "3", "--bots", "2", "--hands", "3", *common],
        tmp_path / "run0.out",
    )
    stops: list[str] = []
    try:
        for number, (signum, phases) in enumerate(STOPS, start=1):
            at = _wait_for_phase(data, phases, group)
            if at == "over":
                break
            status = group.stop(signum)
            assert status in (-signal.SIGKILL, 130), (status, group.text())
            stops.append(f"{NAMES[signum]} in {at}")
            group = Group.start(["resume", *common], tmp_path / f"run{number}.out")
        assert group.process.wait(timeout=120) == 0, group.text()
        assert bot_identities(data) == {"bot-1": 0o600, "bot-2": 0o600}
        verified = check_whole(data, record, [])
    finally:
        group.close()
    figures.whole_tables.append(
        {
            "table": "host --bots 2",
            "stops": stops,
            "records_verified": verified,
            "seconds": round(time.monotonic() - started, 1),
        }
    )


def test_demo_comes_back_whole(tmp_path: Path, figures: Figures) -> None:
    folder = tmp_path / "records"
    folder.mkdir()
    record = folder / "demo.p2pd"
    started = time.monotonic()
    demo = Group.start(
        ["demo", "--players", "3", "--hands", "3", "--record", str(record)], tmp_path / "demo.out"
    )
    resumed: Group | None = None
    stops: list[str] = []
    try:
        assert wait_until(lambda: "kept in" in demo.text(), 30), demo.text()
        found = re.search(r"kept in (\S+) until", demo.text())
        assert found, demo.text()
        data = Path(found.group(1))
        # Ctrl-C mid-hand: the demo says how to come back.
        at = _wait_for_phase(data, ("turns",), demo)
        assert at != "over", demo.text()
        assert demo.stop(signal.SIGINT) == 130, demo.text()
        assert "to finish it: p2p-dominoes resume --data-dir" in demo.text(), demo.text()
        stops.append(f"Ctrl-C in {at}")
        command = ["resume", "--data-dir", str(data), "--bot", "random", "--ui", "none"]
        command += ["--record", str(record)]
        resumed = Group.start(command, tmp_path / "resume1.out")
        at = _wait_for_phase(data, ("reveal",), resumed)
        if at != "over":
            assert resumed.stop(signal.SIGKILL) == -signal.SIGKILL
            stops.append(f"kill -9 in {at}")
            resumed = Group.start(command, tmp_path / "resume2.out")
        assert resumed.process.wait(timeout=120) == 0, resumed.text()
        verified = check_whole(data, record, [])
        assert sorted(p.name for p in folder.iterdir()) == ["demo.p2pd"]
    finally:
        demo.close()
        if resumed is not None:
            resumed.close()
    figures.whole_tables.append(
        {
            "table": "demo --players 3",
            "stops": stops,
            "records_verified": verified,
            "seconds": round(time.monotonic() - started, 1),
        }
    )
