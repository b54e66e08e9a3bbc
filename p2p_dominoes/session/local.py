"""Several table sessions in one process, joined by an in-memory router (no sockets, no threads).

Used by `simulate --secure` and by the tests; a `Link` policy can drop, duplicate, delay, reorder
or tamper with messages between any two peers. When nothing is in flight and nobody can act, the
router runs a catch-up round (each peer offers the messages after the others' heads), as the
network layer does after a reconnection.
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
from p2p_dominoes.session.messages import default_registry
from p2p_dominoes.session.table import TableSession
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
        bot_rngs = [random.Random(f"{seed}/bot/{seat}") for seat in range(len(names))]
        return cls(sessions, bots, bot_rngs)

    def _broadcast(self, sender: int, update: Update) -> None:
        for event in update.events:
            if self.on_event is not None:
                self.on_event(sender, event)
        for data in [*update.outgoing, *update.forwarded]:
            for receiver in range(len(self.sessions)):
                if receiver != sender:
                    for arriving in self.link(sender, receiver, data):
                        self.queue.append((sender, receiver, arriving))

    def step(self) -> bool:
        """Deliver one message or let one bot act; False when nothing could happen."""
        if self.queue:
            sender, receiver, data = self.queue.popleft()
            self.delivered += 1
            self._broadcast(receiver, self.sessions[receiver].receive(data, sender))
            return True
        for seat, session in enumerate(self.sessions):
            if session.awaiting_action:
                action = self.bots[seat](session.view(), self.bot_rngs[seat])
                self._broadcast(seat, session.act(action))
                return True
        return False

    def catch_up(self) -> bool:
        """Offer every peer whose head differs the messages it may be missing."""
        sent = False
        for receiver, behind in enumerate(self.sessions):
            if behind.finished:
                continue
            for sender, ahead in enumerate(self.sessions):
                if sender == receiver or ahead.transcript.head == behind.transcript.head:
                    continue
                for data in ahead.messages_after(behind.transcript.head):
                    self.queue.append((sender, receiver, data))
                    sent = True
        return sent

    def heads(self) -> tuple[bytes, ...]:
        return tuple(s.transcript.head for s in self.sessions)

    def run(self, max_steps: int = 1_000_000) -> None:
        """Run until every session is finished (or halted), or nothing more can happen."""
        for seat, session in enumerate(self.sessions):
            self._broadcast(seat, session.start())
        stuck_at: tuple[bytes, ...] | None = None
        for _ in range(max_steps):
            if all(s.finished for s in self.sessions):
                return
            if self.step():
                continue
            if self.heads() == stuck_at or not self.catch_up():
                return  # a catch-up round changed nothing: no progress is possible
            stuck_at = self.heads()

    @property
    def blames(self) -> list[Blame | None]:
        return [s.blame for s in self.sessions]
