"""The peer runtime: a table session driven over authenticated connections (trio).

One task owns the `TableSession`; connection readers, the player (a bot or a person at the
terminal) and a ticker feed it through one channel, so the sans-I/O session is only ever touched
from one place. Every peer dials the seats below its own (the host's connection is the lobby
one), keeps one writer task per connection, answers catch-up requests with the messages a peer
lacks, and asks for a catch-up itself when nothing has happened for a while.
"""

from __future__ import annotations

import logging
import random
import secrets
import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, field
from functools import partial
from typing import Final

import trio

from p2p_dominoes.bots import snapshot
from p2p_dominoes.engine import Action, IllegalAction, InvalidRecord, Rules
from p2p_dominoes.net.backoff import Backoff
from p2p_dominoes.net.connection import Connection, connect
from p2p_dominoes.net.errors import (
    ConnectionClosed,
    HandshakeError,
    IdentityMismatch,
    NetError,
    OwnIdentity,
    PeerBusy,
    RefusedByPeer,
)
from p2p_dominoes.net.framing import BYE_OWN_IDENTITY, Data, SyncRequest
from p2p_dominoes.net.lobby import (
    CHANNEL_LOBBY,
    CHANNEL_SESSION,
    GenesisOffer,
    LobbyError,
    Refuse,
    decode_lobby,
)
from p2p_dominoes.net.page_presence import (
    CHANNEL_PRESENCE,
    PageState,
    PresenceError,
    PresenceLimit,
    decode_presence,
    encode_presence,
)
from p2p_dominoes.net.peer_options import PeerFailure, PeerOptions
from p2p_dominoes.net.presence import (
    WAITING_NOTICE_AFTER,
    Presence,
    SeatPresence,
    SeatState,
    Waiting,
)
from p2p_dominoes.net.said import said, said_os_errors
from p2p_dominoes.net.setup_lost import SetupLost, abandon, host_said, watch_setup
from p2p_dominoes.net.strangers import StrangerLog
from p2p_dominoes.net.sync_limit import SyncGate, bounded_answer
from p2p_dominoes.net.timing import Timing
from p2p_dominoes.net.verdict import (
    CHANNEL_NOTICE,
    StopNotice,
    heard_notice,
    own_notice,
    settle_notice,
    stop_by_notice,
    verdict_line,
)
from p2p_dominoes.peer_text import peer_text, plain_quotes
from p2p_dominoes.session import (
    Envelope,
    Identity,
    InvalidMessage,
    PublicIdentity,
    Transcript,
    default_registry,
    opens_commitment,
)
from p2p_dominoes.session.events import (
    HandEnded,
    HandStarted,
    MatchEnded,
    TilesDealt,
    Update,
)
from p2p_dominoes.session.hand_messages import KEY_COMMIT
from p2p_dominoes.session.table import Phase, TableSession
from p2p_dominoes.store import (
    HandSecrets,
    PeerAddress,
    TableLog,
    TableNonceFile,
    lottery_stalls,
    save_transcript,
    table_dir,
)

CATCH_UP_AFTER: Final = 2.0
"""Seconds without progress before a peer asks the others for what it may have missed (and
again every half of that while nothing moves)."""
WAITING_NOTICE_EVERY: Final = 5.0
"""Seconds between the UI's "waiting for X" lines (the first once WAITING_NOTICE_AFTER passed)."""
FINISH_LINGER: Final = 1.5
"""Seconds a peer stopped by a blame stays to answer the others' catch-up requests."""
FINISH_LINGER_MAX: Final = 15.0
"""Longest a finished peer waits for every seat to hold the final message (one that crashed
at the very end and is resuming needs a peer to fetch the last messages from)."""
TOLD_LINGER: Final = 3.0
"""Seconds a peer stays, once the seat it named as stalling came back and was sent the notice,
to answer that seat's catch-up request (it agrees with the notice only at the notice's head)."""
FINISH_FLUSH: Final = 1.0
"""Longest a finished peer waits for its queued messages to go out before it hangs up."""
TICK: Final = 0.5
"""Seconds between two looks at the clock (whom we wait for, the stall timeout, presence)."""
ASLEEP_AFTER: Final = 1.0
"""Seconds a tick may come late before it means this peer itself was not running (a frozen
process, a closed lid, a starved machine): the time it missed does not count against the seat
it waits for, so it first hears what that seat said meanwhile instead of naming it at once."""
_PRESENCE_FAULTS: Final = StrangerLog(logging.getLogger("p2p_dominoes.net"))
"""Malformed or flooding presence messages from a seat: named once per source per minute."""


_Outgoing = bytes | tuple[str, bytes]
"""A payload to send, or ("sync", head): a catch-up request."""


@dataclass
class _Link:
    """One authenticated connection to a seated peer, with its writer queue."""

    seat: int
    connection: Connection
    outbox: trio.MemorySendChannel[_Outgoing]
    gate: SyncGate = field(default_factory=lambda: SyncGate(time.monotonic()))
    """Its catch-up requests: one outstanding, a few a second (``sync_limit``)."""


@dataclass(frozen=True)
class _Arrived:
    """A session message from a seated peer."""

    seat: int
    payload: bytes


@dataclass(frozen=True)
class _PageSaid:
    """A seated peer's word about its person's page (advisory, already checked and limited)."""

    seat: int
    state: PageState


@dataclass(frozen=True)
class _HostSaid:
    """The host's lobby word during the setup: the table is set up again (or never was)."""

    seat: int
    refusal: Refuse


@dataclass(frozen=True)
class _Noticed:
    """A seat's stop notice (`net/verdict.py`), not checked yet."""

    seat: int
    payload: bytes


@dataclass(frozen=True)
class _SyncAsked:
    """A seated peer's catch-up request: it holds the transcript up to `head`."""

    seat: int
    head: bytes
    connection: Connection
    gate: SyncGate | None = None
    """The link's limit, told when the request is answered (None: not limited)."""


@dataclass(frozen=True)
class _Chosen:
    """The player's action, for the turn identified by `token`."""

    token: tuple[int, int]
    action: Action


@dataclass(frozen=True)
class _LinkUp:
    link: _Link


@dataclass(frozen=True)
class _LinkDown:
    seat: int
    connection: Connection


@dataclass(frozen=True)
class _Tick:
    slept: float = 0.0
    """Seconds this peer itself was not running before this tick (0 when it came on time)."""


@dataclass(frozen=True)
class _Ready:
    """The player's pause before hand `number` is over: send what was held back."""

    number: int


_Item = (
    _Arrived
    | _PageSaid
    | _HostSaid
    | _Noticed
    | _SyncAsked
    | _Chosen
    | _LinkUp
    | _LinkDown
    | _Tick
    | _Ready
)


@dataclass
class Inbox:
    """Everything the session task reacts to, in arrival order."""

    send: trio.MemorySendChannel[_Item]
    receive: trio.MemoryReceiveChannel[_Item]

    @classmethod
    def new(cls) -> Inbox:
        send, receive = trio.open_memory_channel[_Item](1024)
        return cls(send, receive)


@dataclass
class TableRun:
    """The session task's state: the session, the links to the other seats, the record."""

    session: TableSession
    options: PeerOptions
    names: tuple[str, ...]
    links: dict[int, _Link] = field(default_factory=dict)
    inbox: Inbox = field(default_factory=Inbox.new)
    clock: Callable[[], float] = time.monotonic
    """The runtime's clock (a test's fake one drives `_tick` without waiting)."""
    last_progress: float = field(default_factory=time.monotonic)
    last_sync: float = 0.0
    """When we last asked the others for a catch-up."""
    last_notice: float = 0.0
    asked: tuple[int, int] | None = None
    result: int | None = None
    log: TableLog | None = None
    spare_links: list[_Link] = field(default_factory=list)
    """Older live connections to a seat that also has a newer one (after both dialled)."""
    waiting_for: object = None
    waiting_since: float = field(default_factory=time.monotonic)
    timed: int = 0
    """Transcript entries already written to the timing file."""
    heads: dict[int, bytes] = field(default_factory=dict)
    """The head each seat last said it holds (in its catch-up request)."""
    lost: dict[int, float] = field(default_factory=dict)
    """Seats whose connection dropped and has not come back yet, and since when."""
    holding: int | None = None
    """The hand whose first messages of ours are held back while the player pauses."""
    held: list[bytes] = field(default_factory=list)
    """Our messages of that hand, in order, not sent yet."""
    code_shown: bool = False
    """The table code has been shown (it exists once every seat signed the genesis)."""
    pages: dict[int, tuple[PageState, float]] = field(default_factory=dict)
    """What each other seat last said of its person's page, and since when (advisory)."""
    page_told: PageState | None = None
    """Our own page's state as last told to every link."""
    bot_levels: dict[int, str] = field(default_factory=dict)
    """The seats of the bots this peer started itself (the host's), and how each plays: shown
    as "Bot (hard) is thinking" on its page; no message tells other peers who is a bot."""
    setup_watch: float | None = None
    """Watch for a seat lost before every seat signed the genesis (`setup_lost.py`): the seconds
    a seat may take to connect (longer for a table resumed from its log); None: no watch."""
    setup_started: float = field(default_factory=time.monotonic)
    abandoned: SetupLost | None = None
    heard: StopNotice | None = None
    """Another seat's signed stop notice, not yet in agreement with our own table."""
    notice: StopNotice | None = None
    """Another seat's signed word that it stopped the table because a seat stalled (checked
    against our own transcript and whom we wait for: `verdict.settle_notice`)."""
    told: StopNotice | None = None
    """Our own stop notice, sent to every seat (and to any that connects while we linger)."""
    """Set when the setup was given up: the table never started (the caller goes back to the
    lobby, or stops)."""

    @property
    def seat(self) -> int:
        assert self.session.seat is not None
        return self.session.seat


async def _writer(connection: Connection, outbox: trio.MemoryReceiveChannel[_Outgoing]) -> None:
    """Send a link's queue in order; a failed send just ends the link (the reader notices)."""
    async with outbox:
        async for item in outbox:
            try:
                if isinstance(item, bytes):
                    await connection.send(item)
                else:
                    await connection.request_sync(item[1])
            except (ConnectionClosed, NetError, trio.BrokenResourceError, trio.ClosedResourceError):
                return


async def _reader(
    connection: Connection, seat: int, inbox: Inbox, gate: SyncGate | None = None
) -> None:
    """Forward a connection's session messages, catch-up requests (one outstanding, a few a
    second: ``gate``) and (checked, rate-limited) presence messages to the session task."""
    limit = PresenceLimit(time.monotonic())
    gate = SyncGate(time.monotonic()) if gate is None else gate
    try:
        async for message in connection:
            if isinstance(message, SyncRequest):
                head = gate.ask(message.head, time.monotonic())
                if head is not None:
                    await inbox.send.send(_SyncAsked(seat, head, connection, gate))
                elif gate.excess:  # logged once a minute per source
                    _PRESENCE_FAULTS.warn(
                        connection.remote_address,
                        f"seat {seat} floods catch-up requests ({gate.excess} not answered)",
                    )
            elif message.payload[:1] == bytes([CHANNEL_SESSION]):
                await inbox.send.send(_Arrived(seat, message.payload[1:]))
            elif message.payload[:1] == bytes([CHANNEL_PRESENCE]):
                said_page = _page_said(connection, seat, message.payload[1:], limit)
                if said_page is not None:
                    await inbox.send.send(said_page)
            elif message.payload[:1] == bytes([CHANNEL_NOTICE]):
                await inbox.send.send(_Noticed(seat, message.payload[1:]))
            elif seat == 0 and message.payload[:1] == bytes([CHANNEL_LOBBY]):
                with suppress(LobbyError):
                    word = decode_lobby(message.payload[1:])
                    if isinstance(word, Refuse):
                        await inbox.send.send(_HostSaid(seat, word))
    except ConnectionClosed:
        pass
    finally:
        # Never block here: at shutdown nobody may be reading the inbox any more.
        with suppress(trio.WouldBlock, trio.BrokenResourceError, trio.ClosedResourceError):
            inbox.send.send_nowait(_LinkDown(seat, connection))


def _page_said(
    connection: Connection, seat: int, payload: bytes, limit: PresenceLimit
) -> _PageSaid | None:
    """A presence message from `seat`, or None when it is malformed or comes too fast (either
    is logged once a minute and otherwise ignored: it is advisory, and never ends a link)."""
    if not limit.allow(time.monotonic()):
        _PRESENCE_FAULTS.warn(
            connection.remote_address, f"seat {seat + 1} floods presence messages"
        )
        return None
    try:
        return _PageSaid(seat, decode_presence(payload))
    except PresenceError as exc:
        _PRESENCE_FAULTS.warn(
            connection.remote_address, f"seat {seat + 1}'s presence message: {exc}"
        )
        return None


async def play_table(run: TableRun, nursery: trio.Nursery) -> int:
    """Drive the session to the end of the match; returns the exit status (0 clean, 3 blame)."""
    session = run.session
    lang = _lang(run)
    names = ", ".join(run.names)
    run.options.say(said("seated", lang, seat=run.seat + 1, of=len(run.names), names=names))
    for seat, (name, key) in enumerate(zip(run.names, session.transcript.keys, strict=True)):
        run.options.say(
            said("fingerprint", lang, seat=seat + 1, name=name, fingerprint=key.fingerprint)
        )
    run.options.ui.seated(session, run.names)
    run.timed = len(session.transcript)
    if run.options.timing is not None:
        run.options.timing.mark("seated", seat=run.seat)
    nursery.start_soon(_ticker, run.inbox.send.clone())
    run.last_progress = run.waiting_since = run.clock()
    if run.options.presence is not None:
        run.options.presence.watch(partial(presence_of, run))
    run.setup_started = run.clock()
    await _handle(run, session.start(), nursery)
    async for item in run.inbox.receive:
        if isinstance(item, _HostSaid):
            host_said(run, item.seat, item.refusal)
        elif isinstance(item, _Noticed):
            heard_notice(run, item.seat, item.payload)
        elif isinstance(item, _Arrived):
            await _handle(run, session.receive(item.payload, item.seat), nursery)
        elif isinstance(item, _PageSaid):
            _page_heard(run, item)
        elif isinstance(item, _SyncAsked):
            _answer_sync(run, item)
        elif isinstance(item, _Chosen):
            # A person who acts has a page open: the others hear so before the move, on the same
            # links (a tick may come too late: the match can end first, and with it presence).
            _tell_page(run)
            if run.asked == item.token and session.awaiting_action:
                run.asked = None
                if run.options.timing is not None:
                    run.options.timing.mark("acted", index=len(session.transcript), seat=run.seat)
                try:
                    update = session.act(item.action)
                except IllegalAction as exc:  # a UI or bot bug: say so and ask again
                    run.options.say(said("not_allowed", _lang(run), rule=exc.rule))
                    update = Update()
                await _handle(run, update, nursery)
        elif isinstance(item, _LinkUp):
            old = run.links.get(item.link.seat)
            if old is not None:
                run.spare_links.append(old)
            run.links[item.link.seat] = item.link
            _post_sync(item.link, _public_head(run))
            _post(item.link, encode_presence(_own_page(run)))
            if item.link.seat in run.lost:
                del run.lost[item.link.seat]
                run.options.say(said("again", _lang(run), name=run.names[item.link.seat]))
        elif isinstance(item, _LinkDown):
            _link_down(run, item)
        elif isinstance(item, _Ready):
            _release(run, item.number)
        else:
            _slept(run, item.slept)
            stalled = _tick(run)
            if stalled is not None:
                await _handle(run, stalled, nursery)
        _track_expected(run)
        watching = run.setup_watch is not None and run.abandoned is None
        if watching and session.phase is Phase.SETUP:
            watch_setup(run)
        if run.abandoned is not None:
            return abandon(run)
        settle_notice(run)
        if run.notice is not None:
            return stop_by_notice(run)
        if not isinstance(item, _Tick) and not session.finished:
            _report_presence(run)
        if session.finished:
            break
    return await _finish(run)


def _own_page(run: TableRun) -> PageState:
    """Our person's page as of now ("none" for a bot or the terminal)."""
    return "none" if run.options.page is None else run.options.page()


def _tell_page(run: TableRun) -> None:
    """Tell every link when our page opened or closed (a new link hears it when it comes up)."""
    state = _own_page(run)
    if state != run.page_told:
        run.page_told = state
        for link in run.links.values():
            _post(link, encode_presence(state))


def _page_heard(run: TableRun, heard: _PageSaid) -> None:
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


def _link_down(run: TableRun, down: _LinkDown) -> None:
    """Forget a closed connection; another live one to the same seat takes its place."""
    for link in [*run.spare_links, *run.links.values()]:
        if link.connection is down.connection:
            link.outbox.close()
    run.spare_links = [s for s in run.spare_links if s.connection is not down.connection]
    current = run.links.get(down.seat)
    if current is None or current.connection is not down.connection:
        return
    del run.links[down.seat]
    others = [s for s in run.spare_links if s.seat == down.seat]
    if others:
        run.links[down.seat] = others[-1]
        run.spare_links.remove(others[-1])
    elif not run.session.finished:
        run.pages.pop(down.seat, None)  # it says again when it comes back
        run.lost[down.seat] = run.clock()
        run.options.say(said("lost", _lang(run), name=run.names[down.seat]))


def _answer_sync(run: TableRun, asked: _SyncAsked) -> None:
    """Send the asking connection what follows its head (at most ``MAX_SYNC_ANSWER_BYTES``;
    it asks again for the rest), then a request its link deferred, if one may go now."""
    run.heads[asked.seat] = asked.head
    held = set(run.held)
    for link in [*run.links.values(), *run.spare_links]:
        if link.connection is asked.connection:
            after = run.session.messages_after(asked.head)
            for data in bounded_answer(d for d in after if d not in held):  # held: paused
                _post(link, bytes([CHANNEL_SESSION]) + data)
            break
    if asked.gate is not None:
        asked.gate.answered()
        head = asked.gate.due(time.monotonic())
        if head is not None:
            _answer_sync(run, _SyncAsked(asked.seat, head, asked.connection, asked.gate))


def _answer_deferred(run: TableRun) -> None:
    """Answer the catch-up requests links deferred (they came too fast), when they may go."""
    for link in [*run.links.values(), *run.spare_links]:
        head = link.gate.due(time.monotonic())
        if head is not None:
            _answer_sync(run, _SyncAsked(link.seat, head, link.connection, link.gate))


def _public_head(run: TableRun) -> bytes:
    """The head of what we have sent: messages held back during a pause are not yet known."""
    if run.held:
        return Envelope.decode(run.held[0], run.session.transcript.registry).head
    return run.session.transcript.head


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
        await run.inbox.send.send(_Ready(number))


def _release(run: TableRun, number: int) -> None:
    """The pause before hand `number` is over: send what we held back, and the table goes on."""
    if run.holding != number:
        return
    run.holding = None
    held, run.held = run.held, []
    for data in held:
        payload = bytes([CHANNEL_SESSION]) + data
        for link in run.links.values():
            _post(link, payload)
    run.last_progress = run.clock()


def _post(link: _Link, item: _Outgoing) -> None:
    with suppress(trio.WouldBlock, trio.BrokenResourceError, trio.ClosedResourceError):
        link.outbox.send_nowait(item)  # a stuck or closed peer catches up later


def _post_sync(link: _Link, head: bytes) -> None:
    _post(link, ("sync", head))


async def _ticker(send: trio.MemorySendChannel[_Item]) -> None:
    async with send:
        last, owed = trio.current_time(), 0.0
        while True:
            await trio.sleep(TICK)
            now = trio.current_time()
            late, last = now - last - TICK, now
            if late > ASLEEP_AFTER:
                owed += late  # told with the next tick that finds room in the inbox
            with suppress(trio.WouldBlock):
                send.send_nowait(_Tick(owed))
                owed = 0.0


def _slept(run: TableRun, seconds: float) -> None:
    """This peer itself was not running for `seconds` (a frozen process, a closed lid): that
    time does not count against the seat we wait for, which may well have sent its message
    meanwhile; we hear it before the stall timeout can name that seat."""
    now = run.clock()
    run.waiting_since = min(now, run.waiting_since + seconds)
    run.last_progress = min(now, run.last_progress + seconds)


def _tick(run: TableRun) -> Update | None:
    """Nothing happened for a while: say whom we wait for, ask for a catch-up, and after the
    rules' stall timeout name the seat we wait for (never during our own player's pause)."""
    now = run.clock()
    expected = run.session.expected
    _tell_page(run)
    _answer_deferred(run)
    if run.holding is not None:
        _report_presence(run)
        return None
    if expected is not None and expected[0] != run.seat:
        stalled = now - run.waiting_since
        if stalled >= run.session.rules.stall_timeout_s:
            return run.session.stall(expected[0], stalled)
    idle = now - run.last_progress
    if (
        expected is not None
        and idle >= CATCH_UP_AFTER
        and now - run.last_sync >= CATCH_UP_AFTER / 2
    ):
        for link in run.links.values():
            _post_sync(link, run.session.transcript.head)
        run.last_sync = now
    if (
        expected is not None
        and expected[0] != run.seat
        and now - run.waiting_since >= WAITING_NOTICE_AFTER
        and now - run.last_notice >= WAITING_NOTICE_EVERY
    ):
        run.options.ui.waiting(run.names[expected[0]], now - run.waiting_since)
        run.last_notice = now
    _report_presence(run)
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


def _report_presence(run: TableRun) -> None:
    if run.options.presence is not None:
        run.options.presence.tick()


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
            raise PeerFailure(f"cannot write the table's log: {exc.strerror or exc}") from None
        # Only now that the log holds the audit's messages: an audited hand's keys are public.
        _hand_secrets(run.log).forget_audited(update.events)
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
            _post(link, payload)
    for data in update.outgoing:
        if run.holding is not None and (run.held or _starts_hand(run, data)):
            run.held.append(data)
            continue
        payload = bytes([CHANNEL_SESSION]) + data
        for link in run.links.values():
            _post(link, payload)
    if update.events or update.outgoing:
        _track_expected(run)  # the UI draws the new state with its presence, not the old one
        run.options.ui.events(update.events, run.names, run.seat)
    if run.options.record is not None and (update.outgoing or update.events):
        _save(run)
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
    lang = _lang(run)
    run.options.say(said("code", lang, code=code.line(lang)))
    run.options.say(said("compare", lang))


def _lang(run: TableRun) -> str:
    """The language the player's UI speaks (the terminal's and the page's have one)."""
    return str(getattr(run.options.ui, "lang", "en"))


def _save(run: TableRun) -> None:
    assert run.options.record is not None
    try:
        save_transcript(run.options.record, run.session.transcript)
    except OSError as exc:
        reason = exc.strerror or exc
        run.options.say(said("no_record", _lang(run), path=run.options.record, reason=reason))


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
        action = await options.ui.choose(view, run.names, session.scores, target)
    await run.inbox.send.send(_Chosen(token, action))


_BOT_RNG = random.Random(secrets.randbits(64))


async def _finish(run: TableRun) -> int:
    session = run.session
    if run.options.record is not None:
        _save(run)
    if run.log is not None:
        run.log.sync(session.transcript)
        blame = session.blame
        if blame is not None:
            for evidence in blame.evidence:
                run.log.keep_evidence(evidence)
    run.told = own_notice(run)
    if run.told is not None:  # every seat, the stalled one included, is told the verdict
        for link in [*run.links.values(), *run.spare_links]:
            _post(link, run.told.encode())
    await _linger(run)
    if run.log is not None:
        # Only now: until the others hold our last messages, a crash must leave a table that
        # `resume` takes up again (those messages may be in no other log yet).
        blame = session.blame
        run.log.finish("over" if blame is None else str(blame))
        # The table is over or abandoned: no hand's keys are needed again (a halted hand's
        # keys would reveal this seat's tiles with the transcript).
        _hand_secrets(run.log).forget_all()
    for link in run.links.values():
        link.outbox.close()
    if run.log is not None:
        run.log.close()
    if run.options.timing is not None:
        run.options.timing.mark("end")
        run.options.timing.close()
    if run.told is not None:  # a stall: the sentence every peer shows (net/verdict.py)
        name = peer_text(run.names[run.told.stalled], 64)
        lottery = run.told.lottery
        run.options.say(verdict_line(name, run.told.expected, _lang(run), lottery))
        return 3
    if session.blame is not None:
        blamed = run.names[session.blame.seat]
        via = session.blame.via
        relayed = "" if via is None else said("forwarded_by", _lang(run), name=run.names[via])
        reason = session.blame.reason + relayed
        run.options.say(said("stopped_blame", _lang(run), name=blamed, reason=reason))
        return 3
    run.options.say(said("final_hash", _lang(run), hash=session.transcript.head.hex()))
    return 0


def _hand_secrets(log: TableLog) -> HandSecrets:
    """The per-hand keys kept next to a table's log."""
    return HandSecrets(log.path.parent)


async def _linger(run: TableRun) -> None:
    """Stay until every seat holds our final head, so none is left without the last messages
    (also one that crashed at the very end and comes back), at most FINISH_LINGER_MAX seconds;
    FINISH_LINGER after a blame. We say we hold it with a catch-up request from that head;
    peers that connect meanwhile are served like during play. After a stall named by us while
    the stalled seat is not connected, we wait up to FINISH_LINGER_MAX for it to come back
    (`resume`), and tell it the verdict (our stop notice)."""
    session = run.session
    head = session.transcript.head
    others = set(range(len(run.names))) - {run.seat}
    for link in run.links.values():
        _post_sync(link, head)
    limit = FINISH_LINGER if session.blame is not None else FINISH_LINGER_MAX
    # A stalled seat that is not connected now may come back (`resume`) to hear the verdict.
    absent = run.told is not None and run.told.stalled not in run.links
    if absent:
        limit = FINISH_LINGER_MAX
    with trio.move_on_after(limit) as lingering:
        while absent or {seat for seat in others if run.heads.get(seat) == head} != others:
            item = await run.inbox.receive.receive()
            if isinstance(item, _SyncAsked):
                _answer_sync(run, item)
            elif isinstance(item, _LinkUp):
                old = run.links.get(item.link.seat)
                if old is not None:
                    run.spare_links.append(old)
                run.links[item.link.seat] = item.link
                _post_sync(item.link, head)
                if run.told is not None:
                    _post(item.link, run.told.encode())
                    if absent and item.link.seat == run.told.stalled:
                        # It is back, and told: a little longer, for what it lacks to agree
                        # with the notice (its catch-up request follows).
                        absent = False
                        lingering.deadline = trio.current_time() + TOLD_LINGER
            elif isinstance(item, _LinkDown):
                _link_down(run, item)
    # The others may be waiting for our note: let the writers send what is queued.
    links = [*run.links.values(), *run.spare_links]
    with trio.move_on_after(FINISH_FLUSH):
        while any(link.outbox.statistics().current_buffer_used for link in links):
            await trio.sleep(0.02)
        await trio.sleep(0.1)


# -- connections --------------------------------------------------------------------------


async def serve_link(inbox: Inbox, seat: int, connection: Connection) -> None:
    """Carry a seated peer's connection until it closes: a writer task, and its reader here."""
    send, receive = trio.open_memory_channel[_Outgoing](4096)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(_writer, connection, receive)
        link = _Link(seat, connection, send)
        await inbox.send.send(_LinkUp(link))
        await _reader(connection, seat, inbox, link.gate)
        nursery.cancel_scope.cancel()


DIAL_FIRST_DELAY: Final = 0.1
DIAL_MAX_DELAY: Final = 2.0
"""Backoff of `dialed` (the host we join, within its patience)."""
DIAL_PROGRESS_EVERY: Final = 5.0
"""Seconds between the "still trying" lines while the host does not answer."""

OWN_IDENTITY_HINT: Final = (
    "the peer there has your own identity: a second peer on this machine shares the first "
    "one's data folder. Give it its own: --data-dir DIR (any empty folder)"
)
_FULL_CODES: Final = frozenset({"full", "playing"})


def _dial_problem(exc: BaseException, addresses: Sequence[str], port: int, lang: str = "en") -> str:
    """A failed dial in a few words, without repeating the address (one line for the user)."""
    if isinstance(exc, OSError):
        text = str(exc)
        _, sep, rest = text.partition(f"could not connect to port {port}: ")
        text = rest if sep else text
        if len(addresses) == 1 and text.startswith(f"{addresses[0]}: "):
            text = text[len(addresses[0]) + 2 :]
        return said_os_errors(text, lang)
    if isinstance(exc, RefusedByPeer):
        return said("refused_problem", lang, reason=exc.reason)
    return str(exc)


@asynccontextmanager
async def dialed(
    identity: Identity,
    addresses: Sequence[str],
    port: int,
    expect: PublicIdentity | str | None,
    *,
    patience: float,
    progress: Callable[[str], None] | None = None,
    lang: str = "en",
) -> AsyncIterator[Connection]:
    """Dial with backoff for up to `patience` seconds; the connection lives for the block.

    What is retried is decided by the error's type, never by a peer's words: a failed TCP
    connect, a broken handshake and a `busy` refusal (PeerBusy) are retried; a refusal without
    that code and a different key at the address (IdentityMismatch) end it at once. `progress`
    hears what is being tried, and every few seconds that it is still being tried (in `lang`).
    """
    started = time.monotonic()
    deadline = started + patience
    backoff = Backoff(first=DIAL_FIRST_DELAY, cap=DIAL_MAX_DELAY)
    where = f"{_shown(addresses[0])}:{port}"
    if len(addresses) > 1:
        where += f" (or {', '.join(addresses[1:])})"
    told = started
    if progress is not None:
        progress(said("dialling", lang, where=where))
    while True:
        try:
            manager = connect(list(addresses), port, identity, expect=expect)
            connection = await manager.__aenter__()
        except (OSError, HandshakeError) as exc:
            if isinstance(exc, OwnIdentity) or (
                isinstance(exc, RefusedByPeer) and exc.code == BYE_OWN_IDENTITY
            ):
                raise PeerFailure(f"{where}: {OWN_IDENTITY_HINT}") from None
            if isinstance(exc, RefusedByPeer) and exc.code in _FULL_CODES:
                raise PeerFailure(said("table_full", lang, where=where)) from None
            if isinstance(exc, RefusedByPeer) and not isinstance(exc, PeerBusy):
                reason = plain_quotes(exc.reason)  # the host's words, never shown as ours
                raise PeerFailure(said("host_refused", lang, where=where, reason=reason)) from None
            if isinstance(exc, IdentityMismatch):
                raise PeerFailure(f"{where}: {exc}") from None
            problem = _dial_problem(exc, addresses, port, lang)
            now = time.monotonic()
            if now >= deadline:
                spent = f"{now - started:.0f}"
                raise PeerFailure(
                    said("gave_up", lang, where=where, s=spent, problem=problem)
                ) from None
            if progress is not None and now - told >= DIAL_PROGRESS_EVERY:
                told = now
                seconds, of = f"{now - started:.0f}", f"{patience:g}"
                progress(said("still_trying", lang, where=where, problem=problem, s=seconds, of=of))
            await trio.sleep(min(backoff.next(), deadline - now))  # the last try at the deadline
            continue
        break
    try:
        yield connection
    except BaseException as exc:
        if not await manager.__aexit__(type(exc), exc, exc.__traceback__):
            raise
    else:
        await manager.__aexit__(None, None, None)


def _shown(address: str) -> str:
    return f"[{address}]" if ":" in address else address


# -- building the table -----------------------------------------------------------------------


def sit_down(
    options: PeerOptions,
    transcript: Transcript,
    seat: int,
    table_name: str,
    peers: Sequence[PeerAddress],
    nonce: bytes,
) -> tuple[TableSession, TableLog | None]:
    """The session for our seat, with its crash-safe log and stored hand secrets (if kept).

    How many hands are played is the signed genesis's ``max_hands``.

    Our table nonce is on disk before the log exists, so a peer that crashes before its
    ``genesis_sign`` went out reveals the same nonce when it resumes.
    """
    if options.data_dir is None:
        session = TableSession(transcript, seat, options.identity, table_nonce=nonce)
        return session, None
    directory = table_dir(options.data_dir, transcript.table_id)
    try:
        TableNonceFile(directory).save(transcript.table_id, seat, nonce)
    except (OSError, ValueError) as exc:
        raise PeerFailure(f"cannot keep the table's nonce in {directory}: {exc}") from None
    log = TableLog.create(
        directory,
        transcript.table_id,
        seat,
        transcript[0].encoded,
        name=table_name,
        max_hands=transcript.genesis.max_hands,
    )
    log.note_peers(peers)
    _say_lottery_stalls(options, transcript)
    keys = HandSecrets(directory).keys_for
    session = TableSession(
        transcript,
        seat,
        options.identity,
        hand_keys=keys,
        table_nonce=nonce,
    )
    return session, log


def _say_lottery_stalls(options: PeerOptions, transcript: Transcript) -> None:
    """A table restarted after someone stalled the opener lottery says so, once per player:
    every peer that named that stall kept it in its own log (docs/threat-model.md)."""
    assert options.data_dir is not None
    lang = str(getattr(options.ui, "lang", "en"))
    others = [s.key for s in transcript.genesis.seats if s.key != options.identity.public]
    named: set[PublicIdentity] = set()
    for stall in lottery_stalls(options.data_dir, others):
        if stall.key not in named:
            named.add(stall.key)
            name, table = peer_text(stall.name), peer_text(stall.table, 64)
            options.say(said("lottery_stall", lang, name=name, table=table))


def accept_genesis(
    offer: GenesisOffer, identity: Identity, host_key: PublicIdentity, nonce: bytes
) -> tuple[Transcript, int]:
    """Check the host's genesis (seat 0 is the host, we hold a seat whose commitment is the
    one we sent for ``nonce``); our transcript and seat."""
    try:
        transcript = Transcript(_decode_envelope(offer.envelope), default_registry())
    except InvalidMessage as exc:
        raise PeerFailure(f"the host sent an invalid genesis: {exc.reason}") from None
    genesis = transcript.genesis
    if genesis.seats[0].key != host_key:
        raise PeerFailure("the genesis does not seat the host at seat 0")
    seat = genesis.seat_of(identity.public)
    if seat is None:
        raise PeerFailure("the genesis does not seat this player")
    if not opens_commitment(identity.public, nonce, genesis.seats[seat].commitment):
        # Signing it would reveal our nonce for a table whose code others chose: refuse.
        raise PeerFailure("the host's genesis does not carry the commitment this player sent")
    try:
        Rules.from_wire(genesis.rules).check_players(len(genesis.seats))
    except InvalidRecord as exc:
        raise PeerFailure(f"the host's table cannot be played: {exc}") from None
    return transcript, seat


def _decode_envelope(data: bytes) -> Envelope:
    return Envelope.decode(data, default_registry())


def lobby_message(message: Data | SyncRequest) -> object | None:
    """The lobby message in a transport message, or None if it is something else."""
    if isinstance(message, Data) and message.payload[:1] == bytes([CHANNEL_LOBBY]):
        try:
            return decode_lobby(message.payload[1:])
        except LobbyError:
            return None
    return None
