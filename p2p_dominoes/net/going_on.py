"""v4 (PROTOCOL.md §16): the table run's side of a seat that leaves for good.

A seat the table waits for past the stall limit is gone: the lowest remaining seat (one peer
speaks for the table, so two goodbyes never fork it) says so with a signed goodbye instead of
stopping with a verdict; the others wait a while longer for that goodbye and stop as before only
if it never comes. After the goodbye the same peer proposes the continuation: a fresh key for
the seat, held by a bot it starts as a child process (the table's default level; `partner`
when partners play), handed the transcript so far (`take_seat.py`). Every other seat signs by
default (a person's peer asks first, `asking.py`), and the match goes on from the next hand.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Awaitable, Callable, Sequence
from typing import Final

import trio

from p2p_dominoes.bots import default_bot_name
from p2p_dominoes.net.bot_processes import run_seat_bot
from p2p_dominoes.net.catch_up import answer_sync
from p2p_dominoes.net.handover import Handover
from p2p_dominoes.net.peer_options import ui_lang
from p2p_dominoes.net.said import said
from p2p_dominoes.net.table_run import Item, Leave, LinkUp, SyncAsked, TableRun
from p2p_dominoes.peer_text import peer_text
from p2p_dominoes.session import Envelope, Identity, InvalidMessage, Phase
from p2p_dominoes.session.events import Event, SeatReplaced, Update
from p2p_dominoes.session.leave_messages import GOODBYE, STALLED, Goodbye

OTHERS_WAIT: Final = 2.0
"""How many stall limits a seat that does not speak for the table waits for the goodbye of the
one that does, before it stops the table naming the silent seat as before (both are gone)."""
STOP_ON_STALL: Final = "P2P_DOMINOES_TEST_STOP_ON_STALL"
"""Test hook: when this environment variable is set (non-empty), this peer does not go on
after a goodbye; a stall stops the table with the verdict of §15, as before version 4 (the
tests of that verdict among bots set it)."""
NEW_NAME_BYTES: Final = 48
"""Bytes of the leaver's name kept in its seat's new name ("<name> (bot)")."""


def goes_on(run: TableRun) -> bool:
    """Whether this peer goes on after a goodbye: every peer does (a bot's agrees by default,
    a person's asks first: `asking.py`), unless the test hook turns it off."""
    return not os.environ.get(STOP_ON_STALL, "")


def speaks_for_table(run: TableRun, silent: int) -> bool:
    """Whether this peer is the lowest seat other than the `silent` one."""
    return run.seat == min(s for s in range(len(run.names)) if s != silent)


def stalled(run: TableRun, silent: int, waited: float) -> Update | None:
    """`silent` sent nothing past the stall limit: a goodbye in its name (when this peer speaks
    for the table and the table can go on), a stop after a longer wait, or nothing yet."""
    session = run.session
    if speaks_for_table(run, silent):
        try:
            return session.goodbye(silent)
        except ValueError:
            return session.stall(silent, waited)  # no hand in play (or not v4): stop as before
    if waited >= OTHERS_WAIT * session.rules.stall_timeout_s:
        return session.stall(silent, waited)
    return None


def new_name(old: str) -> str:
    """The seat's name under its bot: the leaver's, marked."""
    kept = old.encode("utf-8")[:NEW_NAME_BYTES].decode("utf-8", "ignore").strip()
    return f"{kept} (bot)"


def propose(run: TableRun, nursery: trio.Nursery) -> Update | None:
    """As the peer that proposes the continuation (the session waits for us in LEAVING): a
    fresh key for the gone seat, and a bot started to hold it. None when it is not our move."""
    session = run.session
    expected, hand = session.expected, session.hand
    if session.phase is not Phase.LEAVING or expected is None or expected[0] != run.seat:
        return None
    if not session.agrees_by_default:
        return None  # our person is asked first (`asking.py`)
    assert hand is not None and hand.gone is not None
    if hand.returning is not None:  # §16.1: the seat goes back to who asked, no bot to start
        return None
    gone = hand.gone
    identity = Identity.generate()
    name = new_name(session.names[gone])
    update = session.propose_continue(name, identity.public)
    rules = session.rules  # partners play: a `partner` bot, so the pairs stay
    level = default_bot_name(rules) if rules.pairs else run.seat_bot or default_bot_name(rules)
    peers = tuple((s, host, port) for s, (host, port) in sorted(run.peers.items()) if s != gone)
    messages = tuple(entry.encoded for entry in session.transcript.entries)
    handover = Handover(gone, messages, peers)
    run.bot_levels[gone] = level
    target = run.bot_nursery if run.bot_nursery is not None else nursery
    target.start_soon(run_seat_bot, run.options, name, level, identity, handover.encode())
    return update


def agrees_to_come_back(run: TableRun, seat: int) -> bool:
    """§16.1: whether our side agrees that the player who left `seat` takes it back (we are the
    seat that proposes it). Every peer agrees, a person's too, as every seat signs the give-back
    without asking (`session.duties`): the seat goes back to the player whose score it holds,
    and the request is signed by the key it left with. A question to our person would go
    here."""
    return True


def left_behind(run: TableRun) -> int:
    """Our seat has a new holder (the others found us gone): our log says so, we stop; 3.
    A bot that gave the seat back to the player who had left (§16.1) says so and stops; 0."""
    session = run.session
    bot = peer_text(session.names[run.seat], 64)
    hand = session.hand
    if hand is not None and hand.returning is not None and run.log is None:
        for link in [*run.links.values(), *run.spare_links]:
            link.outbox.close()
        run.options.say(said("given_back", ui_lang(run.options), name=bot))
        return 0
    why = f"seat {run.seat + 1}: the table went on with a new holder"
    return _stop_went_on(run, why, "went_on", bot=bot)


def tell_seat_replaced(run: TableRun, events: Sequence[Event]) -> None:
    """A seat has a new holder: the names we show are the session's now (the UI narrates it)."""
    if any(isinstance(event, SeatReplaced) for event in events):
        run.names = tuple(run.session.names)


LEAVE_LINGER: Final = 10.0
"""Seconds a leaver stays, at most, for every other seat to hold its goodbye."""


async def leave(run: TableRun, send: Callable[[Update], Awaitable[None]]) -> int | None:
    """Our player leaves for good (v4): our signed goodbye, sent with `send`; we stay until
    every other seat holds it (their catch-up requests say so), at most LEAVE_LINGER seconds;
    our log says we left. The exit status (0), or None when no goodbye can be said now (no
    hand in play: the player is told, and the table goes on with us)."""
    session = run.session
    lang = ui_lang(run.options)
    try:
        update = session.goodbye()
    except ValueError:
        run.options.say(said("cannot_leave", lang))
        return None
    await send(update)
    goodbye = session.transcript.head
    known = {entry.hash for entry in session.transcript.entries[:-1]}
    others = set(range(len(run.names))) - {run.seat}
    for link in run.links.values():
        link.post_sync(goodbye)
    with trio.move_on_after(LEAVE_LINGER):
        while {s for s in others if run.heads.get(s) not in {*known, None}} != others:
            item = await run.inbox.receive.receive()
            if isinstance(item, SyncAsked):
                answer_sync(run, item)  # what it lacks (our goodbye); notes its head
            elif isinstance(item, LinkUp):
                run.links[item.link.seat] = item.link
                item.link.post_sync(goodbye)
    if run.log is not None:
        run.log.sync(session.transcript)
        run.log.finish(f"seat {run.seat + 1}: left the table (its goodbye)")
        run.log.close()
    for link in [*run.links.values(), *run.spare_links]:
        link.outbox.close()
    run.options.say(said("left", lang))
    return 0


def named_gone(run: TableRun, payload: bytes) -> str | None:
    """v4: a goodbye that says our seat stalled, signed by the seat that said it, on a head our
    transcript holds but left behind (we sent a message there the others never got: the two
    records parted at that head, and the table went on from the goodbye's side). The name of
    the seat that said it, or None when `payload` is no such goodbye.

    Like a stop notice (§15) it is one seat's signed word: we stop, and our record keeps what
    we held (it verifies; the goodbye names the head where we were left)."""
    session = run.session
    transcript = session.transcript
    if session.seat is None or session.finished:
        return None
    try:
        envelope = Envelope.decode(payload, transcript.registry)
        if envelope.type != GOODBYE or envelope.table_id != transcript.table_id:
            return None
        said = Goodbye.of(envelope)
    except InvalidMessage:
        return None
    if said.seat != session.seat or said.reason != STALLED or not 0 <= said.by < len(run.names):
        return None
    if said.by == session.seat or envelope.head == transcript.head:
        return None  # on our head the session itself takes it (or refuses it)
    held = {entry.hash for entry in transcript.entries}
    if envelope.hash in held or envelope.head not in held:
        return None  # taken by the session, or on a head we never held
    if not transcript.keys[said.by].verify(envelope.signature, envelope.signed_bytes()):
        return None
    return peer_text(run.names[said.by], 64)


def left_behind_by(run: TableRun, by: str) -> int:
    """Our seat was said gone at a head we had left (`named_gone`): our log says so; 3."""
    why = f"seat {run.seat + 1}: said gone by {by}; the table went on without it"
    return _stop_went_on(run, why, "said_gone", name=by)


def _stop_went_on(run: TableRun, why: str, key: str, **values: str) -> int:
    """The table went on without our seat: our log ends saying `why`, our links close, and our
    person reads the line `key` (with where the record so far is kept, §16.1); 3."""
    lang, record = ui_lang(run.options), ""
    if run.log is not None:
        run.log.sync(run.session.transcript)
        run.log.finish(why)
        run.log.close()
        record = said("record_kept", lang, path=str(run.log.path))
    for link in [*run.links.values(), *run.spare_links]:
        link.outbox.close()
    run.options.say(said(key, lang, record=record, **values))
    return 3


AGAIN_WITHIN: Final = 3.0
"""Seconds after a first Ctrl+C at the table in which a second one leaves it for good."""


async def watch_interrupts(run: TableRun, send: trio.MemorySendChannel[Item]) -> None:
    """A person at the terminal: Ctrl+C says what a second one does; a second within
    AGAIN_WITHIN seconds leaves the table (our goodbye, `Leave`), and none stops this peer as
    one Ctrl+C always did (status 130, how to come back with `resume`)."""
    lang = ui_lang(run.options)
    async with send:
        with trio.open_signal_receiver(signal.SIGINT) as signals:
            async for _ in signals:
                run.options.say(said("interrupt_again", lang, seconds=f"{AGAIN_WITHIN:g}"))
                with trio.move_on_after(AGAIN_WITHIN):
                    async for _ in signals:
                        await send.send(Leave())
                        return
                raise KeyboardInterrupt
