"""Every message type: bytes round-trip, and any single flipped bit is rejected with blame."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2p_dominoes.mental.context import HandContext
from p2p_dominoes.mental.errors import InvalidMessageError
from p2p_dominoes.mental.keys import KeyCommit, KeyReveal, check_key_reveal, new_hand_keys
from p2p_dominoes.mental.randomness import DeterministicRandom
from p2p_dominoes.mental.secret_reveal import SecretReveal, check_secret_reveal, reveal_secret
from p2p_dominoes.mental.shares import DecryptionShare, check_share, open_position
from p2p_dominoes.mental.shuffle import ShuffleStep, check_shuffle
from p2p_dominoes.mental.tile_reveal import TileReveal, check_tile_reveal, reveal_tile
from tests.mental.conftest import build_hand

HAND = build_hand(3)
SENDER = 1
_OTHERS = [HAND.share(0, 4), HAND.share(2, 4)]
_TILE = open_position(HAND.ctx, HAND.keys[1], HAND.joint, HAND.final, 4, _OTHERS)


def _accept_commit(data: bytes) -> None:
    check_key_reveal(HAND.ctx, KeyCommit.from_bytes(data, SENDER), HAND.keys[1].reveal)


def _accept_reveal(data: bytes) -> None:
    check_key_reveal(HAND.ctx, HAND.keys[1].commit, KeyReveal.from_bytes(data, SENDER))


def _accept_shuffle(data: bytes) -> None:
    check_shuffle(HAND.ctx, ShuffleStep.from_bytes(data, SENDER), HAND.joint, HAND.deck_before(1))


def _accept_share(data: bytes) -> None:
    check_share(HAND.ctx, DecryptionShare.from_bytes(data, SENDER), HAND.joint, HAND.final)


def _accept_tile(data: bytes) -> None:
    reveal = TileReveal.from_bytes(data, SENDER)
    others = [HAND.share(s, reveal.position) for s in (0, 2)]
    check_tile_reveal(HAND.ctx, reveal, HAND.joint, HAND.final, others)


def _accept_secret(data: bytes) -> None:
    check_secret_reveal(SecretReveal.from_bytes(data, SENDER), HAND.joint)


MESSAGES: dict[str, tuple[bytes, Callable[[bytes], None], int]] = {
    "key commit": (HAND.keys[1].commit.to_bytes(), _accept_commit, 40),
    "key reveal": (HAND.keys[1].reveal.to_bytes(), _accept_reveal, 40),
    "shuffle": (HAND.steps[1].to_bytes(), _accept_shuffle, 25),
    "share": (HAND.share(1, 3).to_bytes(), _accept_share, 40),
    "tile reveal": (
        reveal_tile(HAND.ctx, HAND.keys[1], HAND.final, 4, _TILE).to_bytes(),
        _accept_tile,
        40,
    ),
    "secret": (reveal_secret(HAND.keys[1]).to_bytes(), _accept_secret, 40),
}


@pytest.mark.parametrize("name", sorted(MESSAGES))
def test_honest_message_accepted(name: str) -> None:
    data, accept, _ = MESSAGES[name]
    accept(data)


@pytest.mark.parametrize("name", sorted(MESSAGES))
def test_any_flipped_bit_is_rejected_and_blamed(name: str) -> None:
    data, accept, examples = MESSAGES[name]

    @settings(max_examples=examples, deadline=None, derandomize=False)
    @given(st.integers(0, len(data) - 1), st.integers(0, 7))
    def flip(index: int, bit: int) -> None:
        flipped = data[:index] + bytes([data[index] ^ (1 << bit)]) + data[index + 1 :]
        with pytest.raises(InvalidMessageError) as info:
            accept(flipped)
        assert info.value.seat == SENDER

    flip()


@pytest.mark.parametrize("name", sorted(MESSAGES))
def test_truncated_or_extended_message_rejected(name: str) -> None:
    data, accept, _ = MESSAGES[name]
    for bad in (data[:-1], data + b"\x00", b"", data[:1]):
        with pytest.raises(InvalidMessageError):
            accept(bad)


@settings(max_examples=20, deadline=None)
@given(st.binary(min_size=1, max_size=16), st.integers(0, 2**64 - 1), st.integers(2, 4), st.data())
def test_cheap_messages_round_trip(
    table: bytes, hand_number: int, seats: int, data: st.DataObject
) -> None:
    ctx = HandContext(table, hand_number, seats)
    seat = data.draw(st.integers(0, seats - 1))
    keys = new_hand_keys(ctx, seat, DeterministicRandom(table + bytes([seat])))
    assert KeyCommit.from_bytes(keys.commit.to_bytes(), seat) == keys.commit
    assert KeyReveal.from_bytes(keys.reveal.to_bytes(), seat) == keys.reveal
    check_key_reveal(ctx, keys.commit, keys.reveal)
    secret = reveal_secret(keys)
    assert SecretReveal.from_bytes(secret.to_bytes(), seat) == secret


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 27), st.integers(0, 2))
def test_shares_round_trip(position: int, seat: int) -> None:
    share = HAND.share(seat, position)
    assert DecryptionShare.from_bytes(share.to_bytes(), seat) == share


def test_shuffle_round_trip() -> None:
    step = HAND.steps[2]
    assert ShuffleStep.from_bytes(step.to_bytes(), 2) == step
    assert len(step.to_bytes()) == 2 + 28 * 64 + (2 * 28 + 3) * 32 + (28 + 6) * 32
