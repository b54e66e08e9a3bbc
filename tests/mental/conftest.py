"""Shared honest hands for the mental-poker tests (built once, deterministic seeds)."""

from __future__ import annotations

import functools
from dataclasses import dataclass

import nacl.bindings
import nacl.exceptions
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
from p2p_dominoes.mental.group import ORDER_2, add
from p2p_dominoes.mental.randomness import DeterministicRandom

# A point of order 8 on edwards25519 (outside the prime-order subgroup): adding it "tags" a
# point without changing what it decrypts to in the prime-order component. libsodium refused
# such tags even before the CVE-2025-69277 fix.
TORSION_8 = bytes.fromhex("26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05")


def tag(raw: bytes) -> bytes:
    """`raw` plus the order-2 point (0, −1): on the curve, not in the subgroup, and refused only
    by a libsodium with the CVE-2025-69277 fix (so these tests fail on a vulnerable build)."""
    return add(raw, ORDER_2)


def tag_8(raw: bytes) -> bytes:
    """`raw` plus an order-8 point (refused by old and fixed libsodium alike)."""
    return add(raw, TORSION_8)


_fixed_is_valid = nacl.bindings.crypto_core_ed25519_is_valid_point


def pre_fix_is_valid(raw: bytes) -> bool:
    """libsodium's check before the CVE-2025-69277 fix, emulated: it took a point whose [L]
    multiple is (0, −1) for a subgroup point, i.e. it let `Q + (0, −1)` through."""
    if len(raw) != 32:
        return False
    if _fixed_is_valid(raw):
        return True
    try:
        return bool(_fixed_is_valid(nacl.bindings.crypto_core_ed25519_add(raw, ORDER_2)))
    except nacl.exceptions.CryptoError:
        return False


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
