"""Randomness: the seeded stream is reproducible, permutations and scalars are well formed."""

import collections

from p2p_dominoes.mental.group import L
from p2p_dominoes.mental.randomness import (
    SYSTEM_RANDOM,
    DeterministicRandom,
    random_permutation,
    random_scalar,
)


def test_deterministic_stream_is_reproducible_and_seeded() -> None:
    a, b, c = DeterministicRandom(b"x"), DeterministicRandom(b"x"), DeterministicRandom(b"y")
    assert a.random_bytes(100) + a.random_bytes(5) == b.random_bytes(105)
    assert DeterministicRandom(b"x").random_bytes(32) != c.random_bytes(32)


def test_deterministic_stream_matches_its_definition() -> None:
    import hashlib

    domain, seed = b"p2p-dominoes/mental/v1/test-drbg", b"seed"
    prefix = len(domain).to_bytes(4, "big") + domain + len(seed).to_bytes(4, "big") + seed
    block0 = hashlib.sha512(prefix + (0).to_bytes(8, "big")).digest()
    assert DeterministicRandom(seed).random_bytes(64) == block0


def test_randbelow_is_in_range_and_roughly_uniform() -> None:
    rng = DeterministicRandom(b"r")
    counts = collections.Counter(rng.randbelow(7) for _ in range(7000))
    assert set(counts) == set(range(7))
    assert all(800 < n < 1200 for n in counts.values())


def test_permutations_and_scalars() -> None:
    for rng in (SYSTEM_RANDOM, DeterministicRandom(b"p")):
        perm = random_permutation(28, rng)
        assert sorted(perm) == list(range(28))
        assert 0 < random_scalar(rng) < L
