"""A table run's state, owned by one task (`runtime.play_table`): the session, the links to the
other seats, what each seat said, the clocks; and the inbox through which connection readers,
the player and the ticker hand that task everything it reacts to."""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass, field

import trio

from p2p_dominoes.engine import Action
from p2p_dominoes.net.connection import Connection
from p2p_dominoes.net.lobby import Refuse
from p2p_dominoes.net.page_presence import PageState
from p2p_dominoes.net.peer_options import PeerOptions
from p2p_dominoes.net.setup_lost import SetupLost
from p2p_dominoes.net.sync_limit import SyncGate
from p2p_dominoes.net.verdict import StopNotice
from p2p_dominoes.session import Identity, PublicIdentity, TableSession
from p2p_dominoes.session.come_back_relay import ComeBackRelay
from p2p_dominoes.store import TableLog

Outgoing = bytes | tuple[str, bytes]
"""A payload to send, or ("sync", head): a catch-up request."""


@dataclass
class Link:
    """One authenticated connection to a seated peer, with its writer queue."""

    seat: int
    connection: Connection
    outbox: trio.MemorySendChannel[Outgoing]
    gate: SyncGate = field(default_factory=lambda: SyncGate(time.monotonic()))
    """Its catch-up requests: one outstanding, a few a second (``sync_limit``)."""

    def post(self, item: Outgoing) -> None:
        """Queue `item` for the writer, never waiting: a stuck or closed peer catches up later."""
        with suppress(trio.WouldBlock, trio.BrokenResourceError, trio.ClosedResourceError):
            self.outbox.send_nowait(item)

    def post_sync(self, head: bytes) -> None:
        """Queue a catch-up request: we hold the transcript up to `head`."""
        self.post(("sync", head))


@dataclass(frozen=True)
class Arrived:
    """A session message from a seated peer."""

    seat: int
    payload: bytes


@dataclass(frozen=True)
class PageSaid:
    """A seated peer's word about its person's page (advisory, already checked and limited)."""

    seat: int
    state: PageState


@dataclass(frozen=True)
class HostSaid:
    """The host's lobby word during the setup: the table is set up again (or never was)."""

    seat: int
    refusal: Refuse


@dataclass(frozen=True)
class Noticed:
    """A seat's stop notice (`net/verdict.py`), not checked yet."""

    seat: int
    payload: bytes


@dataclass(frozen=True)
class SyncAsked:
    """A seated peer's catch-up request: it holds the transcript up to `head`."""

    seat: int
    head: bytes
    connection: Connection
    gate: SyncGate | None = None
    """The link's limit, told when the request is answered (None: not limited)."""


@dataclass(frozen=True)
class Chosen:
    """The player's action, for the turn identified by `token`."""

    token: tuple[int, int]
    action: Action


@dataclass(frozen=True)
class LinkUp:
    """A connection to a seat is up (its writer runs): the run sends over it from now on."""

    link: Link


@dataclass(frozen=True)
class LinkDown:
    """A seat's connection closed (its reader ended)."""

    seat: int
    connection: Connection


@dataclass(frozen=True)
class Tick:
    """Time to look at the clock (`ticking.py`)."""

    slept: float = 0.0
    """Seconds this peer itself was not running before this tick (0 when it came on time)."""


@dataclass(frozen=True)
class Ready:
    """The player's pause before hand `number` is over: send what was held back."""

    number: int


@dataclass(frozen=True)
class Leave:
    """v4: our player leaves the table for good (the terminal's `leave`)."""


@dataclass(frozen=True)
class GoOn:
    """v4: our person's answer to "go on with a new holder in the seat that left?" (`asking`):
    `yes`, or no (also when no answer came in time); `before` is the leaver's name."""

    yes: bool
    before: str


@dataclass(frozen=True)
class AskedBack:
    """v4 (§16.1): a returning player's request from a former holder's connection, or passed
    on by a seat (checked for its shape only: the session checks its signature against the
    seat's former key)."""

    seat: int
    name: str
    key: PublicIdentity
    asked: bytes
    by: int | None = None
    """The seat whose link carried it (a seat passed it on: it is never passed on again), or
    None: it came from the former holder's own connection."""


Item = (
    Arrived
    | AskedBack
    | PageSaid
    | HostSaid
    | Noticed
    | SyncAsked
    | Chosen
    | LinkUp
    | LinkDown
    | Tick
    | Ready
    | Leave
    | GoOn
)


@dataclass
class Inbox:
    """Everything the session task reacts to, in arrival order."""

    send: trio.MemorySendChannel[Item]
    receive: trio.MemoryReceiveChannel[Item]

    @classmethod
    def new(cls) -> Inbox:
        send, receive = trio.open_memory_channel[Item](1024)
        return cls(send, receive)


@dataclass
class TableRun:
    """The session task's state: the session, the links to the other seats, the record."""

    session: TableSession
    options: PeerOptions
    names: tuple[str, ...]
    links: dict[int, Link] = field(default_factory=dict)
    inbox: Inbox = field(default_factory=Inbox.new)
    clock: Callable[[], float] = time.monotonic
    """The runtime's clock (a test's fake one drives `tick` without waiting)."""
    last_progress: float = field(default_factory=time.monotonic)
    last_sync: float = 0.0
    """When we last asked the others for a catch-up."""
    last_notice: float = 0.0
    asked: tuple[int, int] | None = None
    result: int | None = None
    log: TableLog | None = None
    spare_links: list[Link] = field(default_factory=list)
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
    """Set when the setup was given up: the table never started (the caller goes back to the
    lobby, or stops)."""
    heard: StopNotice | None = None
    """Another seat's signed stop notice, not yet in agreement with our own table."""
    notice: StopNotice | None = None
    """Another seat's signed word that it stopped the table because a seat stalled (checked
    against our own transcript and whom we wait for: `stopping.settle_notice`)."""
    told: StopNotice | None = None
    """Our own stop notice, sent to every seat (and to any that connects while we linger)."""
    peers: dict[int, tuple[str, int]] = field(default_factory=dict)
    """Where each seat listens, as far as we know (handed to a bot that takes a seat, v4)."""
    seat_bot: str | None = None
    """v4: the level of a bot we start for a seat someone left: the host's for its bots (None:
    the rules' default); always `partner` when partners play."""
    bot_nursery: trio.Nursery | None = None
    """Where the bots we start live (the host's, which outlives the game and lets them finish);
    None: the game's own nursery."""

    choosing: trio.CancelScope | None = None
    """The scope of the player's pending choice, cancelled when a goodbye voids the hand."""

    may_come_back: bool = False
    """v4 (§16.1): when our seat went on without us, ask it back (`resume`) instead of
    stopping at once (`coming_back.ask_and_wait`)."""

    relay: ComeBackRelay = field(default_factory=ComeBackRelay)
    """§16.1: the returning players' requests we passed on to the seat that proposes."""
    asks_held: dict[int, bytes] = field(default_factory=dict)
    """§16.1: a request to pass on to a seat we have no link to yet, by that seat (sent when
    one comes up; one per seat)."""

    back_with: tuple[Identity, TableSession] | None = None
    """§16.1: the fresh key our seat came back to, and the observer that followed the others'
    chain up to it (then `resume` sits down again with them)."""

    sat_in: int | None = None
    """The seat we sat down in (kept when a continuation gives it a new holder, v4: the
    session then only follows, and `going_on.left_behind` ends our run)."""

    def __post_init__(self) -> None:
        self.sat_in = self.session.seat

    @property
    def seat(self) -> int:
        """Our own seat (the one we sat down in, also once it has a new holder)."""
        seat = self.session.seat if self.session.seat is not None else self.sat_in
        assert seat is not None
        return seat
