"""v4 (PROTOCOL.md §16): a table that goes on when a seat leaves. The validators of `goodbye`,
`continue` and `continue_sign`, and the continuation this peer proposes.

A goodbye makes the hand in play void: nothing of it is revealed, it scores nothing, and the
record keeps its messages with the goodbye that ended it. Every remaining seat then checks the
continuation against its own table: the seats that stay keep their keys and names, the leaver's
seat goes to a key that never held a seat here (`replaces` names the old one), the scores are
its own match's, and the next hand number follows the void one. When every seat but the
proposer has signed it, the next hand begins with fresh hand keys.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from p2p_dominoes.session.checks import Effect, bad
from p2p_dominoes.session.envelope import THIRD_VERSION, Envelope
from p2p_dominoes.session.events import Event, HandAbandoned, SeatReplaced
from p2p_dominoes.session.hand_in_play import HandInPlay
from p2p_dominoes.session.identity import PublicIdentity
from p2p_dominoes.session.leave_messages import (
    GOODBYE,
    LEFT,
    STALLED,
    ComeBack,
    Continuation,
    Goodbye,
    NewSeat,
    come_back_request,
)
from p2p_dominoes.session.phases import HAND_PHASES, Phase, Trigger

if TYPE_CHECKING:
    from p2p_dominoes.session.table import TableSession


def goodbye(session: TableSession, envelope: Envelope) -> Effect:
    """A goodbye, in any phase of a hand, before whose turn it is: the seat it names is gone."""
    if session.version <= THIRD_VERSION:
        raise bad("out-of-turn", f"goodbye is a version 4 message, this table is {session.version}")
    hand = session.hand
    if session.phase not in HAND_PHASES or hand is None:
        raise bad("out-of-turn", f"goodbye while the table is at {session.phase.value}")
    said = Goodbye.of(envelope)
    if said.hand != hand.number:
        raise bad("wrong-hand", f"goodbye names hand {said.hand}, not {hand.number}")
    if said.seat >= session.players:
        raise bad("bad-goodbye", f"seat {said.seat + 1} is not at this table")
    if said.reason == LEFT and said.by != said.seat:
        raise bad("bad-goodbye", "a seat says it left only for itself")
    waited = GOODBYE.name
    if said.reason == STALLED:
        expected = session.expected
        if said.by == said.seat or expected is None or expected[0] != said.seat:
            raise bad("bad-goodbye", f"the table does not wait for seat {said.seat + 1}")
        waited = expected[1][0].name

    def effect() -> list[Event]:
        hand.gone = said.seat
        session.match.void_hand()
        session._move(Trigger.LEFT)
        events: list[Event] = [HandAbandoned(hand.number, said.seat, said.reason, said.by)]
        if session.seat is not None and not session.goes_on_after_goodbye:
            events += session._stop_for_goodbye(said.seat, waited)
        return events

    return effect


def continue_(session: TableSession, hand: HandInPlay, envelope: Envelope, own: bool) -> Effect:
    """The continuation: every field must equal what this peer's own table says."""
    proposal = Continuation.of(envelope)
    gone = hand.gone
    assert gone is not None
    if proposal.left != gone:
        raise bad("bad-continue", f"names seat {proposal.left + 1}, but seat {gone + 1} left")
    if len(proposal.seats) != session.players:
        raise bad("bad-continue", f"{len(proposal.seats)} seats, the table has {session.players}")
    keys = session.transcript.keys
    for seat, new in enumerate(proposal.seats):
        if seat == gone:
            continue
        if (new.name, new.key, new.replaces) != (session.names[seat], keys[seat], None):
            raise bad("bad-continue", f"changes seat {seat + 1}, which did not leave")
    newcomer = proposal.newcomer
    if hand.returning is not None and (newcomer.name, newcomer.key) != hand.returning:
        raise bad("bad-continue", f"seat {gone + 1} goes to another than the player who asked")
    if newcomer.replaces != keys[gone].raw:
        raise bad("bad-continue", f"seat {gone + 1}'s new holder does not replace its key")
    if session.transcript.held_before(newcomer.key):
        raise bad("bad-continue", "the new holder's key held a seat at this table before")
    if proposal.scores != session.scores:
        raise bad("bad-continue", f"carries the scores {proposal.scores}, not {session.scores}")
    if proposal.next_hand != session._hands_begun + 1:
        raise bad("bad-continue", f"next hand {proposal.next_hand}, not {session._hands_begun + 1}")

    def effect() -> list[Event]:
        hand.continuation = envelope.hash
        before = session.names[gone]
        session.names[gone] = newcomer.name
        if session.seat == gone:
            session._leave_seat()  # the seat has a new holder: this peer only follows now
        session._move(Trigger.PROPOSED)
        back = hand.returning is not None
        return [SeatReplaced(gone, before, newcomer.name, proposal.next_hand, back)]

    return effect


def come_back(session: TableSession, envelope: Envelope) -> Effect:
    """§16.1: at a hand's start, the lowest other seat says the seat's former holder asks it
    back; the hand is set aside (nothing of it was dealt) and the continuation must follow."""
    hand = session.hand
    if session.version <= THIRD_VERSION:
        raise bad(
            "out-of-turn", f"come_back is a version 4 message, this table is {session.version}"
        )
    if session.phase is not Phase.COMMIT or hand is None:
        raise bad("out-of-turn", f"come_back while the table is at {session.phase.value}")
    said = ComeBack.of(envelope)
    if said.hand != hand.number:
        raise bad("wrong-hand", f"come_back names hand {said.hand}, not {hand.number}")
    if said.seat >= session.players:
        raise bad("bad-come-back", f"seat {said.seat + 1} is not at this table")
    proposer = next(s for s in range(session.players) if s != said.seat)
    if said.by != proposer:
        raise bad("bad-come-back", f"seat {proposer + 1} says who comes back, not {said.by + 1}")
    if len(hand.commits) > proposer:
        raise bad("bad-come-back", "only at the start of a hand, before its proposer committed")
    transcript = session.transcript
    old = transcript.previous_key(said.seat)
    if old is None:
        raise bad("bad-come-back", f"seat {said.seat + 1} never changed hands")
    request = come_back_request(transcript.table_id, said.seat, said.name, said.key)
    if not old.verify(said.asked, request):
        raise bad("bad-come-back", f"the request is not signed by seat {said.seat + 1}'s old key")
    if transcript.held_before(said.key):
        raise bad("bad-come-back", "the returning player's key held a seat at this table before")

    def effect() -> list[Event]:
        hand.gone, hand.returning = said.seat, (said.name, said.key)
        session._move(Trigger.COMES_BACK)
        return []

    return effect


def continue_sign(session: TableSession, hand: HandInPlay, envelope: Envelope, own: bool) -> Effect:
    """A seat agrees to the continuation; with the last one the next hand begins."""
    if envelope.field("continuation") != hand.continuation:
        raise bad("bad-continue", "continue_sign names another continuation")

    def effect() -> list[Event]:
        hand.continue_signed += 1
        if hand.continue_signed < len(hand.continue_signers):
            return []
        return session._begin_hand()

    return effect


def proposal(session: TableSession, name: str, key: PublicIdentity) -> Continuation:
    """The continuation this peer proposes: seat `hand.gone` to `key` under `name`."""
    hand = session.hand
    assert hand is not None and hand.gone is not None
    if hand.returning is not None:
        name, key = hand.returning  # §16.1: the seat goes back to the player who asked
    keys = session.transcript.keys
    seats = tuple(
        NewSeat(name, key, keys[s].raw)
        if s == hand.gone
        else NewSeat(session.names[s], keys[s], None)
        for s in range(session.players)
    )
    return Continuation(hand.number, hand.gone, seats, session.scores, session._hands_begun + 1)
