"""Schnorr proofs of knowledge: complete, bound to their context, canonical encoding."""

import pytest

from p2p_dominoes.mental.context import HandContext, ProofBinding, Step, StepKind
from p2p_dominoes.mental.errors import EncodingError, ProofError
from p2p_dominoes.mental.group import L, Point, Scalar
from p2p_dominoes.mental.randomness import DeterministicRandom
from p2p_dominoes.mental.schnorr import SchnorrProof

CTX = HandContext(b"t", 1, 2)
B = ProofBinding(CTX, Step(StepKind.KEY_REVEAL), 0)


def test_prove_verify_and_bindings() -> None:
    x = 42
    pk = Point.base_mul(x)
    proof = SchnorrProof.prove(B, x, pk, DeterministicRandom(b"s"))
    proof.verify(B, pk)
    assert SchnorrProof.from_bytes(proof.to_bytes()) == proof
    for other in (
        ProofBinding(CTX, B.step, 1),
        ProofBinding(HandContext(b"u", 1, 2), B.step, 0),
        ProofBinding(HandContext(b"t", 2, 2), B.step, 0),
        ProofBinding(CTX, Step(StepKind.SHARE), 0),
    ):
        with pytest.raises(ProofError):
            proof.verify(other, pk)
    with pytest.raises(ProofError):
        proof.verify(B, Point.base_mul(43))
    with pytest.raises(ProofError):
        SchnorrProof(proof.challenge, Scalar(0)).verify(B, pk)


def test_non_canonical_response_rejected() -> None:
    x = 42
    proof = SchnorrProof.prove(B, x, Point.base_mul(x))
    data = proof.to_bytes()
    bad = data[:32] + (proof.response.value + L).to_bytes(32, "little")
    with pytest.raises(EncodingError):
        SchnorrProof.from_bytes(bad)
