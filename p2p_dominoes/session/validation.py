"""The one place a message is checked: is it the expected seat's, of a type its phase takes
(`phases`), for the hand in play; then its type's validator (`VALIDATORS`) checks the rest.

Errors of the lower layers (a bad proof, an illegal action, a bad record) become the
InvalidMessage that names the message's seat.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Final

from p2p_dominoes.engine import IllegalAction, InvalidRecord
from p2p_dominoes.mental import InvalidMessageError
from p2p_dominoes.mental.errors import message_of
from p2p_dominoes.session import claims, deal, leaving, legacy, reveals, turns
from p2p_dominoes.session import hand_messages as msg
from p2p_dominoes.session.checks import Effect, Validator, bad
from p2p_dominoes.session.envelope import Envelope
from p2p_dominoes.session.genesis_signing import check_setup_message
from p2p_dominoes.session.leave_messages import COME_BACK, CONTINUE, CONTINUE_SIGN, GOODBYE
from p2p_dominoes.session.phases import Phase
from p2p_dominoes.words import phrase

if TYPE_CHECKING:
    from p2p_dominoes.session.table import TableSession

VALIDATORS: Final[Mapping[int, Validator]] = {
    msg.KEY_COMMIT.code: deal.key_commit,
    msg.KEY_REVEAL.code: deal.key_reveal,
    msg.SHUFFLE.code: deal.shuffle,
    msg.DEAL.code: deal.deal,
    msg.LEAD_CLAIM.code: legacy.lead_claim,
    msg.PLAY.code: legacy.play,
    msg.DRAW.code: turns.draw,
    msg.DRAW_SHARE.code: turns.draw_share,
    msg.PASS.code: turns.pass_turn,
    msg.HAND_REVEAL.code: reveals.hand_reveal,
    msg.SECRET_REVEAL.code: reveals.secret_reveal,
    msg.SKIP.code: turns.skip,
    msg.PLAY3.code: turns.play3,
    msg.LEAD_CLAIM3.code: claims.lead_claim3,
    CONTINUE.code: leaving.continue_,
    CONTINUE_SIGN.code: leaving.continue_sign,
}
"""Each hand message type's validator, by type code (which types a version takes at which
phase is `phases.phase_types`)."""


def validate(session: TableSession, envelope: Envelope, own: bool) -> Effect:
    """Check `envelope` as the table's next message; the state change it makes once it has
    joined the transcript, or InvalidMessage."""
    expected = session.expected
    kind = envelope.type
    hand = session.hand
    if hand is not None and hand.gone == envelope.seat and session.phase is Phase.LEAVING:
        # v4: still signed by the gone seat's old key (sent before it left, or a stalled peer
        # that woke up): dropped, never blamed (§16); after the continue that key signs nothing.
        raise bad(
            "gone",
            phrase("session.why.from_seat_which_gone", kind=kind.name, seat=envelope.seat + 1),
        )
    if kind == GOODBYE:  # any seat, in any phase of a hand: before whose turn it is
        return _checked(leaving.goodbye, session, envelope)
    if kind == COME_BACK:  # §16.1: at a hand's start, from the proposer, before whose turn
        return _checked(leaving.come_back, session, envelope)
    if expected is None:
        if session.phase is Phase.SETUP:
            check_setup_message(session.transcript, envelope)
        raise bad(
            "out-of-turn", phrase("session.why.table_expects_no_more_messages", kind=kind.name)
        )
    seat, types = expected
    if kind not in types or envelope.seat != seat:
        names = [t.name for t in types]
        wanted: str = names[0]
        for name in names[1:]:  # "A or B or C", in the reader's language
            wanted = phrase("session.why.either", first=wanted, second=name)
        raise bad(
            "out-of-turn",
            phrase(
                "session.why.from_seat_expected_from_seat",
                kind=kind.name,
                seat=envelope.seat + 1,
                wanted=wanted,
                seat2=seat + 1,
            ),
        )
    if session.phase is Phase.SETUP:
        check_setup_message(session.transcript, envelope)
        return session._after_genesis_sign
    assert hand is not None
    if envelope.field("hand") != hand.number:
        raise bad(
            "wrong-hand",
            phrase(
                "session.why.names_hand_not",
                kind=kind.name,
                value=repr(envelope.field("hand")),
                number=hand.number,
            ),
        )
    return _checked(lambda s, e: VALIDATORS[kind.code](s, hand, e, own), session, envelope)


def _checked(
    check: Callable[[TableSession, Envelope], Effect], session: TableSession, envelope: Envelope
) -> Effect:
    """Run a validator; the lower layers' errors become the InvalidMessage naming the seat."""
    try:
        return check(session, envelope)
    except InvalidMessageError as exc:
        raise bad(
            "bad-proof", phrase("session.why.proof_step", step=exc.step, reason=exc.reason)
        ) from None
    except IllegalAction as exc:
        raise bad(
            "illegal-action", phrase("session.why.cannot", action=exc.action, rule=exc.rule)
        ) from None
    except InvalidRecord as exc:
        raise bad("illegal-action", message_of(exc)) from None
