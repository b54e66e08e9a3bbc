"""Key setup: commit then reveal, Schnorr proof bound to seat and hand, joint key and lottery."""

import dataclasses

import pytest

from p2p_dominoes.mental.context import HandContext, ProofBinding, Step, StepKind
from p2p_dominoes.mental.errors import InvalidMessageError
from p2p_dominoes.mental.group import Point, sum_points
from p2p_dominoes.mental.keys import (
    KeyCommit,
    KeyReveal,
    check_key_reveal,
    combine_keys,
    new_hand_keys,
)
from p2p_dominoes.mental.randomness import DeterministicRandom
from p2p_dominoes.mental.schnorr import SchnorrProof

CTX = HandContext(b"table", 9, 3)


def _keys(ctx: HandContext = CTX):  # type: ignore[no-untyped-def]
    return [new_hand_keys(ctx, s, DeterministicRandom(b"k" + bytes([s]))) for s in range(ctx.seats)]


def test_honest_setup() -> None:
    keys = _keys()
    joint = combine_keys(CTX, [k.commit for k in keys], [k.reveal for k in keys])
    assert joint.key.raw == sum_points(k.reveal.public_key.raw for k in keys)
    assert joint.seat_keys[1] == keys[1].reveal.public_key
    assert len(joint.lottery) == 32
    assert Point.base_mul(keys[2].secret.value) == joint.seat_keys[2]
    assert "secret" not in repr(keys[0]) or "Scalar(" not in repr(keys[0])


def test_lottery_depends_on_every_seat() -> None:
    keys = _keys()
    joint = combine_keys(CTX, [k.commit for k in keys], [k.reveal for k in keys])
    other = new_hand_keys(CTX, 1, DeterministicRandom(b"other"))
    keys2 = [keys[0], other, keys[2]]
    joint2 = combine_keys(CTX, [k.commit for k in keys2], [k.reveal for k in keys2])
    assert joint.lottery != joint2.lottery


def _blamed(seat: int, commits: list[KeyCommit], reveals: list[KeyReveal]) -> str:
    with pytest.raises(InvalidMessageError) as info:
        combine_keys(CTX, commits, reveals)
    assert info.value.seat == seat
    return info.value.reason


def test_reveal_not_matching_commitment_blamed() -> None:
    keys = _keys()
    commits, reveals = [k.commit for k in keys], [k.reveal for k in keys]
    reveals[1] = dataclasses.replace(reveals[1], lottery=bytes(32))
    assert "commitment" in _blamed(1, commits, reveals)
    # A share changed after seeing the others' (the attack commit-then-reveal stops).
    reveals = [k.reveal for k in keys]
    late = new_hand_keys(CTX, 2, DeterministicRandom(b"late"))
    reveals[2] = late.reveal
    assert "commitment" in _blamed(2, commits, reveals)


def test_key_share_without_valid_proof_blamed() -> None:
    keys = _keys()
    commits, reveals = [k.commit for k in keys], [k.reveal for k in keys]
    # Proof replayed from another seat (same key material copied): not bound to this seat.
    stolen = keys[0].reveal
    commit = KeyCommit(2, keys[2].commit.commitment)
    from p2p_dominoes.mental.keys import key_commitment

    commits[2] = KeyCommit(2, key_commitment(CTX, 2, stolen.public_key, stolen.lottery))
    reveals[2] = KeyReveal(2, stolen.public_key, stolen.lottery, stolen.proof)
    assert "proof" in _blamed(2, commits, reveals)
    # A proof made for another hand.
    other_ctx = HandContext(b"table", 10, 3)
    x = keys[1].secret.value
    proof = SchnorrProof.prove(
        ProofBinding(other_ctx, Step(StepKind.KEY_REVEAL), 1), x, keys[1].reveal.public_key
    )
    commits, reveals = [k.commit for k in keys], [k.reveal for k in keys]
    reveals[1] = dataclasses.replace(reveals[1], proof=proof)
    assert "proof" in _blamed(1, commits, reveals)
    assert commit.seat == 2


def test_key_reveal_without_proof_is_malformed() -> None:
    data = _keys()[1].reveal.to_bytes()
    with pytest.raises(InvalidMessageError) as info:
        KeyReveal.from_bytes(data[:-64], 1)
    assert info.value.seat == 1


def test_missing_messages_blamed() -> None:
    keys = _keys()
    commits, reveals = [k.commit for k in keys], [k.reveal for k in keys]
    assert "commitment" in _blamed(2, commits[:2], reveals)
    assert "reveal" in _blamed(1, commits, [reveals[0], reveals[2], reveals[2]])


def test_sender_must_match_claimed_seat() -> None:
    data = _keys()[0].commit.to_bytes()
    assert KeyCommit.from_bytes(data, 0).seat == 0
    with pytest.raises(InvalidMessageError) as info:
        KeyCommit.from_bytes(data, 1)
    assert info.value.seat == 1 and "claims seat 1 but was sent by seat 2" in info.value.reason


def test_check_key_reveal_direct() -> None:
    keys = _keys()
    check_key_reveal(CTX, keys[0].commit, keys[0].reveal)
    with pytest.raises(InvalidMessageError):
        check_key_reveal(CTX, keys[0].commit, keys[1].reveal)


def test_hand_keys_round_trip_through_bytes() -> None:
    from p2p_dominoes.mental.keys import HandKeys

    keys = _keys()[1]
    data = keys.to_bytes()
    assert len(data) == 197
    assert HandKeys.from_bytes(data) == keys
    assert HandKeys.from_bytes(data, CTX) == keys


def test_hand_keys_from_bytes_refuses_inconsistent_or_foreign_keys() -> None:
    from p2p_dominoes.mental.errors import EncodingError
    from p2p_dominoes.mental.keys import HandKeys

    keys = _keys()
    data = keys[1].to_bytes()
    with pytest.raises(EncodingError):
        HandKeys.from_bytes(data[:-1])
    with pytest.raises(EncodingError):
        HandKeys.from_bytes(data + b"\x00")
    secret_swapped = data[:1] + keys[2].secret.to_bytes() + data[33:]
    with pytest.raises(EncodingError, match="does not match"):
        HandKeys.from_bytes(secret_swapped)
    with pytest.raises(EncodingError, match="not this hand"):
        HandKeys.from_bytes(data, HandContext(b"table", 10, 3))
    with pytest.raises(EncodingError):
        HandKeys.from_bytes(b"\x02" + data[1:])  # claims another seat than its messages
