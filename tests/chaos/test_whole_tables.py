"""Whole tables come back: `host --bots`, `demo` and a `play` table with a bot seat, each stopped
by `kill -9` of its whole process group (as a reboot would) and by Ctrl-C's SIGINT, mid-hand and
at the end of a hand, then resumed with everything (bots included) from the data directories;
the match finishes and every peer's record verifies.
"""

from __future__ import annotations

import re
import shutil
import signal
import time
from functools import partial
from pathlib import Path

import pytest

from tests.chaos.figures import Figures
from tests.chaos.whole_tables import (
    Group,
    PageDriver,
    back_in_play,
    bot_identities,
    check_whole,
    logged,
    page_link,
    phase,
    wait_until,
)
from tests.ports import unallocated_port

MID_HAND, END_OF_HAND = ("turns",), ("reveal",)
"""Where a table is stopped: in a hand's turns, and in its reveal (hand_reveal, secret_reveal)."""
SIGNALS = pytest.mark.parametrize(
    "signum", [signal.SIGKILL, signal.SIGINT], ids=["kill-9", "ctrl-c"]
)
NAMES = {signal.SIGKILL: "kill -9", signal.SIGINT: "Ctrl-C"}
PEER = ("--ui", "none", "--no-mdns", "--interface", "127.0.0.1", "--port", "0")

pytestmark = pytest.mark.slow


def _wait_for_phase(data: Path, phases: tuple[str, ...], group: Group) -> str:
    """Wait until the log is in one of `phases` (or over); the phase found."""
    assert wait_until(lambda: phase(data) in (*phases, "over"), 90), group.text()
    found = phase(data)
    assert found is not None
    return found


@SIGNALS
def test_host_with_bots_comes_back_whole(
    tmp_path: Path, figures: Figures, signum: signal.Signals
) -> None:
    data, record = tmp_path / "host-data", tmp_path / "host.p2pd"
    common = ["--bot", "random", *PEER, "--data-dir", str(data), "--record", str(record)]
    started = time.monotonic()
    group = Group.start(
        ["host", "--name", "host", "--players", "3", "--bots", "2", "--hands", "3", *common],
        tmp_path / "run0.out",
    )
    stops: list[str] = []
    back: list[float] = []
    try:
        for number, phases in enumerate((MID_HAND, END_OF_HAND), start=1):
            at = _wait_for_phase(data, phases, group)
            if at == "over":
                break
            status = group.stop(signum)
            assert status in (-signal.SIGKILL, 130), (status, group.text())
            stops.append(f"{NAMES[signum]} in {at}")
            before, since = logged(data), time.monotonic()
            group = Group.start(["resume", *common], tmp_path / f"run{number}.out")
            back.append(back_in_play(data, before, since, group.text))
        assert group.process.wait(timeout=120) == 0, group.text()
        assert bot_identities(data) == {"bot-1": 0o600, "bot-2": 0o600}
        for number in range(1, len(stops) + 1):
            said = (tmp_path / f"run{number}.out").read_text()
            assert "Bringing back our bots: bot-1, bot-2." in said, said
        verified = check_whole(data, record, [])
    finally:
        group.close()
    figures.whole_tables.append(
        {
            "table": "host --bots 2",
            "stops": stops,
            "records_verified": verified,
            "back_in_play_s": back,
            "seconds": round(time.monotonic() - started, 1),
        }
    )


def test_a_host_killed_alone_finds_its_bots_still_playing(tmp_path: Path, figures: Figures) -> None:
    """kill -9 of the host's process only: its bots live on and wait; the resumed host's own
    attempt to resume them meets their busy logs, and the bots that never stopped play on."""
    data, record = tmp_path / "host-data", tmp_path / "host.p2pd"
    common = ["--bot", "random", *PEER, "--data-dir", str(data), "--record", str(record)]
    started = time.monotonic()
    first = Group.start(
        ["host", "--name", "host", "--players", "3", "--bots", "2", "--hands", "2", *common],
        tmp_path / "run0.out",
    )
    resumed: Group | None = None
    try:
        at = _wait_for_phase(data, MID_HAND, first)
        assert at != "over", first.text()
        first.process.kill()  # the host alone, by the PID we started
        assert first.process.wait(timeout=10) == -signal.SIGKILL
        assert not first.group_gone(), "the bots should have outlived their host"
        before, since = logged(data), time.monotonic()
        resumed = Group.start(["resume", *common], tmp_path / "run1.out")
        back = back_in_play(data, before, since, resumed.text)
        assert resumed.process.wait(timeout=120) == 0, resumed.text()
        assert wait_until(first.group_gone, 30), "the first bots did not finish"
        verified = check_whole(data, record, [])
    finally:
        first.close()
        if resumed is not None:
            resumed.close()
    figures.whole_tables.append(
        {
            "table": "host --bots 2 (host alone killed)",
            "stops": [f"kill -9 of the host only in {at}"],
            "records_verified": verified,
            "back_in_play_s": [back],
            "seconds": round(time.monotonic() - started, 1),
        }
    )


@SIGNALS
def test_demo_comes_back_whole(tmp_path: Path, figures: Figures, signum: signal.Signals) -> None:
    """The demo's whole process group stopped mid-hand, then its `resume` at a hand's end."""
    folder = tmp_path / "records"
    folder.mkdir()
    record = folder / "demo.p2pd"
    started = time.monotonic()
    demo = Group.start(
        ["demo", "--players", "3", "--hands", "3", "--record", str(record)], tmp_path / "demo.out"
    )
    resumed: Group | None = None
    data: Path | None = None
    stops: list[str] = []
    back: list[float] = []
    try:
        assert wait_until(lambda: "kept in" in demo.text(), 30), demo.text()
        found = re.search(r"kept in (\S+) until", demo.text())
        assert found, demo.text()
        data = Path(found.group(1))
        at = _wait_for_phase(data, MID_HAND, demo)
        assert at != "over", demo.text()
        if signum == signal.SIGINT:  # the demo says how to come back
            assert demo.stop(signum) == 130, demo.text()
            assert "to finish it: p2p-dominoes resume --data-dir" in demo.text(), demo.text()
        else:  # nothing can be said: the demo, its host and its bots are gone at once
            assert demo.stop(signum) == -signal.SIGKILL, demo.text()
        stops.append(f"{NAMES[signum]} in {at}")
        before, since = logged(data), time.monotonic()
        command = ["resume", "--data-dir", str(data), "--bot", "random", "--ui", "none"]
        command += ["--record", str(record)]
        resumed = Group.start(command, tmp_path / "resume1.out")
        back.append(back_in_play(data, before, since, resumed.text))
        at = _wait_for_phase(data, END_OF_HAND, resumed)
        if at != "over":
            assert resumed.stop(signum) in (-signal.SIGKILL, 130), resumed.text()
            stops.append(f"{NAMES[signum]} in {at}")
            before, since = logged(data), time.monotonic()
            resumed = Group.start(command, tmp_path / "resume2.out")
            back.append(back_in_play(data, before, since, resumed.text))
        assert resumed.process.wait(timeout=120) == 0, resumed.text()
        verified = check_whole(data, record, [])
        assert sorted(p.name for p in folder.iterdir()) == ["demo.p2pd"]
    finally:
        demo.close()
        if resumed is not None:
            resumed.close()
        if data is not None:  # the demo's own temporary folder: the demo was stopped
            shutil.rmtree(data, ignore_errors=True)
    figures.whole_tables.append(
        {
            "table": f"demo --players 3 ({NAMES[signum]})",
            "stops": stops,
            "records_verified": verified,
            "back_in_play_s": back,
            "seconds": round(time.monotonic() - started, 1),
        }
    )


def _offers_resume(page: PageDriver) -> bool:
    return bool(page.lobby.get("unfinished"))


def _shows_bot_levels(page: PageDriver, levels: list[str]) -> bool:
    """Whether the page's presence names exactly `levels` for its bot seats."""
    return [p["bot"] for p in page.last.get("presence") or [] if p.get("bot")] == levels


def _play(tmp_path: Path, name: str, lan_port: int, run: int) -> Group:
    argv = ["play", "--no-browser", "--no-mdns", "--interface", "127.0.0.1", "--name", name]
    argv += ["--next-hand-after", "1"]  # no 10 s pause between hands on a page nobody reads
    argv += ["--lan-port", str(lan_port), "--data-dir", str(tmp_path / f"{name}-data")]
    return Group.start(argv, tmp_path / f"{name}-run{run}.out")


@SIGNALS
def test_play_table_comes_back_whole(
    tmp_path: Path, figures: Figures, signum: signal.Signals
) -> None:
    """Two `play` peers driven over their pages and a bot seat (the host's); the host's `play`
    (with its bot) is stopped (kill -9 or Ctrl-C) mid-hand and at the end of a hand, started
    again on the same data directory, and its page resumes the table."""
    ann_port, bob_port = unallocated_port(), unallocated_port()
    ann_data, bob_data = tmp_path / "ann-data", tmp_path / "bob-data"
    started = time.monotonic()
    ann, bob = _play(tmp_path, "ann", ann_port, 0), _play(tmp_path, "bob", bob_port, 0)
    drivers: list[PageDriver] = []
    stops: list[str] = []
    back: list[float] = []
    try:
        ann_page = PageDriver(*page_link(ann))
        bob_page = PageDriver(*page_link(bob))
        drivers += [ann_page, bob_page]
        assert wait_until(lambda: bool(ann_page.lobby), 20)
        assert ann_page.lobby.get("unfinished") is None
        table = {"type": "host", "table": "Web", "rules": "draw", "players": 3, "bots": 1}
        ann_page.send({**table, "hands": 3})
        assert wait_until(lambda: ann_page.lobby.get("host_lobby") is not None, 20), ann.text()
        bob_page.send({"type": "join", "address": f"127.0.0.1:{ann_port}"})
        for number, phases in enumerate((MID_HAND, END_OF_HAND), start=1):
            at = _wait_for_phase(ann_data, phases, ann)
            if at == "over":
                break
            status = ann.stop(signum)
            assert status in (-signal.SIGKILL, 0, 130), (status, ann.text())
            if signum == signal.SIGINT:  # Ctrl-C: `play` says the table is kept, and how back
                assert "the unfinished table 'Web' is kept: run p2p-dominoes play" in ann.text()
            stops.append(f"{NAMES[signum]} in {at}")
            before, since = logged(ann_data), time.monotonic()
            ann = _play(tmp_path, "ann", ann_port, number)
            ann_page = PageDriver(*page_link(ann))
            drivers.append(ann_page)
            assert wait_until(partial(_offers_resume, ann_page), 20), ann.text()
            assert ann_page.lobby["unfinished"]["name"] == "Web"
            ann_page.send({"type": "resume"})
            back.append(back_in_play(ann_data, before, since, ann.text))
            # The resumed host still names its bot's seat by level on its page.
            assert wait_until(partial(_shows_bot_levels, ann_page, ["random"]), 30), ann_page.last
        assert wait_until(lambda: phase(ann_data) == "over" and phase(bob_data) == "over", 120), (
            ann.text() + bob.text()
        )
        assert wait_until(lambda: ann_page.over and bob_page.over, 30)
        verified = check_whole(ann_data, None, [bob_data])
        assert not ann_page.refusals and not bob_page.refusals, ann_page.refusals
    finally:
        for driver in drivers:
            driver.close()
        ann.close()
        bob.close()
    figures.whole_tables.append(
        {
            "table": "play ×2 + a bot seat",
            "stops": stops,
            "records_verified": verified,
            "back_in_play_s": back,
            "seconds": round(time.monotonic() - started, 1),
        }
    )
