"""Where protocol randomness comes from: the OS by default, a seeded stream for vectors and tests.

Every function that draws randomness takes a `RandomSource`; production code never passes one,
so it gets `SYSTEM_RANDOM` (`os.urandom` and `secrets.randbelow`). `DeterministicRandom` exists
only so test vectors can be reproduced byte for byte; it must never be used in play.
"""

from __future__ import annotations

import hashlib
import os
import secrets
from typing import Final, Protocol

from p2p_dominoes.mental.group import L

_DRBG_DOMAIN: Final = b"p2p-dominoes/mental/v1/test-drbg"


class RandomSource(Protocol):
    """A source of uniformly random bytes and integers."""

    def random_bytes(self, size: int) -> bytes:
        """`size` uniformly random bytes."""
        ...

    def randbelow(self, bound: int) -> int:
        """A uniformly random integer in `[0, bound)`, `bound >= 1`."""
        ...


class SystemRandom:
    """The operating system's CSPRNG; the only source used in play."""

    def random_bytes(self, size: int) -> bytes:
        """`os.urandom(size)`."""
        return os.urandom(size)

    def randbelow(self, bound: int) -> int:
        """`secrets.randbelow(bound)`."""
        return secrets.randbelow(bound)


SYSTEM_RANDOM: Final = SystemRandom()


class DeterministicRandom:
    """SHA-512 in counter mode over a seed: reproducible, NOT for play (vectors and tests only).

    Block k is `SHA-512(frame(domain) ‖ frame(seed) ‖ u64(k))`; bytes are served from the
    concatenated blocks in order. `randbelow` takes 8 bytes as a big-endian integer and rejects
    values at or above the largest multiple of `bound` below 2^64.
    """

    def __init__(self, seed: bytes) -> None:
        domain, seed_len = len(_DRBG_DOMAIN).to_bytes(4, "big"), len(seed).to_bytes(4, "big")
        self._prefix = domain + _DRBG_DOMAIN + seed_len + seed
        self._counter = 0
        self._buffer = b""

    def random_bytes(self, size: int) -> bytes:
        """The next `size` bytes of the stream."""
        while len(self._buffer) < size:
            block = hashlib.sha512(self._prefix + self._counter.to_bytes(8, "big")).digest()
            self._buffer += block
            self._counter += 1
        out, self._buffer = self._buffer[:size], self._buffer[size:]
        return out

    def randbelow(self, bound: int) -> int:
        """Uniform in `[0, bound)` by rejection sampling of 64-bit draws."""
        if not 1 <= bound < 2**64:
            raise ValueError("bound out of range")
        limit = 2**64 - (2**64 % bound)
        while True:
            value = int.from_bytes(self.random_bytes(8), "big")
            if value < limit:
                return value % bound


def random_scalar(rng: RandomSource) -> int:
    """A uniform non-zero scalar: 64 random bytes, little-endian, reduced mod L (no bias)."""
    while True:
        value = int.from_bytes(rng.random_bytes(64), "little") % L
        if value:
            return value


def random_permutation(size: int, rng: RandomSource) -> list[int]:
    """A uniform permutation of `range(size)` by Fisher–Yates, from the last index down."""
    perm = list(range(size))
    for i in range(size - 1, 0, -1):
        j = rng.randbelow(i + 1)
        perm[i], perm[j] = perm[j], perm[i]
    return perm
