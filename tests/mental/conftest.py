"""Shared honest hands for the mental-poker tests (built once, deterministic seeds)."""

from __future__ import annotations

import functools
from dataclasses import dataclass

import pytest

from p2p_dominoes.mental import (
    Deck,
    DecryptionShare,
    HandContext,
    HandKeys,
    JointKey,
    ShuffleStep,
    combine_keys,
    make_share,
    new_hand_keys,
    shuffle_deck,
    starting_deck,
)
from p2p_dominoes.mental.group import add
from p2p_dominoes.mental.randomness import DeterministicRandom

# A point of order 8 on edwards25519 (outside the prime-order subgroup): adding it "tags" a
# point without changing what it decrypts to in the prime-order component.
TORSION_8 = bytes.fromhex("26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05")


def tag(raw: bytes) -> bytes:
    """`raw` plus a small-order point: on the curve, not in the subgroup."""
    return add(raw, TORSION_8)


@dataclass(frozen=True)
class Hand:
    """An honest hand: context, every seat's keys, the joint key and every shuffle."""

    ctx: HandContext
    keys: tuple[HandKeys, ...]
    joint: JointKey
    start: Deck
    steps: tuple[ShuffleStep, ...]

    @property
    def final(self) -> Deck:
        """The deck after the last shuffle."""
        return self.steps[-1].deck

    def deck_before(self, seat: int) -> Deck:
        """The deck that seat `seat` shuffled."""
        return self.start if seat == 0 else self.steps[seat - 1].deck

    def share(self, seat: int, position: int) -> DecryptionShare:
        """Seat `seat`'s proven share for `position` of the final deck."""
        return _share(self, seat, position)


@functools.cache
def _share(hand: Hand, seat: int, position: int) -> DecryptionShare:
    rng = DeterministicRandom(b"share" + bytes([seat, position]))
    return make_share(hand.ctx, hand.keys[seat], hand.final, position, rng)


@functools.cache
def build_hand(seats: int, table: bytes = b"table-1", hand_number: int = 5) -> Hand:
    """An honest hand with deterministic randomness."""
    ctx = HandContext(table, hand_number, seats)
    keys = tuple(
        new_hand_keys(ctx, s, DeterministicRandom(b"keys" + bytes([s]))) for s in range(seats)
    )
    joint = combine_keys(ctx, [k.commit for k in keys], [k.reveal for k in keys])
    deck = start = starting_deck(joint)
    steps = []
    for s in range(seats):
        step = shuffle_deck(ctx, s, joint, deck, DeterministicRandom(b"shuffle" + bytes([s])))
        steps.append(step)
        deck = step.deck
    return Hand(ctx, keys, joint, start, tuple(steps))


@pytest.fixture
def hand2() -> Hand:
    """A 2-seat honest hand."""
    return build_hand(2)
