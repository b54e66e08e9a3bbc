"""How a session takes messages in: append to the transcript through the validators, keep
early messages for later (a quota a seat), and turn what goes wrong into a blame.

A duplicate delivery is harmless; a message that does not authenticate is dropped (nobody
provably sent it) unless another seated key signed it (impersonation); two different signed
messages for one place are an equivocation; any other signed fault names its seat. The first
blame stops the table and its evidence goes out to every seat.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import TYPE_CHECKING, Final

from p2p_dominoes.session.checks import Effect
from p2p_dominoes.session.envelope import Envelope
from p2p_dominoes.session.errors import InvalidMessage
from p2p_dominoes.session.events import Blame, CheatingDetected, Event, Update
from p2p_dominoes.session.leave_messages import GOODBYE
from p2p_dominoes.session.phases import Phase, Trigger
from p2p_dominoes.session.transcript import EquivocationDetected, ReplayedMessage, Transcript
from p2p_dominoes.session.validation import validate
from p2p_dominoes.words import phrase

if TYPE_CHECKING:
    from p2p_dominoes.session.table import TableSession

MAX_BUFFERED_PER_SEAT: Final = 64
"""Messages kept per sending seat while they wait for their predecessor (they came early)."""


class Intake:
    """The session's way in: accepting, buffering and blaming (one per `TableSession`)."""

    def __init__(self, session: TableSession) -> None:
        self._session = session
        self.future: dict[bytes, list[Envelope]] = {}
        """Early messages by the head they follow."""
        self.via: int | None = None
        """The seat that delivered the message being taken (see `TableSession.receive`)."""
        self._effect: Effect | None = None

    def receive(self, data: bytes, via: int | None) -> Update:
        """Decode and take `data` (see `TableSession.receive`)."""
        update = Update()
        session = self._session
        if session.phase is Phase.HALTED:
            return update
        try:
            envelope = Envelope.decode(data, session.transcript.registry)
        except InvalidMessage:
            return update
        self.via = via
        try:
            self.take(envelope, update)
        finally:
            self.via = None
        return update

    def admit(self, envelope: Envelope) -> list[Event]:
        """Append exactly `envelope` or raise InvalidMessage (see `TableSession.admit`)."""
        session = self._session
        if session.phase is Phase.HALTED:
            raise InvalidMessage("halted", phrase("session.why.table_stopped_earlier_message"))
        self._effect = None
        session.transcript.append(envelope, check=self._checker(own=False))
        effect, self._effect = self._effect, None
        events: list[Event] = effect() if effect is not None else []
        if session.blame is not None:
            blame = session.blame
            raise InvalidMessage(blame.code, blame.reason, seat=blame.seat, index=blame.index)
        return events

    def take(self, envelope: Envelope, update: Update, own: bool = False) -> None:
        """Accept `envelope` (and anything buffered behind it), then send what is ours to send."""
        accepted = self.accept(envelope, update, own)
        self.via = None  # messages kept for later were delivered by whoever sent them
        if not accepted:
            return
        if own:
            update.outgoing.append(envelope.encode())
        self.drain(update)
        self._session._send_automatic(update)

    def accept(self, envelope: Envelope, update: Update, own: bool = False) -> bool:
        """Append one message if it checks out; whether it was appended."""
        transcript = self._session.transcript
        self._effect = None
        try:
            transcript.append(envelope, check=self._checker(own))
        except ReplayedMessage:
            return False  # a duplicate delivery: harmless, already applied
        except EquivocationDetected as exc:
            evidence = exc.evidence
            self.halt(
                Blame(
                    exc.evidence.seat,
                    "signed two different messages for the same place in the transcript",
                    "equivocation",
                    (evidence.first.encode(), evidence.second.encode()),
                ),
                update,
            )
            return False
        except InvalidMessage as exc:
            if exc.code == "gone" or (exc.code == "wrong-head" and self._from_gone(envelope)):
                return False  # the seat left (§16): what it still sends is nobody's business
            if exc.code == "wrong-head" and envelope.head not in self._known_heads():
                self._buffer(envelope)
                return False
            if exc.code == "wrong-head" and envelope.type == GOODBYE:
                return False  # a goodbye on a head the table has left behind: the seat is then
                # found stalled when the table waits for it (§16)
            if exc.seat is None:
                impostor = self._impersonator(envelope) if exc.code == "bad-signature" else None
                if impostor is None:
                    return False  # not authenticated: nobody provably sent it
                reason = phrase("session.why.signed_as_another_seat", seat=envelope.seat + 1)
                self.halt(Blame(impostor, reason, "impersonation", (envelope.encode(),)), update)
                return False
            self.halt(Blame(exc.seat, exc.reason, exc.code, (envelope.encode(),)), update)
            return False
        effect = self._effect
        self._effect = None
        if effect is not None:
            update.events.extend(effect())
        return True

    def drain(self, update: Update) -> None:
        """Accept the kept messages that now follow the transcript's head."""
        session = self._session
        while not session.halted and session.transcript.head in self.future:
            waiting = self.future.pop(session.transcript.head)
            accepted = False
            for envelope in waiting:
                if session.halted:
                    return
                if self.accept(envelope, update):
                    accepted = True
                    break
            if not accepted:
                return

    def halt(self, blame: Blame, update: Update) -> None:
        """Stop the table naming `blame`'s seat (the first blame stands) and forward its
        evidence."""
        session = self._session
        if session.blame is not None:
            return  # the first blame stands
        if self.via is not None and self.via not in (blame.seat, session.seat) and blame.evidence:
            blame = dataclasses.replace(blame, via=self.via)
        session.blame = blame
        session._move(Trigger.BLAMED)
        self.future.clear()
        update.events.append(CheatingDetected(blame))
        # Blame reaches everyone: the evidence is signed by the blamed seat and every peer can
        # re-check it on its own transcript, so a cheat sent to this peer alone stops them all.
        update.forwarded.extend(blame.evidence)

    def _impersonator(self, envelope: Envelope) -> int | None:
        """The seated player whose key did sign a message that claims another seat."""
        for seat, key in enumerate(self._session.transcript.keys):
            if seat != envelope.seat and key.verify(envelope.signature, envelope.signed_bytes()):
                return seat
        return None

    def _from_gone(self, envelope: Envelope) -> bool:
        """v4: a message of the seat a goodbye named, on a head before it (§16)."""
        session = self._session
        hand = session.hand
        return hand is not None and hand.gone == envelope.seat and session.phase is Phase.LEAVING

    def _known_heads(self) -> set[bytes]:
        transcript = self._session.transcript
        return {e.envelope.head for e in transcript.entries} | {transcript.head}

    def _buffer(self, envelope: Envelope) -> None:
        """Keep an authenticated early message; each seat has its own quota, so a peer that
        floods the buffer with messages on heads that never come crowds out only itself."""
        held = sum(
            1 for waiting in self.future.values() for e in waiting if e.seat == envelope.seat
        )
        if held < MAX_BUFFERED_PER_SEAT:
            self.future.setdefault(envelope.head, []).append(envelope)

    def _checker(self, own: bool) -> Callable[[Transcript, Envelope], None]:
        def check(transcript: Transcript, envelope: Envelope) -> None:
            self._effect = validate(self._session, envelope, own)

        return check
