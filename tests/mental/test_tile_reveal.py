"""Tile reveals: a true claim is accepted by everyone; a false claim is blamed on the claimer."""

import dataclasses

import pytest

from p2p_dominoes.mental.errors import InvalidMessageError
from p2p_dominoes.mental.group import G
from p2p_dominoes.mental.shares import open_position
from p2p_dominoes.mental.tile_reveal import TileReveal, check_tile_reveal, reveal_tile
from tests.mental.conftest import build_hand


def _setup():  # type: ignore[no-untyped-def]
    hand = build_hand(3)
    position, owner = 7, 1
    others = [hand.share(s, position) for s in (0, 2)]
    tile = open_position(hand.ctx, hand.keys[owner], hand.joint, hand.final, position, others)
    reveal = reveal_tile(hand.ctx, hand.keys[owner], hand.final, position, tile)
    return hand, others, tile, reveal


def test_true_claim_accepted_and_round_trips() -> None:
    hand, others, tile, reveal = _setup()
    assert check_tile_reveal(hand.ctx, reveal, hand.joint, hand.final, others) == tile
    assert TileReveal.from_bytes(reveal.to_bytes(), 1) == reveal


def test_false_claim_blamed_on_claimer() -> None:
    hand, others, tile, reveal = _setup()
    lie = dataclasses.replace(reveal, tile=(tile + 1) % 28)
    with pytest.raises(InvalidMessageError) as info:
        check_tile_reveal(hand.ctx, lie, hand.joint, hand.final, others)
    assert info.value.seat == 1 and "decrypts to" in info.value.reason
    forged = reveal_tile(hand.ctx, hand.keys[1], hand.final, 8, tile)  # another position
    with pytest.raises(InvalidMessageError) as info:
        check_tile_reveal(
            hand.ctx, dataclasses.replace(forged, position=7), hand.joint, hand.final, others
        )
    assert info.value.seat == 1


def test_bad_share_in_reveal_blamed() -> None:
    hand, others, _, reveal = _setup()
    with pytest.raises(InvalidMessageError) as info:
        check_tile_reveal(
            hand.ctx,
            dataclasses.replace(reveal, share=reveal.share + G),
            hand.joint,
            hand.final,
            others,
        )
    assert info.value.seat == 1
    bad_other = dataclasses.replace(others[1], share=others[1].share + G)
    with pytest.raises(InvalidMessageError) as info:
        check_tile_reveal(hand.ctx, reveal, hand.joint, hand.final, [others[0], bad_other])
    assert info.value.seat == 2
