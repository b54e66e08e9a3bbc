"""Chaum–Pedersen proofs: a share proves the same log as the key, for one base and binding."""

import pytest

from p2p_dominoes.mental.chaum_pedersen import ChaumPedersenProof
from p2p_dominoes.mental.context import HandContext, ProofBinding, Step, StepKind
from p2p_dominoes.mental.errors import ProofError
from p2p_dominoes.mental.group import Point

B = ProofBinding(HandContext(b"t", 1, 2), Step(StepKind.SHARE, 4), 1)


def test_prove_verify_and_rejections() -> None:
    x = 987654321
    pk, base = Point.base_mul(x), Point.base_mul(31337)
    share = base.mul(x)
    proof = ChaumPedersenProof.prove(B, x, pk, base, share)
    proof.verify(B, pk, base, share)
    assert ChaumPedersenProof.from_bytes(proof.to_bytes()) == proof
    with pytest.raises(ProofError):  # wrong share
        proof.verify(B, pk, base, base.mul(x + 1))
    with pytest.raises(ProofError):  # another position's base
        proof.verify(B, pk, Point.base_mul(31338), share)
    with pytest.raises(ProofError):  # another step
        proof.verify(ProofBinding(B.ctx, Step(StepKind.SHARE, 5), 1), pk, base, share)
    bad = ChaumPedersenProof.prove(B, x + 1, pk, base, base.mul(x + 1))
    with pytest.raises(ProofError):  # a proof with the wrong secret
        bad.verify(B, pk, base, base.mul(x + 1))
