"""The v4 leaving messages at the boundary (PROTOCOL.md §16): `goodbye`, `continue` and
`continue_sign` decode only when their bodies fit the schema, and read as typed values."""

from __future__ import annotations

import pytest

from p2p_dominoes.session import Envelope, Identity, InvalidMessage, default_registry
from p2p_dominoes.session.leave_messages import (
    CONTINUE,
    CONTINUE_SIGN,
    GOODBYE,
    Continuation,
    Goodbye,
    NewSeat,
)

REGISTRY = default_registry()
TABLE_ID = bytes(range(16))
HEAD = bytes([0x11]) * 32
ANN, BOB, CAT, DAN = (Identity.generate() for _ in range(4))


def _signed(mtype: object, body: tuple[object, ...], seat: int = 0) -> Envelope:
    return Envelope.sign(
        ANN,
        table_id=TABLE_ID,
        seat=seat,
        head=HEAD,
        mtype=mtype,
        body=body,  # type: ignore[arg-type]
    )


def test_the_three_types_are_registered_with_their_codes() -> None:
    assert [REGISTRY.by_code(c) for c in (30, 31, 32)] == [GOODBYE, CONTINUE, CONTINUE_SIGN]


def test_a_goodbye_reads_as_the_seat_its_reason_and_its_signer() -> None:
    envelope = _signed(GOODBYE, (2, 1, "stalled"), seat=0)
    decoded = Envelope.decode(envelope.encode(), REGISTRY)
    assert Goodbye.of(decoded) == Goodbye(hand=2, seat=1, reason="stalled", by=0)


def test_a_goodbye_with_another_reason_is_refused() -> None:
    envelope = _signed(GOODBYE, (2, 1, "bored"))
    with pytest.raises(InvalidMessage, match="not one of") as caught:
        Goodbye.of(envelope)
    assert caught.value.code == "bad-body"


@pytest.mark.parametrize(
    "body",
    [
        (2, 4, "left"),  # no fifth seat
        (0, 1, "left"),  # no hand 0
        (2, 1, ""),  # an empty reason
        (2, 1, "left", None),  # a field too many
    ],
)
def test_a_goodbye_off_its_schema_never_decodes(body: tuple[object, ...]) -> None:
    with pytest.raises(InvalidMessage) as caught:
        _signed(GOODBYE, body)
    assert caught.value.code == "bad-body"


def test_a_continuation_round_trips_through_its_typed_form() -> None:
    proposal = Continuation(
        hand=2,
        left=2,
        seats=(
            NewSeat("ann", ANN.public, None),
            NewSeat("bob", BOB.public, None),
            NewSeat("dan", DAN.public, CAT.public.raw),
        ),
        scores=(10, 0, -3),
        next_hand=3,
    )
    envelope = Envelope.decode(_signed(CONTINUE, proposal.to_body()).encode(), REGISTRY)
    assert Continuation.of(envelope) == proposal
    assert proposal.newcomer.replaces == CAT.public.raw


def test_a_continuation_whose_new_key_is_not_a_key_never_decodes() -> None:
    not_a_point = bytes([0xFF]) * 32
    body = (2, 1, (("ann", ANN.public.raw, None), ("x", not_a_point, BOB.public.raw)), (0, 0), 3)
    with pytest.raises(InvalidMessage, match="Ed25519") as caught:
        _signed(CONTINUE, body)
    assert caught.value.code == "bad-body"


def test_a_continue_sign_names_a_32_byte_hash() -> None:
    _signed(CONTINUE_SIGN, (2, bytes(32)))
    with pytest.raises(InvalidMessage) as caught:
        _signed(CONTINUE_SIGN, (2, bytes(31)))
    assert caught.value.code == "bad-body"
