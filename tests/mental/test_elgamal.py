"""Ciphertexts and decks: re-encryption keeps the plaintext, encodings validate every point."""

import pytest

from p2p_dominoes.mental.elgamal import Ciphertext, Deck
from p2p_dominoes.mental.errors import EncodingError
from p2p_dominoes.mental.group import G, Point, mul, sub
from p2p_dominoes.mental.tiles import tile_point
from tests.mental.conftest import tag


def test_reencryption_keeps_plaintext() -> None:
    x = 1234567
    pk = Point.base_mul(x)
    ct = Ciphertext(G, tile_point(3) + pk).reencrypt(99, pk).reencrypt(7, pk)
    assert sub(ct.c2.raw, mul(x, ct.c1.raw)) == tile_point(3).raw


def test_deck_round_trip_and_validation() -> None:
    pk = Point.base_mul(5)
    deck = Deck([Ciphertext(G, tile_point(t) + pk) for t in range(4)])
    data = deck.to_bytes()
    assert Deck.from_bytes(data, 4) == deck and len(deck) == 4
    with pytest.raises(EncodingError):
        Deck.from_bytes(data[:-64], 4)
    tagged = data[:64] + tag(data[64:96]) + data[96:]
    with pytest.raises(EncodingError):
        Deck.from_bytes(tagged, 4)
