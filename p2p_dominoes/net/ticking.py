"""The table run's clock: a tick every TICK seconds (telling how late it came, when this peer
itself was not running), and what each tick looks at: whom we wait for, catch-up requests, the
rules' stall timeout, our page's state, and the presence every seat's UI shows."""

from __future__ import annotations

from contextlib import suppress
from typing import Final

import trio

from p2p_dominoes.net import going_on
from p2p_dominoes.net.catch_up import answer_deferred
from p2p_dominoes.net.page_presence import PageState, encode_presence
from p2p_dominoes.net.presence import (
    WAITING_NOTICE_AFTER,
    Presence,
    SeatPresence,
    SeatState,
    Waiting,
)
from p2p_dominoes.net.table_run import Item, TableRun, Tick
from p2p_dominoes.session import Phase
from p2p_dominoes.session.events import Update

CATCH_UP_AFTER: Final = 2.0
"""Seconds without progress before a peer asks the others for what it may have missed (and
again every half of that while nothing moves)."""
WAITING_NOTICE_EVERY: Final = 5.0
"""Seconds between the UI's "waiting for X" lines (the first once WAITING_NOTICE_AFTER passed)."""
TICK: Final = 0.5
"""Seconds between two looks at the clock (whom we wait for, the stall timeout, presence)."""
ASLEEP_AFTER: Final = 1.0
"""Seconds a tick may come late before it means this peer itself was not running (a frozen
process, a closed lid, a starved machine): the time it missed does not count against the seat
it waits for, so it first hears what that seat said meanwhile instead of naming it at once."""


def own_page(run: TableRun) -> PageState:
    """Our person's page as of now ("none" for a bot or the terminal)."""
    return "none" if run.options.page is None else run.options.page()


def tell_page(run: TableRun) -> None:
    """Tell every link when our page opened or closed (a new link hears it when it comes up)."""
    state = own_page(run)
    if state != run.page_told:
        run.page_told = state
        for link in run.links.values():
            link.post(encode_presence(state))


async def ticker(send: trio.MemorySendChannel[Item]) -> None:
    """A tick every TICK seconds; one that came more than ASLEEP_AFTER late carries the time
    this peer missed (`slept`), owed until a tick finds room in the inbox."""
    async with send:
        last, owed = trio.current_time(), 0.0
        while True:
            await trio.sleep(TICK)
            now = trio.current_time()
            late, last = now - last - TICK, now
            if late > ASLEEP_AFTER:
                owed += late  # told with the next tick that finds room in the inbox
            with suppress(trio.WouldBlock):
                send.send_nowait(Tick(owed))
                owed = 0.0


def slept(run: TableRun, seconds: float) -> None:
    """This peer itself was not running for `seconds` (a frozen process, a closed lid): that
    time does not count against the seat we wait for, which may well have sent its message
    meanwhile; we hear it before the stall timeout can name that seat."""
    now = run.clock()
    run.waiting_since = min(now, run.waiting_since + seconds)
    run.last_progress = min(now, run.last_progress + seconds)


def tick(run: TableRun) -> Update | None:
    """Nothing happened for a while: say whom we wait for, ask for a catch-up, and after the
    rules' stall timeout name the seat we wait for (never during our own player's pause): as
    gone, in v4 when this peer goes on after a goodbye (`going_on.stalled`)."""
    now = run.clock()
    expected = run.session.expected
    tell_page(run)
    answer_deferred(run)
    if run.holding is not None:
        report_presence(run)
        return None
    if expected is not None and expected[0] != run.seat:
        stalled = now - run.waiting_since
        if stalled >= run.session.rules.stall_timeout_s:
            if run.session.goes_on_after_goodbye:  # v4: the seat is gone, the table goes on
                return going_on.stalled(run, expected[0], stalled)
            return run.session.stall(expected[0], stalled)
    idle = now - run.last_progress
    if (
        expected is not None
        and idle >= CATCH_UP_AFTER
        and now - run.last_sync >= CATCH_UP_AFTER / 2
    ):
        for link in run.links.values():
            link.post_sync(run.session.transcript.head)
        run.last_sync = now
    if (
        expected is not None
        and expected[0] != run.seat
        and now - run.waiting_since >= WAITING_NOTICE_AFTER
        and now - run.last_notice >= WAITING_NOTICE_EVERY
    ):
        run.options.ui.waiting(run.names[expected[0]], now - run.waiting_since)
        run.last_notice = now
    report_presence(run)
    return None


def presence_of(run: TableRun) -> Presence:
    """Each seat's connection and turn, and whom we wait for, as of now."""
    now = run.clock()
    session = run.session
    expected = None if run.holding is not None else session.expected
    turn = expected[0] if expected is not None and session.phase is Phase.TURNS else None
    seats = []
    for seat in range(len(run.names)):
        state: SeatState
        away = None
        if seat == run.seat:
            state = "me"
        elif seat in run.lost:
            state, away = "away", now - run.lost[seat]
        elif seat in run.links:
            state = "connected"
        else:
            state = "connecting"
        thinking = now - run.waiting_since if seat == turn else None
        page, since = run.pages.get(seat, (None, now))
        closed = now - since if page == "closed" else None
        bot = run.bot_levels.get(seat)
        seats.append(SeatPresence(seat, state, away, thinking, page, closed, bot))
    waiting = None
    timeout = float(session.rules.stall_timeout_s)
    if expected is not None and expected[0] != run.seat and not session.finished:
        waited = now - run.waiting_since
        left = max(0.0, timeout - waited)
        closed = seats[expected[0]].page_closed
        waiting = Waiting(expected[0], waited, left, expected[0] in run.lost, closed)
    own = None
    if turn == run.seat and not session.finished:
        waited = now - run.waiting_since
        own = Waiting(run.seat, waited, max(0.0, timeout - waited), False)
    return Presence(tuple(seats), waiting, timeout, holding=run.holding is not None, own_turn=own)


def report_presence(run: TableRun) -> None:
    """Let the presence watcher (the page) redraw from `presence_of`."""
    if run.options.presence is not None:
        run.options.presence.tick()
