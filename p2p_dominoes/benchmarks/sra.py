"""The naive baseline: an SRA commutative-encryption deal in RFC 3526 group 14, pure Python.

No proofs: each seat encrypts and permutes the whole deck, then strips its shuffle lock and adds
a per-card lock to every card, then every dealt card is opened by all of its locks.
"""

from __future__ import annotations

import math
import secrets
from dataclasses import dataclass

# RFC 3526 group 14: p = 2^2048 − 2^1984 − 1 + 2^64·(⌊2^1918·π⌋ + 124476), as published.
RFC3526_GROUP14 = int(
    "FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A0879"
    "8E3404DDEF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B"
    "0BFF5CB6F406B7EDEE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF0598DA4836"
    "1C55D39A69163FA8FD24CF5F83655D23DCA3AD961C62F356208552BB9ED529077096966D670C354E4ABC9804"
    "F1746C08CA18217C32905E462E36CE3BE39E772C180E86039B2783A2EC07A28FB5C55DF06F4C52C9DE2BCBF6"
    "955817183995497CEA956AE515D2261898FA051015728E5A8AACAA68FFFFFFFFFFFFFFFF",
    16,
)


@dataclass(frozen=True)
class SraResult:
    """What the baseline did: modular exponentiations performed and the tiles each seat got."""

    modexps: int
    hands: tuple[tuple[int, ...], ...]


def _key_pair(p: int) -> tuple[int, int]:
    """A full-size exponent e coprime to p−1 and its inverse d."""
    while True:
        e = secrets.randbelow(p - 3) + 2
        if math.gcd(e, p - 1) == 1:
            return e, pow(e, -1, p - 1)


def sra_deal(seats: int, hand_size: int, p: int = RFC3526_GROUP14, cards: int = 28) -> SraResult:
    """Shuffle, relock and deal `hand_size` cards to each seat; cards are encoded as the
    squares (i + 2)^2 so that SRA does not leak a Legendre-symbol bit per card."""
    encode = {pow(i + 2, 2, p): i for i in range(cards)}
    deck = list(encode)
    count = 0
    shuffle_keys = [_key_pair(p) for _ in range(seats)]
    for e, _ in shuffle_keys:
        deck = [pow(m, e, p) for m in deck]
        count += len(deck)
        for i in range(len(deck) - 1, 0, -1):
            j = secrets.randbelow(i + 1)
            deck[i], deck[j] = deck[j], deck[i]
    card_keys: list[list[tuple[int, int]]] = []
    for _, d in shuffle_keys:
        keys = [_key_pair(p) for _ in range(cards)]
        card_keys.append(keys)
        deck = [pow(pow(m, d, p), keys[i][0], p) for i, m in enumerate(deck)]
        count += 2 * len(deck)
    hands = []
    for seat in range(seats):
        hand = []
        for position in range(seat * hand_size, (seat + 1) * hand_size):
            value = deck[position]
            for keys in card_keys:
                value = pow(value, keys[position][1], p)
                count += 1
            hand.append(encode[value])
        hands.append(tuple(hand))
    return SraResult(count, tuple(hands))
