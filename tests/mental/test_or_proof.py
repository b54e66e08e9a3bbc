"""OR-proofs of a tile at one of a seat's positions: honest proofs verify for any size of S,
and every way of lying (another tile, a changed branch, another binding, bad bytes) is refused."""

import dataclasses

import pytest

from p2p_dominoes.mental.context import HandContext, Step, StepKind
from p2p_dominoes.mental.errors import EncodingError, InvalidMessageError, ProofError
from p2p_dominoes.mental.group import G, L, Scalar
from p2p_dominoes.mental.or_proof import (
    BRANCH_SIZE,
    Branch,
    OrProof,
    branches_for,
    check_tile,
    or_binding,
    partial_opening,
    prove_tile,
)
from p2p_dominoes.mental.randomness import DeterministicRandom
from p2p_dominoes.mental.shares import open_position
from p2p_dominoes.mental.tiles import tile_point
from tests.mental.conftest import Hand, build_hand

OWNER = 1
STEP = Step(StepKind.PLAY, 3)
# Seat 1 of a 2-seat hand: dealt positions 7..13, then (say) draws 14..20.
HELD = tuple(range(7, 21))


def _hand() -> Hand:
    return build_hand(2)


def _openings(hand: Hand, positions: tuple[int, ...]) -> dict[int, bytes]:
    return {
        p: partial_opening(hand.ctx, hand.joint, hand.final, p, OWNER, [hand.share(0, p)])
        for p in positions
    }


def _tile_at(hand: Hand, position: int) -> int:
    share = hand.share(0, position)
    return open_position(hand.ctx, hand.keys[OWNER], hand.joint, hand.final, position, [share])


def _statement(positions: tuple[int, ...]) -> tuple[Hand, tuple[Branch, ...]]:
    hand = _hand()
    return hand, branches_for(hand.final, positions, _openings(hand, positions))


def _prove(hand: Hand, branches: tuple[Branch, ...], real: int, seed: bytes = b"or") -> bytes:
    return prove_tile(
        hand.ctx,
        hand.keys[OWNER],
        STEP,
        _tile_at(hand, real),
        branches,
        real,
        DeterministicRandom(seed),
    )


def _check(hand: Hand, tile: int, proof: bytes, branches: tuple[Branch, ...]) -> None:
    check_tile(hand.ctx, OWNER, STEP, tile, proof, hand.joint, branches)


@pytest.mark.parametrize(
    ("size", "real"), [(1, 7), (7, 7), (7, 10), (7, 13), (14, 7), (14, 15), (14, 20)]
)
def test_honest_proof_verifies_for_every_size_and_real_position(size: int, real: int) -> None:
    hand, branches = _statement(HELD[:size])
    proof = _prove(hand, branches, real)
    assert len(proof) == BRANCH_SIZE * size
    _check(hand, _tile_at(hand, real), proof, branches)


def test_proof_over_a_subset_verifies_only_against_that_subset() -> None:
    hand, drawn = _statement((14, 15, 16))  # e.g. the positions drawn this turn
    proof = _prove(hand, drawn, 15)
    _check(hand, _tile_at(hand, 15), proof, drawn)
    _, others = _statement((7, 8, 9))
    with pytest.raises(InvalidMessageError, match="not at any of its 3 positions"):
        _check(hand, _tile_at(hand, 15), proof, others)


def test_each_branch_changed_fails() -> None:
    hand, branches = _statement(HELD[:7])
    proof = OrProof.from_bytes(_prove(hand, branches, 10), 7)
    tile = _tile_at(hand, 10)
    binding = or_binding(hand.ctx, STEP, OWNER)
    public_key = hand.joint.seat_keys[OWNER]
    proof.verify(binding, public_key, tile, branches)
    for index in range(7):
        for part in (0, 1):
            pairs = [list(pair) for pair in proof.branches]
            pairs[index][part] = Scalar((pairs[index][part].value + 1) % L)
            forged = OrProof(tuple((c, s) for c, s in pairs))
            with pytest.raises(ProofError):
                forged.verify(binding, public_key, tile, branches)


def test_tile_at_none_of_the_positions_cannot_be_proven() -> None:
    hand, branches = _statement(HELD[:7])
    elsewhere = _tile_at(hand, 14)  # seat 1's tile, but not at one of the positions in S
    proof = prove_tile(hand.ctx, hand.keys[OWNER], STEP, elsewhere, branches, 10)
    with pytest.raises(InvalidMessageError, match="is not at any of its 7 positions"):
        _check(hand, elsewhere, proof, branches)


def test_wrong_tile_fails() -> None:
    hand, branches = _statement(HELD[:7])
    proof = _prove(hand, branches, 10)
    for other in (_tile_at(hand, 9), (_tile_at(hand, 10) + 1) % 28):
        with pytest.raises(InvalidMessageError) as info:
            _check(hand, other, proof, branches)
        assert info.value.seat == OWNER


def test_set_without_the_real_position_fails() -> None:
    hand, branches = _statement(HELD[:7])
    proof = _prove(hand, branches, 10)
    _, swapped = _statement((7, 8, 9, 11, 12, 13, 14))  # 10 replaced by 14
    with pytest.raises(InvalidMessageError):
        _check(hand, _tile_at(hand, 10), proof, swapped)


def test_proof_is_bound_to_hand_step_and_seat() -> None:
    hand, branches = _statement(HELD[:7])
    tile = _tile_at(hand, 10)
    proof = _prove(hand, branches, 10)
    other_hand = HandContext(hand.ctx.table_id, hand.ctx.hand_number + 1, hand.ctx.seats)
    other_table = HandContext(b"table-2", hand.ctx.hand_number, hand.ctx.seats)
    for ctx in (other_hand, other_table):
        with pytest.raises(InvalidMessageError):
            check_tile(ctx, OWNER, STEP, tile, proof, hand.joint, branches)
    for step in (Step(StepKind.PLAY, 4), Step(StepKind.LEAD_CLAIM)):
        with pytest.raises(InvalidMessageError):
            check_tile(hand.ctx, OWNER, step, tile, proof, hand.joint, branches)
    with pytest.raises(InvalidMessageError) as info:
        check_tile(hand.ctx, 0, STEP, tile, proof, hand.joint, branches)
    assert info.value.seat == 0


def test_non_canonical_scalar_refused() -> None:
    hand, branches = _statement(HELD[:7])
    proof = bytearray(_prove(hand, branches, 10))
    for offset in (0, 32, 6 * BRANCH_SIZE + 32):
        bad = bytearray(proof)
        bad[offset : offset + 32] = L.to_bytes(32, "little")
        with pytest.raises(EncodingError, match="non-canonical"):
            OrProof.from_bytes(bytes(bad), 7)
        with pytest.raises(InvalidMessageError, match="malformed proof"):
            _check(hand, _tile_at(hand, 10), bytes(bad), branches)


@pytest.mark.parametrize("size", [0, 63, 65, 6 * BRANCH_SIZE, 8 * BRANCH_SIZE])
def test_wrong_length_refused(size: int) -> None:
    hand, branches = _statement(HELD[:7])
    proof = (_prove(hand, branches, 10) * 2)[:size]
    with pytest.raises(InvalidMessageError, match="malformed proof"):
        _check(hand, _tile_at(hand, 10), proof, branches)


def test_round_trip_and_randomised() -> None:
    hand, branches = _statement(HELD[:7])
    one, two = _prove(hand, branches, 10, b"a"), _prove(hand, branches, 10, b"b")
    assert one != two  # fresh randomness each time: nothing in the bytes is fixed by p
    assert OrProof.from_bytes(one, 7).to_bytes() == one


def test_a_wrong_share_behind_an_opening_is_blamed_on_its_seat() -> None:
    hand = _hand()
    share = hand.share(0, 9)
    bad = dataclasses.replace(share, share=share.share + G)
    with pytest.raises(InvalidMessageError) as info:
        partial_opening(hand.ctx, hand.joint, hand.final, 9, OWNER, [bad])
    assert info.value.seat == 0


def test_branches_need_a_non_empty_set_inside_the_deck() -> None:
    hand = _hand()
    with pytest.raises(ValueError):
        branches_for(hand.final, [], {})
    with pytest.raises(ValueError):
        branches_for(hand.final, [28], {28: b""})


class _Scripted:
    """A random source that hands out given scalars, in order (64 bytes each)."""

    def __init__(self, scalars: list[int]) -> None:
        self._scalars = list(scalars)

    def random_bytes(self, size: int) -> bytes:
        assert size == 64
        return self._scalars.pop(0).to_bytes(64, "little")

    def randbelow(self, bound: int) -> int:
        raise AssertionError("not used")


def test_a_proof_from_one_position_is_byte_for_byte_one_from_another() -> None:
    """Witness indistinguishability, exactly: where two positions could hold the tile, every
    proof made from the first is the proof made from the second with other (equally likely)
    randomness, so the bytes cannot say which position was used."""
    hand, branches = _statement(HELD[:7])
    real, other = 9, 12
    tile = _tile_at(hand, real)
    x = hand.keys[OWNER].secret.value
    c1 = hand.final[other].c1
    both = tuple(  # position 12 made to hold the same tile: two true branches
        dataclasses.replace(b, opening=(tile_point(tile) + c1.mul(x)).raw)
        if b.position == other
        else b
        for b in branches
    )
    binding = or_binding(hand.ctx, STEP, OWNER)
    public_key = hand.joint.seat_keys[OWNER]
    made = OrProof.prove(binding, x, public_key, tile, both, real, DeterministicRandom(b"wi"))
    made.verify(binding, public_key, tile, both)
    pairs = [(c.value, s.value) for c, s in made.branches]
    index = [b.position for b in both].index(other)
    c_q, s_q = pairs[index]
    script = [(s_q - c_q * x) % L]  # the nonce the other witness would have drawn
    for i, (c, s) in enumerate(pairs):
        if i != index:
            script += [c, s]  # the branch it would have simulated
    again = OrProof.prove(binding, x, public_key, tile, both, other, _Scripted(script))
    assert again == made
