"""The runtime's ticks, on a fake clock: while another seat's message is due, the UI is told
whom we wait for (once 2.5 s have passed, then every 5 s) although the catch-up requests go on
every second, and the presence report counts from when that seat's message became due."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial

import trio

from p2p_dominoes.bots import random_bot
from p2p_dominoes.engine import PRESETS, Action, SeatView
from p2p_dominoes.net.presence import Presence
from p2p_dominoes.net.runtime import (
    PeerOptions,
    TableRun,
    _Link,
    _Outgoing,
    _tick,
    presence_of,
)
from p2p_dominoes.session import Identity
from p2p_dominoes.session.events import Event
from p2p_dominoes.session.local import LocalTable
from p2p_dominoes.session.table import TableSession


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class Reports:
    """Reads the presence at every tick the runtime gives."""

    def __init__(self, into: list[Presence]) -> None:
        self.into = into
        self.read: Callable[[], Presence] | None = None

    def watch(self, read: Callable[[], Presence]) -> None:
        self.read = read

    def tick(self) -> None:
        assert self.read is not None
        self.into.append(self.read())


class NoticeUI:
    """Keeps the "waiting for" notices."""

    def __init__(self) -> None:
        self.waited: list[tuple[str, float]] = []

    def say(self, line: str) -> None:
        pass

    def seated(self, session: TableSession, names: Sequence[str]) -> None:
        pass

    def events(self, events: Sequence[Event], names: Sequence[str], seat: int) -> None:
        pass

    def waiting(self, name: str, seconds: float) -> None:
        self.waited.append((name, seconds))

    async def choose(
        self, view: SeatView, names: Sequence[str], scores: Sequence[int], target: int
    ) -> Action:
        raise AssertionError("not asked in this test")


def _bobs_run(clock: Clock) -> tuple[TableRun, NoticeUI, list[Presence]]:
    """Bob's peer (seat 1) at a fresh table: Ann's genesis signature is due."""
    ids = [Identity.generate(), Identity.generate()]
    table = LocalTable.create(
        PRESETS["draw"], ["Ann", "Bob"], [random_bot] * 2, max_hands=1, identities=ids
    )
    ui = NoticeUI()
    reports: list[Presence] = []
    options = PeerOptions(name="Bob", identity=ids[1], ui=ui, presence=Reports(reports))
    run = TableRun(table.sessions[1], options, ("Ann", "Bob"), clock=clock)
    run.last_progress = run.waiting_since = clock.now
    options.presence.watch(partial(presence_of, run))  # as play_table does
    return run, ui, reports


def test_the_waiting_notice_comes_although_catch_up_requests_go_on() -> None:
    clock = Clock()
    run, ui, reports = _bobs_run(clock)
    send, receive = trio.open_memory_channel[_Outgoing](100)
    run.links[0] = _Link(0, None, send)  # type: ignore[arg-type]  # only its queue is used
    for _ in range(24):  # twelve seconds of ticks, every half second
        clock.now += 0.5
        assert _tick(run) is None
    assert [round(seconds, 1) for name, seconds in ui.waited] == [2.5, 7.5]
    assert {name for name, _ in ui.waited} == {"Ann"}
    asked = []
    while True:
        try:
            asked.append(receive.receive_nowait())
        except trio.WouldBlock:
            break
    assert len(asked) == 11  # from 2 s on, every second
    assert all(item == ("sync", run.session.transcript.head) for item in asked)
    last = reports[-1]
    assert last.waiting is not None and last.waiting.seat == 0
    assert last.waiting.seconds == 12.0 and last.waiting.stall_left == 168.0
    assert [s.state for s in last.seats] == ["connected", "me"]
    assert last.stall_warning is None


def test_the_stall_warning_starts_a_minute_before_the_timeout_and_names_an_away_seat() -> None:
    clock = Clock()
    run, _, reports = _bobs_run(clock)
    run.lost[0] = clock.now
    clock.now += 119.0
    _tick(run)
    assert reports[-1].stall_warning is None
    clock.now += 1.5
    _tick(run)
    warning = reports[-1].stall_warning
    assert warning is not None and warning.away and warning.stall_left == 59.5
    assert reports[-1].seats[0].state == "away" and reports[-1].seats[0].away_seconds == 120.5
    clock.now += 60.0
    update = _tick(run)  # the stall timeout: Ann is named and the table stops for Bob
    assert update is not None and run.session.blame is not None
    assert run.session.blame.seat == 0 and run.session.blame.code == "stall"
