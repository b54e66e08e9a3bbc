"""Several table sessions in one process, joined by an in-memory router (no sockets, no threads).

Used by `simulate --secure` and by the tests; a `Link` policy can drop, duplicate, delay, reorder
or tamper with messages between any two peers. When nothing is in flight and nobody can act, the
router runs a catch-up round (each peer offers the messages after the others' heads), as the
network layer does after a reconnection.

v4 (PROTOCOL.md §16): a seat may `leave` (its goodbye) or be `kill`ed (it goes silent; when
nothing else can happen, the lowest live seat says it stalled); the lowest remaining seat then
proposes a fresh key for the seat, and a new session (an observer that followed the record,
then took the seat) plays it with the same bot.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from p2p_dominoes.bots import Bot
from p2p_dominoes.engine import Rules
from p2p_dominoes.mental import SYSTEM_RANDOM, RandomSource
from p2p_dominoes.session.envelope import PROTOCOL_VERSION
from p2p_dominoes.session.events import Blame, Event, Update
from p2p_dominoes.session.genesis import Genesis, SeatInfo, new_table_id
from p2p_dominoes.session.identity import Identity
from p2p_dominoes.session.leave_messages import ask_to_come_back
from p2p_dominoes.session.messages import default_registry
from p2p_dominoes.session.table import Phase, TableSession
from p2p_dominoes.session.table_code import new_table_nonce, seat_commitment
from p2p_dominoes.session.transcript import Transcript

Link = Callable[[int, int, bytes], list[bytes]]
"""A router policy: given (sender, receiver, message) return what arrives (maybe nothing)."""

EventSink = Callable[[int, Event], None]


def faithful_link(sender: int, receiver: int, data: bytes) -> list[bytes]:
    """Every message arrives once, unchanged."""
    return [data]


@dataclass
class LocalTable:
    """N peers at one table in this process, each validating everything it receives."""

    sessions: list[TableSession]
    bots: Sequence[Bot]
    bot_rngs: list[random.Random]
    link: Link = faithful_link
    on_event: EventSink | None = None
    queue: deque[tuple[int, int, bytes]] = field(default_factory=deque)
    delivered: int = 0
    dead: set[int] = field(default_factory=set)
    """Seats that left or went silent: nothing reaches them, their bots do not act."""
    newcomer: Callable[[int], tuple[str, Identity, RandomSource]] | None = None
    """v4: the name, fresh key and randomness of the new holder of a seat that left (default:
    "<name> (bot)", a generated key, `holder_rng`'s randomness)."""
    holder_rng: Callable[[int], RandomSource] = lambda seat: SYSTEM_RANDOM
    """v4: the randomness of a seat's next holder (the bot that takes it, or its player coming
    back), by seat. Tests seed it, so a reproducible table's deals repeat after a seat changes
    hands too."""
    replaced: list[TableSession] = field(default_factory=list)
    """The sessions of the seats that left, as they were when they went."""
    returning: dict[int, tuple[TableSession, Identity]] = field(default_factory=dict)
    """§16.1: a player who asked its seat back: an observer that follows every message, with
    the fresh key it takes the seat with once the continuation gives it."""

    @classmethod
    def create(
        cls,
        rules: Rules,
        names: Sequence[str],
        bots: Sequence[Bot],
        *,
        seed: int = 0,
        max_hands: int | None = None,
        rngs: Sequence[RandomSource] | None = None,
        identities: Sequence[Identity] | None = None,
        table_id: bytes | None = None,
        nonces: Sequence[bytes] | None = None,
        protocol_version: int = PROTOCOL_VERSION,
    ) -> LocalTable:
        """A new table: fresh identities and table nonces, a genesis signed by seat 0 that
        carries every seat's commitment and `max_hands` (None: a whole match), one session
        per seat.

        `rngs`, `identities`, `table_id` and `nonces` make a table reproducible (test vectors);
        `protocol_version` 1 plays the first protocol (its vectors regenerate byte for byte).
        """
        ids = list(identities) if identities is not None else [Identity.generate() for _ in names]
        secret = list(nonces) if nonces is not None else [new_table_nonce() for _ in names]
        seats = [
            SeatInfo(n, i.public, seat_commitment(i.public, nonce))
            for n, i, nonce in zip(names, ids, secret, strict=True)
        ]
        genesis = Genesis(
            table_id if table_id is not None else new_table_id(),
            rules.to_wire(),
            tuple(seats),
            protocol_version,
            max_hands,
        )
        envelope = genesis.sign(ids[0], 0)
        sessions = [
            TableSession(
                Transcript(envelope, default_registry()),
                seat,
                ids[seat],
                rng=rngs[seat] if rngs is not None else SYSTEM_RANDOM,
                table_nonce=secret[seat],
            )
            for seat in range(len(names))
        ]
        for session in sessions:
            session.goes_on_after_goodbye = True  # v4: the router plays the continuation
        bot_rngs = [random.Random(f"{seed}/bot/{seat}") for seat in range(len(names))]
        return cls(sessions, bots, bot_rngs)

    def _broadcast(self, sender: int, update: Update) -> None:
        for event in update.events:
            if self.on_event is not None:
                self.on_event(sender, event)
        for data in [*update.outgoing, *update.forwarded]:
            self._tell_returning(data)
            for receiver in range(len(self.sessions)):
                if receiver != sender and receiver not in self.dead:
                    for arriving in self.link(sender, receiver, data):
                        self.queue.append((sender, receiver, arriving))

    def step(self) -> bool:
        """Deliver one message or let one bot act; False when nothing could happen."""
        if self.queue:
            sender, receiver, data = self.queue.popleft()
            if receiver in self.dead:
                return True
            self.delivered += 1
            self._broadcast(receiver, self.sessions[receiver].receive(data, sender))
            return True
        for seat, session in self._live():
            expected = session.expected
            if session.phase is Phase.LEAVING and expected is not None and expected[0] == seat:
                self._replace(seat)
                return True
            if session.awaiting_action:
                action = self.bots[seat](session.view(), self.bot_rngs[seat])
                self._broadcast(seat, session.act(action))
                return True
        return False

    def _live(self) -> list[tuple[int, TableSession]]:
        return [(seat, s) for seat, s in enumerate(self.sessions) if seat not in self.dead]

    def come_back(
        self,
        seat: int,
        name: str,
        rng: RandomSource | None = None,
        identity: Identity | None = None,
    ) -> Identity:
        """§16.1: the player whose session left `seat` asks it back under `name` with a fresh
        key (`identity`, default a generated one; its request signed by its old key) and
        randomness (`rng`, default `holder_rng`'s); the lowest other seat puts it on the table at
        the next hand's start, and the returner plays from the hand after. The fresh key."""
        old = next(s for s in reversed(self.replaced) if s.seat == seat)._identity
        assert old is not None
        proposer = next(s for s in range(len(self.sessions)) if s != seat)
        source = self.sessions[proposer]
        follower = self._follower(source, rng if rng is not None else self.holder_rng(seat))
        identity = identity if identity is not None else Identity.generate()
        asked = ask_to_come_back(old, source.transcript.table_id, seat, name, identity.public)
        self.returning[seat] = (follower, identity)
        self._broadcast(proposer, source.ask_back(seat, name, identity.public, asked))
        return identity

    def _tell_returning(self, data: bytes) -> None:
        """A returning player sees every message; once the continuation gives it the seat, it
        takes it (the bot that held it only follows from then on)."""
        for seat, (follower, identity) in list(self.returning.items()):
            follower.receive(data)
            if follower.transcript.keys[seat] == identity.public:
                del self.returning[seat]
                follower.goes_on_after_goodbye = True
                self.replaced.append(self.sessions[seat])
                self.sessions[seat] = follower
                self._broadcast(seat, follower.take_seat(seat, identity))

    @staticmethod
    def _follower(source: TableSession, rng: RandomSource) -> TableSession:
        """An observer that has checked `source`'s record so far (a new holder's start)."""
        follower = TableSession(
            Transcript(source.transcript.entries[0].envelope, default_registry()),
            None,
            None,
            rng=rng,
        )
        for entry in source.transcript.entries[1:]:
            follower.admit(entry.envelope)
        return follower

    def leave(self, seat: int) -> None:
        """`seat` says goodbye (v4) and is gone from then on."""
        self._broadcast(seat, self.sessions[seat].goodbye())
        self.dead.add(seat)

    def kill(self, seat: int) -> None:
        """`seat` goes silent for good (a `kill -9`): the others find it stalled (v4)."""
        self.dead.add(seat)

    def _stalled(self) -> bool:
        """The lowest live seat says a dead seat the table waits for stalled (v4)."""
        for seat, session in self._live():
            expected = session.expected
            if expected is not None and expected[0] in self.dead and not session.finished:
                try:
                    update = session.goodbye(expected[0])
                except ValueError:
                    return False
                self._broadcast(seat, update)
                return True
        return False

    def _replace(self, proposer: int) -> None:
        """`proposer` proposes a new holder for the gone seat; its session takes the seat."""
        session = self.sessions[proposer]
        hand = session.hand
        assert hand is not None and hand.gone is not None
        gone = hand.gone
        if self.newcomer is not None:
            name, identity, rng = self.newcomer(gone)
        else:
            name, identity = f"{session.names[gone]} (bot)", Identity.generate()
            rng = self.holder_rng(gone)
        self._broadcast(proposer, session.propose_continue(name, identity.public))
        source = session.transcript
        follower = TableSession(
            Transcript(source.entries[0].envelope, default_registry()), None, None, rng=rng
        )
        for entry in source.entries[1:]:
            follower.admit(entry.envelope)
        follower.goes_on_after_goodbye = True
        self.replaced.append(self.sessions[gone])
        self.sessions[gone] = follower
        self.dead.discard(gone)
        self._broadcast(gone, follower.take_seat(gone, identity))

    def catch_up(self) -> bool:
        """Offer every peer whose head differs the messages it may be missing."""
        sent = False
        for receiver, behind in self._live():
            if behind.finished:
                continue
            for sender, ahead in self._live():
                if sender == receiver or ahead.transcript.head == behind.transcript.head:
                    continue
                for data in ahead.messages_after(behind.transcript.head):
                    self.queue.append((sender, receiver, data))
                    sent = True
        return sent

    def heads(self) -> tuple[bytes, ...]:
        return tuple(s.transcript.head for _, s in self._live())

    def run(
        self, max_steps: int = 1_000_000, until: Callable[[LocalTable], bool] | None = None
    ) -> None:
        """Run until every session is finished (or halted), or nothing more can happen; or,
        with `until`, until nothing is in flight and `until(self)` holds (run again to go on)."""
        for seat, session in self._live():
            self._broadcast(seat, session.start())
        stuck_at: tuple[bytes, ...] | None = None
        for _ in range(max_steps):
            if all(s.finished for _, s in self._live()):
                return
            if until is not None and not self.queue and until(self):
                return
            if self.step():
                continue
            if self.heads() == stuck_at or not self.catch_up():
                if self._stalled():
                    continue
                return  # a catch-up round changed nothing: no progress is possible
            stuck_at = self.heads()

    @property
    def blames(self) -> list[Blame | None]:
        return [s.blame for s in self.sessions]
