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
from p2p_dominoes.words import phrase

if TYPE_CHECKING:
    from p2p_dominoes.session.table import TableSession


def goodbye(session: TableSession, envelope: Envelope) -> Effect:
    """A goodbye, in any phase of a hand, before whose turn it is: the seat it names is gone."""
    if session.version <= THIRD_VERSION:
        raise bad(
            "out-of-turn",
            phrase("session.why.goodbye_version_4_message_table", version=session.version),
        )
    hand = session.hand
    if session.phase not in HAND_PHASES or hand is None:
        raise bad(
            "out-of-turn", phrase("session.why.goodbye_while_table", phase=session.phase.value)
        )
    said = Goodbye.of(envelope)
    if said.hand != hand.number:
        raise bad(
            "wrong-hand",
            phrase("session.why.goodbye_names_hand_not", hand=said.hand, number=hand.number),
        )
    if said.seat >= session.players:
        raise bad("bad-goodbye", phrase("session.why.seat_not_table", seat=said.seat + 1))
    if said.reason == LEFT and said.by != said.seat:
        raise bad("bad-goodbye", phrase("session.why.seat_says_left_only_itself"))
    waited = GOODBYE.name
    if said.reason == STALLED:
        expected = session.expected
        if said.by == said.seat or expected is None or expected[0] != said.seat:
            raise bad(
                "bad-goodbye", phrase("session.why.table_does_not_wait_seat", seat=said.seat + 1)
            )
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
        raise bad(
            "bad-continue",
            phrase("session.why.names_seat_but_seat_left", left=proposal.left + 1, gone=gone + 1),
        )
    if len(proposal.seats) != session.players:
        raise bad(
            "bad-continue",
            phrase(
                "session.why.seats_table_has", count=len(proposal.seats), players=session.players
            ),
        )
    keys = session.transcript.keys
    for seat, new in enumerate(proposal.seats):
        if seat == gone:
            continue
        if (new.name, new.key, new.replaces) != (session.names[seat], keys[seat], None):
            raise bad(
                "bad-continue", phrase("session.why.changes_seat_which_did_not", seat=seat + 1)
            )
    newcomer = proposal.newcomer
    if hand.returning is not None and (newcomer.name, newcomer.key) != hand.returning:
        raise bad(
            "bad-continue", phrase("session.why.seat_goes_another_than_player", gone=gone + 1)
        )
    if newcomer.replaces != keys[gone].raw:
        raise bad("bad-continue", phrase("session.why.seat_s_new_holder_does", gone=gone + 1))
    if session.transcript.held_before(newcomer.key):
        raise bad("bad-continue", phrase("session.why.new_holder_s_key_held"))
    if proposal.scores != session.scores:
        raise bad(
            "bad-continue",
            phrase(
                "session.why.carries_scores_not", scores=proposal.scores, scores2=session.scores
            ),
        )
    if proposal.next_hand != session._hands_begun + 1:
        raise bad(
            "bad-continue",
            phrase(
                "session.why.next_hand_not",
                next_hand=proposal.next_hand,
                hands_begun=session._hands_begun + 1,
            ),
        )

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
            "out-of-turn",
            phrase("session.why.come_back_version_4_message", version=session.version),
        )
    if session.phase is not Phase.COMMIT or hand is None:
        raise bad(
            "out-of-turn", phrase("session.why.come_back_while_table", phase=session.phase.value)
        )
    said = ComeBack.of(envelope)
    if said.hand != hand.number:
        raise bad(
            "wrong-hand",
            phrase("session.why.come_back_names_hand_not", hand=said.hand, number=hand.number),
        )
    if said.seat >= session.players:
        raise bad("bad-come-back", phrase("session.why.seat_not_table", seat=said.seat + 1))
    proposer = next(s for s in range(session.players) if s != said.seat)
    if said.by != proposer:
        raise bad(
            "bad-come-back",
            phrase("session.why.seat_says_who_comes_back", proposer=proposer + 1, by=said.by + 1),
        )
    if len(hand.commits) > proposer:
        raise bad("bad-come-back", phrase("session.why.only_start_hand_before_proposer"))
    transcript = session.transcript
    old = transcript.previous_key(said.seat)
    if old is None:
        raise bad(
            "bad-come-back", phrase("session.why.seat_never_changed_hands", seat=said.seat + 1)
        )
    request = come_back_request(transcript.table_id, said.seat, said.name, said.key)
    if not old.verify(said.asked, request):
        raise bad(
            "bad-come-back", phrase("session.why.request_not_signed_seat_s", seat=said.seat + 1)
        )
    if transcript.held_before(said.key):
        raise bad("bad-come-back", phrase("session.why.returning_player_s_key_held"))

    def effect() -> list[Event]:
        hand.gone, hand.returning = said.seat, (said.name, said.key)
        session._move(Trigger.COMES_BACK)
        return []

    return effect


def continue_sign(session: TableSession, hand: HandInPlay, envelope: Envelope, own: bool) -> Effect:
    """A seat agrees to the continuation; with the last one the next hand begins."""
    if envelope.field("continuation") != hand.continuation:
        raise bad("bad-continue", phrase("session.why.continue_sign_names_another_continuation"))

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
