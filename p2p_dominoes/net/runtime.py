"""The peer runtime: a table session driven over authenticated connections (trio).

One task owns the `TableSession`; connection readers, the player (a bot or a person at the
terminal) and a ticker feed it through one channel, so the sans-I/O session is only ever touched
from one place. Every peer dials the seats below its own (the host's connection is the lobby
one), keeps one writer task per connection, answers catch-up requests with the messages a peer
lacks, and asks for a catch-up itself when nothing has happened for a while.

Here: the session task's loop and what it does with an update (log, send, ask the player, the
pause between hands). Its state is `table_run.py`; the links `links.py`; catch-up answers
`catch_up.py`; the ticks and presence `ticking.py`; early stops `stopping.py`; the end
`finish.py`; dialling the host `dial.py`; sitting down at a genesis `seating.py`.
"""

from __future__ import annotations

import random
import secrets
from contextlib import suppress
from functools import partial

import trio

from p2p_dominoes.bots import snapshot
from p2p_dominoes.engine import Action, IllegalAction
from p2p_dominoes.net import asking, coming_back, going_on
from p2p_dominoes.net.catch_up import answer_sync, public_head
from p2p_dominoes.net.finish import finish, hand_secrets, save
from p2p_dominoes.net.links import link_down
from p2p_dominoes.net.lobby import CHANNEL_SESSION
from p2p_dominoes.net.page_presence import encode_presence
from p2p_dominoes.net.peer_options import ComingBack, PeerFailure, PlayerLeaves, ui_lang
from p2p_dominoes.net.said import said
from p2p_dominoes.net.stopping import (
    abandon,
    heard_notice,
    host_said,
    settle_notice,
    stop_by_notice,
    watch_setup,
)
from p2p_dominoes.net.table_run import (
    Arrived,
    AskedBack,
    Chosen,
    GoOn,
    HostSaid,
    Leave,
    LinkDown,
    LinkUp,
    Noticed,
    PageSaid,
    Ready,
    SyncAsked,
    TableRun,
    Tick,
)
from p2p_dominoes.net.ticking import (
    own_page,
    presence_of,
    report_presence,
    slept,
    tell_page,
    tick,
    ticker,
)
from p2p_dominoes.net.timing import Timing
from p2p_dominoes.session import Envelope, Phase
from p2p_dominoes.session.events import (
    HandEnded,
    HandStarted,
    MatchEnded,
    TilesDealt,
    Update,
)
from p2p_dominoes.session.hand_messages import KEY_COMMIT
from p2p_dominoes.words import phrase, reason_in


async def play_table(run: TableRun, nursery: trio.Nursery, first: Update | None = None) -> int:
    """Drive the session to the end of the match; returns the exit status (0 clean, 3 blame).

    `first` is what the session already has to send (a seat just taken, v4); by default what
    `TableSession.start` gives. A v4 table goes on when a seat leaves (`going_on.py`)."""
    session = run.session
    session.goes_on_after_goodbye = going_on.goes_on(run)
    session.agrees_by_default = not asking.asks(run)  # a person is asked first
    lang = ui_lang(run.options)
    names = ", ".join(run.names)
    run.options.say(said("seated", lang, seat=run.seat + 1, of=len(run.names), names=names))
    for seat, (name, key) in enumerate(zip(run.names, session.transcript.keys, strict=True)):
        run.options.say(
            said("fingerprint", lang, seat=seat + 1, name=name, fingerprint=key.fingerprint)
        )
    run.options.ui.seated(session, run.names)
    if run.may_come_back and run.options.comes_back is not None:
        run.options.comes_back(ComingBack.MAY_ASK)  # §16.1: if our seat went on, we ask it back
    run.timed = len(session.transcript)
    if run.options.timing is not None:
        run.options.timing.mark("seated", seat=run.seat)
    nursery.start_soon(ticker, run.inbox.send.clone())
    if run.options.offers_leave is not None:  # v4: the page's Leave the table
        run.options.offers_leave(partial(_leave_asked, run))
    if run.options.leave_on_interrupt:
        nursery.start_soon(going_on.watch_interrupts, run, run.inbox.send.clone())
    run.last_progress = run.waiting_since = run.clock()
    if run.options.presence is not None:
        run.options.presence.watch(partial(presence_of, run))
    run.setup_started = run.clock()
    await _handle(run, session.start() if first is None else first, nursery)
    async for item in run.inbox.receive:
        if isinstance(item, HostSaid):
            host_said(run, item.seat, item.refusal)
        elif isinstance(item, Noticed):
            heard_notice(run, item.seat, item.payload)
        elif isinstance(item, Arrived):
            await _handle(run, session.receive(item.payload, item.seat), nursery)
            by = going_on.named_gone(run, item.payload)
            if by is not None:  # v4: the table went on without us from a head we left
                if await _asked_back(run):
                    return coming_back.BACK
                return going_on.left_behind_by(run, by)
        elif isinstance(item, PageSaid):
            page_heard(run, item)
        elif isinstance(item, SyncAsked):
            answer_sync(run, item)
        elif isinstance(item, AskedBack):  # §16.1: a former holder asks its seat back
            # (to us, or to pass on to the seat that proposes: `coming_back.heard`)
            agrees = going_on.agrees_to_come_back(run, item.seat)
            await _handle(run, coming_back.heard(run, item, agrees), nursery)
        elif isinstance(item, Chosen):
            # A person who acts has a page open: the others hear so before the move, on the same
            # links (a tick may come too late: the match can end first, and with it presence).
            tell_page(run)
            if run.asked == item.token and session.awaiting_action:
                run.asked = None
                if run.options.timing is not None:
                    run.options.timing.mark("acted", index=len(session.transcript), seat=run.seat)
                try:
                    update = session.act(item.action)
                except IllegalAction as exc:  # a UI or bot bug: say so and ask again
                    rule = reason_in(exc.rule, ui_lang(run.options))
                    run.options.say(said("not_allowed", ui_lang(run.options), rule=rule))
                    update = Update()
                await _handle(run, update, nursery)
        elif isinstance(item, LinkUp):
            old = run.links.get(item.link.seat)
            if old is not None:
                run.spare_links.append(old)
            run.links[item.link.seat] = item.link
            item.link.post_sync(public_head(run))
            item.link.post(encode_presence(own_page(run)))
            coming_back.send_held(run, item.link)  # §16.1: a request to pass on to it
            if item.link.seat in run.lost:
                del run.lost[item.link.seat]
                run.options.say(said("again", ui_lang(run.options), name=run.names[item.link.seat]))
        elif isinstance(item, LinkDown):
            link_down(run, item)
        elif isinstance(item, Ready):
            _release(run, item.number)
        elif isinstance(item, Leave):
            left = await going_on.leave(run, partial(_handle, run, nursery=nursery))
            if left is not None:
                return left
            run.asked = None  # the player is asked again
        elif isinstance(item, GoOn):  # v4: our person's answer: go on without a seat?
            if not item.yes:
                return asking.declined(run, item.before)
            await _handle(run, asking.agreed(run), nursery)
        else:
            slept(run, item.slept)
            stalled = tick(run)
            if stalled is not None:
                await _handle(run, stalled, nursery)
        proposed = going_on.propose(run, nursery)
        if proposed is not None:
            await _handle(run, proposed, nursery)
        if session.seat is None:
            if await _asked_back(run):
                return coming_back.BACK
            return going_on.left_behind(run)
        _track_expected(run)
        watching = run.setup_watch is not None and run.abandoned is None
        if watching and session.phase is Phase.SETUP:
            watch_setup(run)
        if run.abandoned is not None:
            return abandon(run)
        settle_notice(run)
        if run.notice is not None:
            return stop_by_notice(run)
        if not isinstance(item, Tick) and not session.finished:
            report_presence(run)
        if session.finished:
            break
    return await finish(run)


def _leave_asked(run: TableRun) -> bool:
    """The UI's person leaves the table for good (v4): told to the session task; False when
    it can no longer hear it (the table is over)."""
    try:
        run.inbox.send.send_nowait(Leave())
    except (trio.WouldBlock, trio.BrokenResourceError, trio.ClosedResourceError):
        return False
    return True


async def _asked_back(run: TableRun) -> bool:
    """§16.1: our seat went on without us; as `resume`, ask it back and wait. True when it is
    ours again (`run.back_with`)."""
    if not run.may_come_back:
        return False
    if not run.session.finished:
        if run.options.comes_back is not None:  # (the session may not have seen us go)
            run.options.comes_back(ComingBack.ASKING)
        run.back_with = await coming_back.ask_and_wait(run)
    if run.back_with is None and run.options.comes_back is not None:
        run.options.comes_back(ComingBack.NOT_BACK)  # the table went on without us
    return run.back_with is not None


def page_heard(run: TableRun, heard: PageSaid) -> None:
    """Keep what a seat says of its page, and since when it says it (one entry per seat)."""
    known = run.pages.get(heard.seat)
    if known is None or known[0] != heard.state:
        run.pages[heard.seat] = (heard.state, run.clock())


def _track_expected(run: TableRun) -> None:
    """Note when the message we wait for changed (whom we wait for, and since when)."""
    expected = None if run.holding is not None else run.session.expected
    if expected != run.waiting_for:
        run.waiting_for = expected
        run.waiting_since = run.clock()


def _starts_hand(run: TableRun, data: bytes) -> bool:
    """Whether `data` (ours) is a hand's first kind of message, a key commitment."""
    return Envelope.decode(data, run.session.transcript.registry).type is KEY_COMMIT


async def _hand_break(run: TableRun, number: int, seconds: float) -> None:
    """The player's pause before hand `number`: until they are ready, at most `seconds`."""
    between = run.options.between_hands
    assert between is not None
    with trio.move_on_after(seconds):
        await between(number, seconds)
    with suppress(trio.BrokenResourceError, trio.ClosedResourceError):
        await run.inbox.send.send(Ready(number))


def _release(run: TableRun, number: int) -> None:
    """The pause before hand `number` is over: send what we held back, and the table goes on."""
    if run.holding != number:
        return
    run.holding = None
    held, run.held = run.held, []
    for data in held:
        payload = bytes([CHANNEL_SESSION]) + data
        for link in run.links.values():
            link.post(payload)
    run.last_progress = run.clock()


def _mark_timing(run: TableRun, timing: Timing, update: Update) -> None:
    entries = run.session.transcript.entries
    for index in range(run.timed, len(entries)):
        envelope = entries[index].envelope
        timing.mark("applied", index=index, type_name=envelope.type.name, seat=envelope.seat)
    run.timed = len(entries)
    hand = run.session.hand
    number = hand.number if hand is not None else None
    for event in update.events:
        if isinstance(event, HandStarted):
            timing.mark("hand-start", hand=event.number)
        elif isinstance(event, TilesDealt):
            timing.mark("tiles", hand=number)
        elif isinstance(event, HandEnded):
            timing.mark("hand-end", hand=event.number)


async def _handle(run: TableRun, update: Update, nursery: trio.Nursery) -> None:
    session = run.session
    if run.log is not None:
        # Every accepted message is on disk before this peer sends or acts on anything.
        try:
            run.log.sync(session.transcript)
        except OSError as exc:
            raise PeerFailure(phrase("net.cannot_write_log", reason=exc.strerror or exc)) from None
        # Only now that the log holds the audit's messages: an audited hand's keys are public.
        hand_secrets(run.log).forget_audited(update.events)
    if run.options.timing is not None:
        _mark_timing(run, run.options.timing, update)
    if not run.code_shown:
        _show_table_code(run)
    if update.outgoing or update.events:
        run.last_progress = run.clock()
    _pause_after_hand(run, update, nursery)
    for data in update.forwarded:  # a blame's evidence: to every seat, at once
        payload = bytes([CHANNEL_SESSION]) + data
        for link in run.links.values():
            link.post(payload)
    for data in update.outgoing:
        if run.holding is not None and (run.held or _starts_hand(run, data)):
            run.held.append(data)
            continue
        payload = bytes([CHANNEL_SESSION]) + data
        for link in run.links.values():
            link.post(payload)
    going_on.tell_seat_replaced(run, update.events)  # v4: the seat's new holder, by its name
    asking.on_events(run, update.events, nursery)  # v4: a person asked whether to go on
    if update.events or update.outgoing:
        _track_expected(run)  # the UI draws the new state with its presence, not the old one
        run.options.ui.events(update.events, run.names, run.seat)
    if run.options.record is not None and (update.outgoing or update.events):
        save(run)
    if session.awaiting_action and run.asked is None:
        hand = session.hand
        assert hand is not None
        token = (hand.number, len(session.transcript))
        run.asked = token
        nursery.start_soon(_choose, run, token)


def _pause_after_hand(run: TableRun, update: Update, nursery: trio.Nursery) -> None:
    """A hand ended and the match goes on: a person's peer holds its first message of the next
    hand back until the player is ready (the others simply wait for it; no protocol change)."""
    if run.options.between_hands is None or any(isinstance(e, MatchEnded) for e in update.events):
        return
    ended = [e.number for e in update.events if isinstance(e, HandEnded)]
    if not ended or run.session.finished:
        return
    number = ended[-1] + 1
    seconds = min(run.options.hand_break, run.session.rules.stall_timeout_s / 3)
    if seconds <= 0:
        return
    run.holding = number
    nursery.start_soon(_hand_break, run, number, seconds)


def _show_table_code(run: TableRun) -> None:
    """Once every seat has signed the genesis: the code the players read aloud to each other."""
    code = run.session.table_code
    if code is None:
        return
    run.code_shown = True
    lang = ui_lang(run.options)
    run.options.say(said("code", lang, code=code.line(lang)))
    run.options.say(said("compare", lang))


async def _choose(run: TableRun, token: tuple[int, int]) -> None:
    """Ask the bot or the person for an action and hand it to the session task."""
    view = run.session.view()
    options = run.options
    if options.bot is not None:
        # The bot thinks in a worker thread on a detached copy of the view, so the table's
        # messages keep flowing; its level's budget bounds the time, and a cancelled wait
        # leaves the thread to finish alone.
        action: Action = await trio.to_thread.run_sync(
            options.bot, snapshot(view), _BOT_RNG, abandon_on_cancel=True
        )
    else:
        session = run.session
        target = session.rules.target(session.players)
        with trio.CancelScope() as scope:  # cancelled when a goodbye voids the hand (v4)
            run.choosing = scope
            try:
                action = await options.ui.choose(view, run.names, session.scores, target)
            except PlayerLeaves:  # v4: the player typed `leave`
                await run.inbox.send.send(Leave())
                return
        if scope.cancelled_caught:
            return
    await run.inbox.send.send(Chosen(token, action))


_BOT_RNG = random.Random(secrets.randbits(64))
