"""v4 (PROTOCOL.md §16): a person is asked before the table goes on without a seat.

When a seat is gone (its signed goodbye, or a stall the lowest remaining seat turned into one)
the proposer's continuation gives the seat to a bot, and every remaining seat must sign it. A
peer without a person agrees by default (`TableSession.agrees_by_default`). A person's peer
(`PeerOptions.ask_go_on`: the terminal's y/n line, the page's two buttons) asks first, for at
most the rules' stall limit. Yes: it signs the continuation (at once, or when its turn to sign
comes). No, or no answer in time: this peer stops with one line and status 3; its log says
why. Its signature then never comes, so the others stop as for any seat that sends nothing:
after their stall limit, with the §15 verdict that names this seat (a goodbye is no move in
the continuation's phase, `going_on.stalled` falls back to the verdict).
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import suppress

import trio

from p2p_dominoes.net import going_on
from p2p_dominoes.net.peer_options import ui_lang
from p2p_dominoes.net.said import said
from p2p_dominoes.net.table_run import GoOn, TableRun
from p2p_dominoes.peer_text import peer_text
from p2p_dominoes.session import Phase
from p2p_dominoes.session.events import Event, HandAbandoned, HandStarted, Update


def asks(run: TableRun) -> bool:
    """Whether this peer asks its person before it signs a continuation."""
    return run.options.ask_go_on is not None


def on_events(run: TableRun, events: Sequence[Event], nursery: trio.Nursery) -> None:
    """What the question hangs on: a void hand forgets the player's pending choice (a new hand
    asks again) and, when another seat left, asks our person; a new hand means the next
    continuation is asked about afresh."""
    for event in events:
        if isinstance(event, HandAbandoned):
            run.asked = None  # a choice made for the void hand is dropped (its token differs)
            if run.choosing is not None:
                run.choosing.cancel()
            session = run.session
            if asks(run) and session.goes_on_after_goodbye and event.seat != run.seat:
                before = session.names[event.seat]
                nursery.start_soon(_ask, run, before, going_on.new_name(before))
        elif isinstance(event, HandStarted) and asks(run):
            run.session.agrees_by_default = False


async def _ask(run: TableRun, before: str, name: str) -> None:
    """Ask our person (at most the stall limit); the answer goes to the session task."""
    ask = run.options.ask_go_on
    assert ask is not None
    seconds = float(run.session.rules.stall_timeout_s)
    yes = False
    with trio.move_on_after(seconds) as scope:
        yes = await ask(peer_text(before, 64), peer_text(name, 64), seconds)
    if scope.cancelled_caught:
        run.options.say(said("go_on_timeout", ui_lang(run.options), seconds=f"{seconds:g}"))
    with suppress(trio.BrokenResourceError, trio.ClosedResourceError):
        await run.inbox.send.send(GoOn(yes, before))


def agreed(run: TableRun) -> Update:
    """Our person said yes: we sign the continuation now, or when our turn to sign comes (the
    proposer proposes it: `going_on.propose` waits for the yes)."""
    session = run.session
    session.agrees_by_default = True  # until the next hand starts (`on_events`)
    expected = session.expected
    if session.phase is Phase.CONTINUE and expected is not None and expected[0] == run.seat:
        return session.agree_to_continue()
    return Update()


def declined(run: TableRun, before: str) -> int:
    """Our person said no (or nothing in time): our log says so, this peer stops; 3."""
    name = peer_text(before, 64)
    if run.log is not None:
        run.log.sync(run.session.transcript)
        run.log.finish(f"seat {run.seat + 1}: would not go on without {name}")
        run.log.close()
    for link in [*run.links.values(), *run.spare_links]:
        link.outbox.close()
    run.options.say(said("declined", ui_lang(run.options), name=name))
    return 3
