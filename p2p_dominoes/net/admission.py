"""Who may take a seat before the genesis: the host's answers, cooldowns, bounded waiting.

Sans-I/O (no trio, no sockets): the host's lobby in `tables.py` drives it.

A joiner that completed the handshake and sent its `join` becomes a *request*. A host with a
person at it asks them (name and full fingerprint); a host without one (`--ui none`, bots,
scripts) seats joiners at once. Either way the state stays small: at most `max_pending` requests
wait for an answer, at most `max_pending_per_source` from one source (an IPv4 address or an
IPv6 /64, `strangers.source_of`), each for at most `answer_timeout` seconds; requests beyond
that are refused as `busy` (the joiner retries later). A key the host refused or removed is
refused automatically for `cooldown` seconds, and so is a source whose keys the host refused
`source_refusals` times in that time (so one machine cannot ask again and again under fresh
keys; a removal cools down the key only).

Nothing here reads text from the network to decide: names are cleaned for display only, and
decisions rest on keys, sources and the clock (injectable for tests).
"""

from __future__ import annotations

import itertools
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Final, Protocol

from p2p_dominoes.net.strangers import source_of
from p2p_dominoes.peer_text import peer_text
from p2p_dominoes.session import PublicIdentity

JOIN_DEADLINE: Final = 3.0
"""Seconds a joiner has, after the handshake, to send its `join` message."""
ANSWER_TIMEOUT: Final = 120.0
"""Seconds a request waits for the host's answer before it is refused as unanswered."""
REFUSAL_COOLDOWN: Final = 300.0
"""Seconds a refused or removed key (or a source refused too often) is refused without asking."""
MAX_PENDING: Final = 4
MAX_PENDING_PER_SOURCE: Final = 2
SOURCE_REFUSALS: Final = 3
"""Refusals of keys from one source within the cooldown after which the source itself cools down."""
_MAX_REMEMBERED: Final = 1024


@dataclass(frozen=True)
class Request:
    """A joiner waiting for the host's answer; `number` is what the host types or clicks."""

    number: int
    name: str
    """The joiner's name, cleaned for display (peer_text)."""
    key: PublicIdentity
    source: str
    asked_at: float
    deadline: float


@dataclass(frozen=True)
class Refusal:
    """No seat: a code from `lobby.REFUSAL_CODES` and words for the joiner."""

    code: str
    reason: str


@dataclass(frozen=True)
class SeatNow:
    """Seat this joiner without asking (no person at the host, or one of the host's own bots)."""


Decision = SeatNow | Request | Refusal


class Admission:
    """The host's admission state: pending requests, answers, cooldowns. No I/O, no trio."""

    def __init__(
        self,
        *,
        ask: bool,
        trusted: Iterable[PublicIdentity] = (),
        max_pending: int = MAX_PENDING,
        max_pending_per_source: int = MAX_PENDING_PER_SOURCE,
        answer_timeout: float = ANSWER_TIMEOUT,
        cooldown: float = REFUSAL_COOLDOWN,
        source_refusals: int = SOURCE_REFUSALS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.ask = ask
        self._trusted = set(trusted)
        self.max_pending = max_pending
        self.max_pending_per_source = max_pending_per_source
        self.answer_timeout = answer_timeout
        self.cooldown = cooldown
        self.source_refusals = source_refusals
        self._clock = clock
        self._numbers = itertools.count(1)
        self._pending: dict[int, Request] = {}
        self._verdicts: dict[int, bool] = {}
        self._cooling_keys: OrderedDict[PublicIdentity, float] = OrderedDict()
        self._source_refusals: OrderedDict[str, list[float]] = OrderedDict()

    def now(self) -> float:
        return self._clock()

    def trust(self, key: PublicIdentity) -> None:
        """Seat `key` without asking (a bot the host started itself)."""
        self._trusted.add(key)

    def trusts(self, key: PublicIdentity) -> bool:
        """Whether `key` is seated without asking (one of the host's own bots)."""
        return key in self._trusted

    @property
    def pending(self) -> tuple[Request, ...]:
        """The requests waiting for an answer, oldest first."""
        return tuple(self._pending.values())

    def request(
        self, key: PublicIdentity, name: str, address: str, *, seats_free: int, seated: bool
    ) -> Decision:
        """A joiner asks for a seat: seat it now, make it wait for the host, or refuse it.

        `seats_free` is the number of empty seats, `seated` whether this key already holds one.
        """
        source = source_of(address)
        if seated or any(r.key == key for r in self._pending.values()):
            return Refusal("seated", "this player already holds a seat or has asked for one")
        if seats_free <= 0:
            return Refusal("full", "the table is full")
        if key in self._trusted:
            return SeatNow()
        if self._cooling(key, source):
            return Refusal("refused", "the host refused you a seat")
        if not self.ask:
            return SeatNow()
        if len(self._pending) >= self.max_pending or (
            sum(1 for r in self._pending.values() if r.source == source)
            >= self.max_pending_per_source
        ):
            return Refusal("busy", "other players are waiting for the host's answer")
        now = self._clock()
        number = next(self._numbers)
        request = Request(number, peer_text(name, 64), key, source, now, now + self.answer_timeout)
        self._pending[number] = request
        return request

    def answer(self, number: int, accept: bool) -> Request | None:
        """The host's answer to request `number`; None when it is no longer waiting."""
        request = self._pending.pop(number, None)
        if request is None:
            return None
        self._verdicts[number] = accept
        if not accept:
            self._cool_down(request.key, request.source)
        return request

    def verdict(self, number: int) -> bool | None:
        """The host's answer to request `number` (taken once), or None while none was given."""
        return self._verdicts.pop(number, None)

    def withdraw(self, number: int) -> Request | None:
        """Request `number` is over without an answer (the joiner left, the table filled)."""
        self._verdicts.pop(number, None)
        return self._pending.pop(number, None)

    def expire(self) -> list[Request]:
        """Drop and return the requests whose answer deadline has passed (refused: unanswered).

        An unanswered request puts no cooldown on its key: the host may just have been away.
        """
        now = self._clock()
        late = [r for r in self._pending.values() if r.deadline <= now]
        for request in late:
            del self._pending[request.number]
        return late

    def removed(self, key: PublicIdentity) -> None:
        """The host took a seated player's seat back: its key cools down (not its source: the
        host let that person in, and others may sit at the same address)."""
        self._cool_key(key)

    def _cool_key(self, key: PublicIdentity) -> None:
        self._cooling_keys[key] = self._clock() + self.cooldown
        self._cooling_keys.move_to_end(key)
        while len(self._cooling_keys) > _MAX_REMEMBERED:
            self._cooling_keys.popitem(last=False)

    def _cool_down(self, key: PublicIdentity, source: str) -> None:
        self._cool_key(key)
        now = self._clock()
        times = [t for t in self._source_refusals.get(source, []) if t > now - self.cooldown]
        times.append(now)
        self._source_refusals[source] = times[-self.source_refusals :]
        self._source_refusals.move_to_end(source)
        while len(self._source_refusals) > _MAX_REMEMBERED:
            self._source_refusals.popitem(last=False)

    def _cooling(self, key: PublicIdentity, source: str) -> bool:
        now = self._clock()
        until = self._cooling_keys.get(key)
        if until is not None:
            if until > now:
                return True
            del self._cooling_keys[key]
        recent = [t for t in self._source_refusals.get(source, []) if t > now - self.cooldown]
        return len(recent) >= self.source_refusals


@dataclass(frozen=True)
class LobbySeat:
    """A taken seat as the host's person sees it."""

    seat: int
    name: str
    """Cleaned for display."""
    fingerprint: str
    bot: bool
    """One of the bots the host started itself."""


@dataclass(frozen=True)
class LobbyState:
    """What the host's person is shown before the start: the seats and who asks for one."""

    table: str
    players: int
    seats: tuple[LobbySeat, ...]
    """The taken seats in seat order (`LobbySeat.seat`; empty seats may lie between them)."""
    pending: tuple[Request, ...]
    pairs: bool = False
    """Partners sit opposite (Kozel): seats 1+3 against 2+4."""


class LobbyControl(Protocol):
    """The host's answers: seat or refuse a request (by number), take a seat back or swap two
    seats before the start.

    Each returns False when there is nothing to act on (already answered, gone, started).
    """

    def approve(self, number: int) -> bool: ...

    def refuse(self, number: int) -> bool: ...

    def remove(self, seat: int) -> bool: ...

    def swap(self, first: int, second: int) -> bool:
        """Exchange two seats (0-based, not the host's; one may be empty) before the start."""
        ...


class HostDesk(Protocol):
    """A person at the host: shown each change of the lobby, answering through `attend`."""

    def lobby(self, state: LobbyState) -> None: ...

    async def attend(self, control: LobbyControl) -> None:
        """Take the person's answers until cancelled (when the game begins)."""
