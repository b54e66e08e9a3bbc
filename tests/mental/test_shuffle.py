"""Shuffles: honest chains for 2–4 seats, and every cheat rejected and blamed on its seat."""

from __future__ import annotations

import dataclasses

import pytest

from p2p_dominoes.mental.context import HandContext, ProofBinding, Step, StepKind
from p2p_dominoes.mental.elgamal import Deck
from p2p_dominoes.mental.errors import InvalidMessageError
from p2p_dominoes.mental.group import L, sub
from p2p_dominoes.mental.randomness import DeterministicRandom, random_permutation, random_scalar
from p2p_dominoes.mental.shuffle import ShuffleStep, check_shuffle, check_shuffles
from p2p_dominoes.mental.shuffle_proof import ShuffleProof
from p2p_dominoes.mental.tiles import TILE_COUNT, point_to_tile
from tests.mental.conftest import Hand, build_hand, tag


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_honest_chain_verifies_and_keeps_every_tile(seats: int) -> None:
    hand = build_hand(seats)
    final = check_shuffles(hand.ctx, hand.steps, hand.joint)
    assert final == hand.final
    x = sum(k.secret.value for k in hand.keys) % L
    tiles = [point_to_tile(sub(c.c2.raw, c.c1.mul(x).raw)) for c in final.cards]
    assert sorted(t for t in tiles if t is not None) == list(range(TILE_COUNT))


def _rejects(hand: Hand, step: ShuffleStep, seat: int) -> InvalidMessageError:
    with pytest.raises(InvalidMessageError) as info:
        check_shuffle(hand.ctx, step, hand.joint, hand.deck_before(step.seat))
    assert info.value.seat == seat
    return info.value


def test_output_tampering_rejected() -> None:
    hand = build_hand(3)
    step = hand.steps[1]
    cards = list(step.deck.cards)
    cheats = [
        [cards[1], cards[0], *cards[2:]],  # swap two outputs after proving
        [cards[0].reencrypt(12345, hand.joint.key), *cards[1:]],  # re-randomise one output
        [cards[0], cards[0], *cards[2:]],  # duplicate a tile
    ]
    for cards_ in cheats:
        _rejects(hand, dataclasses.replace(step, deck=Deck(cards_)), 1)
    dropped = dataclasses.replace(step, deck=Deck(cards[:-1]))
    assert "cards" in _rejects(hand, dropped, 1).reason


def test_dropped_card_or_torsion_rejected_on_decode() -> None:
    hand = build_hand(2)
    data = hand.steps[1].to_bytes()
    with pytest.raises(InvalidMessageError) as info:
        ShuffleStep.from_bytes(data[:2] + data[2 + 64 :], 1)  # first card dropped
    assert info.value.seat == 1
    for offset in (2, 2 + 32, 2 + 28 * 64, 2 + 28 * 64 + 28 * 32):  # c1, c2, pc_0, ĉ_0
        tagged = data[:offset] + tag(data[offset : offset + 32]) + data[offset + 32 :]
        with pytest.raises(InvalidMessageError) as info:
            ShuffleStep.from_bytes(tagged, 1)
        assert info.value.seat == 1 and "invalid point" in info.value.reason


def test_non_canonical_scalar_rejected() -> None:
    hand = build_hand(2)
    data = hand.steps[0].to_bytes()
    offset = len(data) - 32  # the last response s'
    value = int.from_bytes(data[offset:], "little") + L
    if value < 2**256:
        bad = data[:offset] + value.to_bytes(32, "little")
        with pytest.raises(InvalidMessageError) as info:
            ShuffleStep.from_bytes(bad, 0)
        assert "non-canonical" in info.value.reason


def _reproved(hand: Hand, seat: int, binding: ProofBinding) -> ShuffleStep:
    """Seat `seat`'s real shuffle, with a proof made under another binding."""
    rng = DeterministicRandom(b"replay")
    deck = hand.deck_before(seat)
    perm = random_permutation(28, rng)
    rand = [random_scalar(rng) for _ in range(28)]
    out = Deck([deck[perm[i]].reencrypt(rand[perm[i]], hand.joint.key) for i in range(28)])
    proof = ShuffleProof.prove(binding, hand.joint.key, deck, out, perm, rand, rng)
    return ShuffleStep(seat, out, proof)


def test_proof_for_another_table_hand_step_or_seat_rejected() -> None:
    hand = build_hand(3)
    ctx = hand.ctx
    good = ProofBinding(ctx, Step(StepKind.SHUFFLE, 1), 1)
    check_shuffle(ctx, _reproved(hand, 1, good), hand.joint, hand.deck_before(1))
    for binding in (
        ProofBinding(HandContext(b"table-2", ctx.hand_number, 3), good.step, 1),
        ProofBinding(HandContext(ctx.table_id, ctx.hand_number + 1, 3), good.step, 1),
        ProofBinding(ctx, Step(StepKind.SHUFFLE, 2), 1),
        ProofBinding(ctx, good.step, 2),
    ):
        _rejects(hand, _reproved(hand, 1, binding), 1)


def test_out_of_turn_and_missing_shuffles_blamed() -> None:
    hand = build_hand(3)
    with pytest.raises(InvalidMessageError) as info:
        check_shuffles(hand.ctx, [hand.steps[0], hand.steps[2]], hand.joint)
    assert info.value.seat == 2
    with pytest.raises(InvalidMessageError) as info:
        check_shuffles(hand.ctx, hand.steps[:2], hand.joint)
    assert info.value.seat == 2 and "missing" in info.value.reason


@pytest.mark.parametrize("bad_seat", [0, 1, 3])
def test_batched_chain_check_blames_the_first_bad_shuffle(bad_seat: int) -> None:
    hand = build_hand(4)
    steps = list(hand.steps)
    cards = list(steps[bad_seat].deck.cards)
    swapped = Deck([cards[1], cards[0], *cards[2:]])
    steps[bad_seat] = dataclasses.replace(steps[bad_seat], deck=swapped)
    with pytest.raises(InvalidMessageError) as info:
        check_shuffles(hand.ctx, steps, hand.joint, skip_seat=2)
    assert info.value.seat == bad_seat


def test_skip_own_seat() -> None:
    hand = build_hand(2)
    assert check_shuffles(hand.ctx, hand.steps, hand.joint, skip_seat=0) == hand.final
