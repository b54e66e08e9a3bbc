"""Decryption shares: the recipient learns its tile; wrong or misplaced shares are blamed."""

import dataclasses

import pytest

from p2p_dominoes.mental.errors import InvalidMessageError
from p2p_dominoes.mental.group import G, L
from p2p_dominoes.mental.shares import DecryptionShare, check_share, open_position
from p2p_dominoes.mental.tiles import TILE_COUNT
from tests.mental.conftest import build_hand, tag


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_all_shares_give_back_every_tile_once(seats: int) -> None:
    hand = build_hand(seats)
    tiles = []
    for position in range(TILE_COUNT):
        owner = position % seats
        shares = [hand.share(s, position) for s in range(seats) if s != owner]
        tiles.append(
            open_position(hand.ctx, hand.keys[owner], hand.joint, hand.final, position, shares)
        )
    assert sorted(tiles) == list(range(TILE_COUNT))


def _blame(hand, share: DecryptionShare, seat: int) -> str:  # type: ignore[no-untyped-def]
    with pytest.raises(InvalidMessageError) as info:
        check_share(hand.ctx, share, hand.joint, hand.final)
    assert info.value.seat == seat
    return info.value.reason


def test_wrong_share_rejected() -> None:
    hand = build_hand(3)
    share = hand.share(2, 4)
    check_share(hand.ctx, share, hand.joint, hand.final)
    wrong = dataclasses.replace(share, share=share.share + G)
    assert "wrong decryption share" in _blame(hand, wrong, 2)
    # A share computed with another seat's secret but claimed by seat 2.
    stolen = hand.share(1, 4)
    _blame(hand, dataclasses.replace(stolen, seat=2), 2)


def test_share_proof_for_another_position_rejected() -> None:
    hand = build_hand(3)
    share = hand.share(1, 4)
    _blame(hand, dataclasses.replace(share, position=5), 1)


def test_open_position_blames_bad_or_missing_shares() -> None:
    hand = build_hand(3)
    good = [hand.share(1, 0), hand.share(2, 0)]
    bad = dataclasses.replace(good[1], share=good[1].share + G)
    with pytest.raises(InvalidMessageError) as info:
        open_position(hand.ctx, hand.keys[0], hand.joint, hand.final, 0, [good[0], bad])
    assert info.value.seat == 2
    with pytest.raises(InvalidMessageError) as info:
        open_position(hand.ctx, hand.keys[0], hand.joint, hand.final, 0, good[:1])
    assert info.value.seat == 2 and "missing" in info.value.reason
    with pytest.raises(ValueError):  # a share for another position is a caller error
        open_position(hand.ctx, hand.keys[0], hand.joint, hand.final, 1, good)


def test_share_message_validation() -> None:
    hand = build_hand(2)
    data = hand.share(1, 3).to_bytes()
    assert DecryptionShare.from_bytes(data, 1) == hand.share(1, 3)
    for bad in (
        data[:2] + bytes([28]) + data[3:],  # position out of range
        data[:3] + tag(data[3:35]) + data[35:],  # torsion-tagged share
        data[:-32] + (L + 1).to_bytes(32, "little"),  # non-canonical response
        data + b"\x00",
    ):
        with pytest.raises(InvalidMessageError) as info:
            DecryptionShare.from_bytes(bad, 1)
        assert info.value.seat == 1
