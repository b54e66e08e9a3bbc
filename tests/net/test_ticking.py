"""The runtime's ticks (`net/ticking.py`), on a fake clock: while another seat's message is
due, the UI is told whom we wait for (once 2.5 s have passed, then every 5 s) although the
catch-up requests go on every second, and the presence report counts from when that seat's
message became due."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial

import trio
import trio.testing

from p2p_dominoes.bots import random_bot
from p2p_dominoes.engine import PRESETS, Action, SeatView
from p2p_dominoes.net import PeerOptions, TableRun
from p2p_dominoes.net.links import link_down
from p2p_dominoes.net.page_presence import PageState, encode_presence
from p2p_dominoes.net.presence import Presence
from p2p_dominoes.net.runtime import page_heard
from p2p_dominoes.net.table_run import Item, Link, LinkDown, Outgoing, PageSaid, Tick
from p2p_dominoes.net.ticking import presence_of, slept, tick, ticker
from p2p_dominoes.session import Identity, TableSession
from p2p_dominoes.session.events import Event
from p2p_dominoes.session.local import LocalTable


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
    send, receive = trio.open_memory_channel[Outgoing](100)
    run.links[0] = Link(0, None, send)  # type: ignore[arg-type]  # only its queue is used
    for _ in range(24):  # twelve seconds of ticks, every half second
        clock.now += 0.5
        assert tick(run) is None
    assert [round(seconds, 1) for name, seconds in ui.waited] == [2.5, 7.5]
    assert {name for name, _ in ui.waited} == {"Ann"}
    asked = []
    while True:
        try:
            asked.append(receive.receive_nowait())
        except trio.WouldBlock:
            break
    # The first tick tells Ann's peer there is no page here (a bot or the terminal), once.
    assert asked[0] == encode_presence("none")
    asked = asked[1:]
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
    tick(run)
    assert reports[-1].stall_warning is None
    clock.now += 1.5
    tick(run)
    warning = reports[-1].stall_warning
    assert warning is not None and warning.away and warning.stall_left == 59.5
    assert reports[-1].seats[0].state == "away" and reports[-1].seats[0].away_seconds == 120.5
    clock.now += 60.0
    update = tick(run)  # the stall timeout: Ann is named and the table stops for Bob
    assert update is not None and run.session.blame is not None
    assert run.session.blame.seat == 0 and run.session.blame.code == "stall"


def _queued(receive: trio.MemoryReceiveChannel[Outgoing]) -> list[Outgoing]:
    items = []
    while True:
        try:
            items.append(receive.receive_nowait())
        except trio.WouldBlock:
            return items


def test_a_seat_that_says_its_page_closed_is_shown_away_until_it_says_open() -> None:
    clock = Clock()
    run, _, reports = _bobs_run(clock)
    send, _receive = trio.open_memory_channel[Outgoing](100)
    connection = object()
    run.links[0] = Link(0, connection, send)  # type: ignore[arg-type]
    page_heard(run, PageSaid(0, "open"))
    clock.now += 3.0
    tick(run)
    assert reports[-1].seats[0].page == "open" and not reports[-1].seats[0].page_closed
    assert reports[-1].waiting is not None and not reports[-1].waiting.page_closed
    page_heard(run, PageSaid(0, "closed"))
    clock.now += 10.0
    page_heard(run, PageSaid(0, "closed"))  # said again: still since the first time
    clock.now += 10.0
    tick(run)
    ann = reports[-1].seats[0]
    assert ann.state == "connected" and ann.page_closed and ann.page_seconds == 20.0
    waiting = reports[-1].waiting
    assert waiting is not None and waiting.page_closed and not waiting.away
    page_heard(run, PageSaid(0, "open"))
    tick(run)
    assert not reports[-1].seats[0].page_closed and reports[-1].seats[0].page_seconds is None
    # Its connection drops: away as before, and its word about its page is forgotten.
    page_heard(run, PageSaid(0, "closed"))
    link_down(run, LinkDown(0, connection))  # type: ignore[arg-type]
    tick(run)
    assert reports[-1].seats[0].state == "away" and reports[-1].seats[0].page is None


def test_our_page_is_told_to_every_link_when_it_changes_and_only_then() -> None:
    clock = Clock()
    run, _, _ = _bobs_run(clock)
    page: list[PageState] = ["open"]
    run.options.page = lambda: page[0]
    send, receive = trio.open_memory_channel[Outgoing](100)
    run.links[0] = Link(0, None, send)  # type: ignore[arg-type]
    told = []
    for state in ("open", "open", "closed", "closed", "open"):
        page[0] = state
        tick(run)  # no time passes: no catch-up request either
        told += [item for item in _queued(receive) if isinstance(item, bytes)]
    assert told == [encode_presence(s) for s in ("open", "closed", "open")]


def test_a_seat_of_our_own_bot_is_reported_with_its_level_and_others_are_not() -> None:
    clock = Clock()
    run, _, _ = _bobs_run(clock)
    run.bot_levels = {0: "hard"}  # as the host sets it for the bots it started
    seats = presence_of(run).seats
    assert seats[0].bot == "hard"
    assert seats[1].bot is None  # our own seat: a person here
    run.bot_levels = {}
    assert presence_of(run).seats[0].bot is None  # a joiner cannot tell who is a bot


def test_time_this_peer_was_asleep_does_not_count_against_the_seat_it_waits_for() -> None:
    clock = Clock()
    run, _, _ = _bobs_run(clock)
    clock.now += 170.0  # Ann's signature has been due for 170 s of the 180 s timeout
    tick(run)
    clock.now += 15.0  # then Bob's own process was frozen for 15 s
    slept(run, 15.0)
    assert tick(run) is None and run.session.blame is None  # Ann is not named on waking
    assert presence_of(run).waiting is not None
    assert presence_of(run).waiting.seconds == 170.0  # type: ignore[union-attr]
    clock.now += 10.0  # Ann still says nothing once Bob runs again: now she is named
    update = tick(run)
    assert update is not None and run.session.blame is not None
    assert run.session.blame.seat == 0


async def test_the_ticker_says_how_long_it_did_not_run(
    autojump_clock: trio.testing.MockClock,
) -> None:
    send, receive = trio.open_memory_channel[Item](1)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(ticker, send)
        await trio.sleep(0.75)  # the tick of 0.5 s waits in the inbox, which is full now
        # The process stops for 7 s (SIGSTOP, a closed lid): on the fake clock, a jump of time
        # between two ticks. The late tick finds the inbox full; the next one says it.
        autojump_clock.jump(7.0)
        await trio.sleep(0.1)
        on_time, late = await receive.receive(), await receive.receive()
        nursery.cancel_scope.cancel()
    assert isinstance(on_time, Tick) and isinstance(late, Tick)
    assert on_time.slept == 0.0
    assert late.slept == 6.75  # due at 1 s, it ran at 7.75 s
