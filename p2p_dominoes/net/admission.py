"""Who may take a seat before the genesis: the host's answers, cooldowns, bounded waiting.

Sans-I/O (no trio, no sockets): the host's lobby (`host_lobby.py`, `lobby_member.py`) drives it.

A joiner that completed the handshake and sent its `join` becomes a *request*. A host with a
person at it asks them (name and full fingerprint); a host without one (`--ui none`, bots,
scripts) seats joiners at once. Either way the state stays small: at most `max_pending` requests
wait for an answer, at most `max_pending_per_source` from one source (an IPv4 address or an
IPv6 /64, `strangers.source_of`), each for at most `answer_timeout` seconds; requests beyond
that are refused as `busy` (the joiner retries later). A key the host refused or removed is
refused automatically for `cooldown` seconds, and so is a source whose keys the host refused
`source_refusals` times in that time (so one machine cannot ask again and again under fresh
keys; a removal cools down the key only). A request nobody answered cools down like a refused
one.

A host may require a join code (`net/join_code.py`): a request without the right one is refused
(`code`) before anything else about it is weighed, so it never takes a place among the pending
requests the person is asked about, and it counts against its source: `wrong_codes` wrong codes
within the cooldown cool the source down (it is then refused without its code being compared).

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

from p2p_dominoes.net.join_code import codes_match
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
WRONG_CODES: Final = 5
"""Requests without the right join code from one source within the cooldown after which the
source cools down (a person who mistypes gets a few tries)."""
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
        code: bytes | None = None,
        wrong_codes: int = WRONG_CODES,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.ask = ask
        self.code = code
        """The join code a request must carry (None: no code asked)."""
        self.wrong_codes = wrong_codes
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
        self._wrong_codes: OrderedDict[str, list[float]] = OrderedDict()

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
        self,
        key: PublicIdentity,
        name: str,
        address: str,
        *,
        seats_free: int,
        seated: bool,
        code: bytes | None = None,
    ) -> Decision:
        """A joiner asks for a seat: seat it now, make it wait for the host, or refuse it.

        `seats_free` is the number of empty seats, `seated` whether this key already holds one,
        `code` the join code the request carried.
        """
        source = source_of(address)
        if self.code is not None and key not in self._trusted:
            if self._recent(self._wrong_codes, source) >= self.wrong_codes:
                return Refusal("refused", "too many wrong join codes from your address")
            if not codes_match(code, self.code):
                _remember(self._wrong_codes, source, self._clock(), self.cooldown, self.wrong_codes)
                if code is None:
                    return Refusal("code", "this table needs its join code: ask the host for it")
                return Refusal("code", "that is not this table's join code")
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

        An unanswered request cools down like a refused one (key and source), so that requests
        nobody answers cannot fill the person's queue again and again.
        """
        now = self._clock()
        late = [r for r in self._pending.values() if r.deadline <= now]
        for request in late:
            del self._pending[request.number]
            self._cool_down(request.key, request.source)
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
        _remember(self._source_refusals, source, self._clock(), self.cooldown, self.source_refusals)

    def _recent(self, times: OrderedDict[str, list[float]], source: str) -> int:
        """How many of `source`'s remembered times fall within the cooldown."""
        now = self._clock()
        return sum(1 for t in times.get(source, []) if t > now - self.cooldown)

    def _cooling(self, key: PublicIdentity, source: str) -> bool:
        now = self._clock()
        until = self._cooling_keys.get(key)
        if until is not None:
            if until > now:
                return True
            del self._cooling_keys[key]
        recent = [t for t in self._source_refusals.get(source, []) if t > now - self.cooldown]
        return len(recent) >= self.source_refusals


def _remember(
    times: OrderedDict[str, list[float]], source: str, now: float, window: float, keep: int
) -> None:
    """Note one more event of `source` at `now` (its last `keep` within `window` are kept; at
    most _MAX_REMEMBERED sources, the least recent forgotten first)."""
    recent = [t for t in times.get(source, []) if t > now - window]
    recent.append(now)
    times[source] = recent[-keep:]
    times.move_to_end(source)
    while len(times) > _MAX_REMEMBERED:
        times.popitem(last=False)


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
    code: bytes | None = None
    """The join code shown beside the table (None: no code asked). For the person's screen only."""


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
