"""Who is at the table right now: each seat connected, thinking or away, whom we wait for, and
how long before the stall timeout ends the table (pure data the runtime hands its UI)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, Literal, Protocol

from p2p_dominoes.net.page_presence import PageState

WAITING_NOTICE_AFTER: Final = 2.5
"""Seconds we wait for another seat's message before the UI says whom we wait for."""
STALL_WARNING: Final = 60.0
"""Seconds before the stall timeout from which the UI warns that the table is about to stop
(half the timeout when that is shorter)."""

SeatState = Literal["me", "connected", "connecting", "away"]


@dataclass(frozen=True)
class SeatPresence:
    """One seat: its connection, how long it has been away, how long it has had the turn."""

    seat: int
    state: SeatState
    away_seconds: float | None = None
    """Seconds since its connection dropped, while it is away."""
    turn_seconds: float | None = None
    """Seconds since its turn to play, draw or pass began, while it is its turn."""
    page: PageState | None = None
    """What its peer says of its person's page (advisory; None: it said nothing yet)."""
    page_seconds: float | None = None
    """Seconds since it said its page closed, while it is closed."""
    bot: str | None = None
    """The level of one of our own bots at this seat (the host started it); None: a person, or
    a seat this peer cannot tell (no message says a seat is a bot)."""

    @property
    def page_closed(self) -> bool:
        """Its peer is connected but says its person closed the page: shown away."""
        return self.state == "connected" and self.page == "closed"


@dataclass(frozen=True)
class Waiting:
    """The seat whose message the table waits for (not ours), and for how long."""

    seat: int
    seconds: float
    stall_left: float
    """Seconds before the stall timeout names this seat and the table stops."""
    away: bool
    page_closed: bool = False
    """Its peer is connected but says its person closed the page (advisory)."""

    @property
    def shown(self) -> bool:
        """Long enough to tell the player whom we wait for."""
        return self.seconds >= WAITING_NOTICE_AFTER

    def warn(self, stall_timeout: float) -> bool:
        """Close enough to the stall timeout to warn everyone at the table."""
        return self.stall_left <= min(STALL_WARNING, stall_timeout / 2)


@dataclass(frozen=True)
class Presence:
    """The table's presence as of one moment of the runtime's clock."""

    seats: tuple[SeatPresence, ...]
    waiting: Waiting | None
    stall_timeout: float
    holding: bool = False
    """This peer holds back its first message of the next hand (its player's pause)."""
    own_turn: Waiting | None = None
    """Our own player's turn, for how long, and how long before the others' stall timeout."""

    @property
    def stall_warning(self) -> Waiting | None:
        """The seat to warn about (our own when it is our turn), when the stall timeout is near."""
        for waiting in (self.waiting, self.own_turn):
            if waiting is not None and waiting.warn(self.stall_timeout):
                return waiting
        return None


class PresenceWatch(Protocol):
    """A UI that shows the presence: it reads it when it draws, and hears when it changed."""

    def watch(self, read: Callable[[], Presence]) -> None:
        """Where to read the table's presence from (the table is seated)."""

    def tick(self) -> None:
        """Time passed or something happened: draw again if what it shows changed."""
