"""How a peer plays and what it shows: its options, its player's UI, and the one-line failure.

Plain data and a protocol, without I/O, shared by every part of the peer (hosting, joining,
the runtime, the page and the terminal).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Final, Protocol

from p2p_dominoes.bots import Bot
from p2p_dominoes.engine import Action, SeatView
from p2p_dominoes.net.page_presence import PageState
from p2p_dominoes.net.presence import PresenceWatch
from p2p_dominoes.net.timing import Timing
from p2p_dominoes.session import Identity, TableSession
from p2p_dominoes.session.events import Event

HAND_BREAK: Final = 10.0
"""Seconds a person's peer pauses between hands (its player reads the summary) unless the
player is ready sooner; at most a third of the rules' stall timeout."""


class PeerFailure(Exception):
    """The peer cannot go on (refused, unreachable, a cheater found): one line for the user."""


class PlayerLeaves(Exception):
    """Raised by a UI's `choose` when the player leaves the table for good (v4, §16: the
    terminal's `leave`); the runtime says its goodbye."""


class PeerUI(Protocol):
    """What a networked peer shows its player, and how it asks for an action."""

    def say(self, line: str) -> None: ...

    def seated(self, session: TableSession, names: Sequence[str]) -> None:
        """The table is set: the session this UI shows (for UIs that draw the whole state)."""

    def events(self, events: Sequence[Event], names: Sequence[str], seat: int) -> None: ...

    def waiting(self, name: str, seconds: float) -> None: ...

    async def choose(
        self, view: SeatView, names: Sequence[str], scores: Sequence[int], target: int
    ) -> Action: ...


class ComingBack(Enum):
    """v4 (§16.1): the steps of a resumed peer's asking its seat back, as a UI is told them."""

    MAY_ASK = "may_ask"
    """`resume` seated us: if the table went on without us, we ask the seat back."""
    ASKING = "asking"
    """The table went on without us: we ask the seat back now and wait for the next hand."""
    NOT_BACK = "not_back"
    """We asked and did not get it back: the table went on without us."""


@dataclass
class PeerOptions:
    """How this peer plays and what it shows."""

    name: str
    identity: Identity
    ui: PeerUI
    interface: str | None = None
    port: int = 47800
    bot: Bot | None = None
    record: Path | None = None
    mdns: bool = True
    data_dir: Path | None = None
    """Where the crash-safe table log and hand secrets go; None keeps nothing (throwaway bots)."""
    timing: Timing | None = None
    """Benchmark timestamps (`--timing FILE`, see `net/timing.py`), or None."""
    presence: PresenceWatch | None = None
    """Shown the table's presence (connections, turns, whom we wait for), or None."""
    between_hands: Callable[[int, float], Awaitable[None]] | None = None
    """A person's pause after a hand: awaited with the next hand's number and the longest pause
    (seconds); this peer's first message of that hand goes out when it returns or the pause
    ends. None: the next hand starts at once (bots, the terminal)."""
    leave_on_interrupt: bool = False
    """A person at the terminal: Ctrl+C twice at the table leaves it for good (v4, a signed
    goodbye); once, it stops this peer as before (`going_on.watch_interrupts`)."""
    hand_break: float = HAND_BREAK
    """The longest pause between hands when `between_hands` is set."""
    ask_go_on: Callable[[str, str, float], Awaitable[bool]] | None = None
    """v4: a person is asked whether the table goes on after a seat left: awaited with the
    leaver's name, its seat's new holder's and the seconds to answer (yes: we sign the
    continuation). None: this peer agrees by default (a bot, `--ui none`)."""
    offers_leave: Callable[[Callable[[], bool]], None] | None = None
    """v4: a UI with a way to leave of its own (the page's *Leave the table*): handed, once
    seated, how to leave (the runtime's; False when it was not heard), called when its person
    confirms. The terminal's is its `leave` word and Ctrl+C twice."""
    comes_back: Callable[[ComingBack], None] | None = None
    """v4 (§16.1): a UI that shows whether this peer asks its seat back, told each step (see
    `ComingBack`). None: the player reads the lines (the terminal)."""
    page: Callable[[], PageState] | None = None
    """Whether our person's page is open (read at every tick; the others are told each change,
    PROTOCOL.md §14), or None: there is no page (a bot, the terminal)."""

    def say(self, line: str) -> None:
        self.ui.say(line)


def ui_lang(options: PeerOptions) -> str:
    """The language the player's UI speaks (the terminal's and the page's have one)."""
    return str(getattr(options.ui, "lang", "en"))
