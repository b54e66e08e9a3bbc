"""Terelius–Wikström proofs on small decks: complete, and sound against each kind of cheat."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2p_dominoes.mental.context import HandContext, ProofBinding, Step, StepKind
from p2p_dominoes.mental.elgamal import Ciphertext, Deck
from p2p_dominoes.mental.errors import EncodingError, ProofError
from p2p_dominoes.mental.group import ORDER_2, G, Point, add
from p2p_dominoes.mental.randomness import (
    DeterministicRandom,
    random_permutation,
    random_scalar,
)
from p2p_dominoes.mental.shuffle_proof import ShuffleProof, shuffle_proof_size
from p2p_dominoes.mental.tiles import tile_point

B = ProofBinding(HandContext(b"t", 1, 2), Step(StepKind.SHUFFLE, 0), 0)
PK = Point.base_mul(77)


def _shuffle(size: int, seed: bytes) -> tuple[Deck, Deck, list[int], list[int]]:
    rng = DeterministicRandom(seed)
    inputs = Deck([Ciphertext(G, tile_point(t) + PK) for t in range(size)])
    perm = random_permutation(size, rng)
    rand = [random_scalar(rng) for _ in range(size)]
    outputs = Deck([inputs[perm[i]].reencrypt(rand[perm[i]], PK) for i in range(size)])
    return inputs, outputs, perm, rand


@pytest.mark.parametrize("size", [1, 2, 5])
def test_complete_and_round_trip(size: int) -> None:
    inputs, outputs, perm, rand = _shuffle(size, b"ok")
    proof = ShuffleProof.prove(B, PK, inputs, outputs, perm, rand)
    proof.verify(B, PK, inputs, outputs)
    data = proof.to_bytes()
    assert len(data) == shuffle_proof_size(size)
    assert ShuffleProof.from_bytes(data, size) == proof


def test_chained_shuffles_verify() -> None:
    inputs, outputs, perm, rand = _shuffle(4, b"a")
    proof = ShuffleProof.prove(B, PK, inputs, outputs, perm, rand)
    rng = DeterministicRandom(b"b")
    perm2 = random_permutation(4, rng)
    rand2 = [random_scalar(rng) for _ in range(4)]
    outputs2 = Deck([outputs[perm2[i]].reencrypt(rand2[perm2[i]], PK) for i in range(4)])
    proof2 = ShuffleProof.prove(B, PK, outputs, outputs2, perm2, rand2)
    proof.verify(B, PK, inputs, outputs)
    proof2.verify(B, PK, outputs, outputs2)
    with pytest.raises(ProofError):
        proof2.verify(B, PK, inputs, outputs2)


def test_batch_verification() -> None:
    a_in, a_out, a_perm, a_rand = _shuffle(4, b"x")
    proof_a = ShuffleProof.prove(B, PK, a_in, a_out, a_perm, a_rand)
    rng = DeterministicRandom(b"y")
    perm = random_permutation(4, rng)
    rand = [random_scalar(rng) for _ in range(4)]
    b_out = Deck([a_out[perm[i]].reencrypt(rand[perm[i]], PK) for i in range(4)])
    proof_b = ShuffleProof.prove(B, PK, a_out, b_out, perm, rand)
    ShuffleProof.verify_batch([(proof_a, B, PK, a_in, a_out), (proof_b, B, PK, a_out, b_out)])
    ShuffleProof.verify_batch([])
    forged = dataclasses.replace(proof_b, t41=proof_a.t41)  # t41 is hashed into c
    with pytest.raises(ProofError):
        ShuffleProof.verify_batch([(proof_a, B, PK, a_in, a_out), (forged, B, PK, a_out, b_out)])
    swapped = Deck([b_out[1], b_out[0], *b_out.cards[2:]])
    with pytest.raises(ProofError):
        ShuffleProof.verify_batch([(proof_a, B, PK, a_in, a_out), (proof_b, B, PK, a_out, swapped)])


def test_cheats_rejected() -> None:
    inputs, outputs, perm, rand = _shuffle(5, b"cheat")
    proof = ShuffleProof.prove(B, PK, inputs, outputs, perm, rand)
    cards = list(outputs.cards)
    swapped = Deck([cards[1], cards[0], *cards[2:]])
    rerandomised = Deck([cards[0].reencrypt(5, PK), *cards[1:]])
    duplicated = Deck([cards[1], *cards[1:]])
    for deck in (swapped, rerandomised, duplicated):
        with pytest.raises(ProofError):
            proof.verify(B, PK, inputs, deck)
    with pytest.raises(ProofError):  # dropping a card
        proof.verify(B, PK, inputs, Deck(cards[:-1]))
    with pytest.raises(ProofError):  # another joint key
        proof.verify(B, Point.base_mul(78), inputs, outputs)


def test_a_proof_for_a_non_permutation_fails() -> None:
    """An honest-looking prover that duplicates a tile cannot produce a valid proof."""
    inputs, _, perm, rand = _shuffle(4, b"dup")
    bad_perm = [perm[0], perm[0], perm[2], perm[3]]
    outputs = Deck([inputs[bad_perm[i]].reencrypt(rand[i], PK) for i in range(4)])
    proof = ShuffleProof.prove(B, PK, inputs, outputs, bad_perm, rand)
    with pytest.raises(ProofError):
        proof.verify(B, PK, inputs, outputs)


def test_torsion_in_a_proof_point_is_rejected_on_decode() -> None:
    inputs, outputs, perm, rand = _shuffle(3, b"t")
    data = ShuffleProof.prove(B, PK, inputs, outputs, perm, rand).to_bytes()
    torsion = ORDER_2  # refused only by a libsodium with the CVE-2025-69277 fix
    for offset in (0, 32 * 3):  # a permutation commitment, a chain element
        tagged = data[:offset] + add(data[offset : offset + 32], torsion) + data[offset + 32 :]
        with pytest.raises(EncodingError):
            ShuffleProof.from_bytes(tagged, 3)


@settings(max_examples=15, deadline=None)
@given(st.data())
def test_any_flipped_byte_of_a_small_proof_is_rejected(data: st.DataObject) -> None:
    inputs, outputs, perm, rand = _shuffle(3, b"flip")
    proof = ShuffleProof.prove(B, PK, inputs, outputs, perm, rand, DeterministicRandom(b"p"))
    raw = proof.to_bytes()
    index = data.draw(st.integers(0, len(raw) - 1))
    bit = data.draw(st.integers(0, 7))
    flipped = raw[:index] + bytes([raw[index] ^ (1 << bit)]) + raw[index + 1 :]
    with pytest.raises((EncodingError, ProofError)):
        ShuffleProof.from_bytes(flipped, 3).verify(B, PK, inputs, outputs)
