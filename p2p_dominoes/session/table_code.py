"""The table code: a few words every player reads aloud to check that all hold the same table.

Each seat draws a fresh secret 32-byte *table nonce* and commits to it before it sees anyone
else's: ``commitment = SHA-256(SEAT_COMMITMENT_DOMAIN ‖ key ‖ nonce)``. A joiner sends its
commitment in its ``join`` lobby message, the host adds its own, and the genesis fixes every
seat's commitment. Only then does each seat reveal its nonce, in its ``genesis_sign``. The code
is the first ``TABLE_CODE_BYTES`` of ``SHA-256(TABLE_CODE_DOMAIN ‖ genesis_hash ‖ n_0 ‖ … ‖ n_k)``,
shown as words (one per byte) from a fixed English list and a fixed Russian list with the same
meaning at the same index, and as digits (the indices) for a table that mixes languages.

A man in the middle must fix its own commitments in both genesises before it learns an honest
seat's nonce, so it cannot search for nonces (or keys) that make two codes match: each attempt
matches with probability 2^-32, and each failure is a mismatch the players see
(docs/threat-model.md, "Table code").
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Final

from p2p_dominoes.session.identity import PublicIdentity

TABLE_NONCE_SIZE: Final = 32
COMMITMENT_SIZE: Final = 32
TABLE_CODE_BYTES: Final = 4
"""Four words, 32 bits: one chance in 4.3 × 10⁹ per attempt, and every attempt is seen."""
WORD_LIST_SIZE: Final = 256
SEAT_COMMITMENT_DOMAIN: Final = b"p2p-dominoes v1 seat commitment\x00"
TABLE_CODE_DOMAIN: Final = b"p2p-dominoes v1 table code\x00"
LANGUAGES: Final = ("en", "ru")
_WORDS_FILE: Final = "table_code_words.txt"


def new_table_nonce() -> bytes:
    """A fresh secret table nonce (32 bytes from ``secrets``): keep it until it is revealed."""
    return secrets.token_bytes(TABLE_NONCE_SIZE)


def seat_commitment(key: PublicIdentity, nonce: bytes) -> bytes:
    """``SHA-256(SEAT_COMMITMENT_DOMAIN ‖ key ‖ nonce)``: binds a seat's nonce to its key."""
    if type(nonce) is not bytes or len(nonce) != TABLE_NONCE_SIZE:
        raise ValueError(f"a table nonce is {TABLE_NONCE_SIZE} bytes")
    return hashlib.sha256(SEAT_COMMITMENT_DOMAIN + key.raw + nonce).digest()


def opens_commitment(key: PublicIdentity, nonce: bytes, commitment: bytes) -> bool:
    """True when ``nonce`` is the one ``commitment`` fixed for ``key`` (constant time)."""
    if type(nonce) is not bytes or len(nonce) != TABLE_NONCE_SIZE:
        return False
    return secrets.compare_digest(seat_commitment(key, nonce), commitment)


@cache
def word_lists() -> dict[str, tuple[str, ...]]:
    """The fixed word lists by language: 256 words each, the same meaning at the same index."""
    text = resources.files("p2p_dominoes.session").joinpath(_WORDS_FILE).read_text("utf-8")
    english: list[str] = []
    russian: list[str] = []
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        index, en, ru = line.split()
        if int(index) != len(english):
            raise RuntimeError(f"{_WORDS_FILE}: line for index {index} is out of order")
        english.append(en)
        russian.append(ru)
    return {"en": tuple(english), "ru": tuple(russian)}


@dataclass(frozen=True)
class TableCode:
    """The code of one set-up table: ``TABLE_CODE_BYTES`` bytes, shown as words or digits."""

    value: bytes

    def words(self, lang: str = "en") -> tuple[str, ...]:
        """One word per byte from the ``lang`` list ("en" or "ru"; others get English)."""
        words = word_lists().get(lang, word_lists()["en"])
        return tuple(words[byte] for byte in self.value)

    def text(self, lang: str = "en") -> str:
        """The words joined by spaces, e.g. ``"otter lantern plum glacier"``."""
        return " ".join(self.words(lang))

    @property
    def digits(self) -> str:
        """Each word's index as three digits, e.g. ``"017-203-114-009"`` (any language)."""
        return "-".join(f"{byte:03d}" for byte in self.value)

    def line(self, lang: str = "en") -> str:
        """What a terminal prints: the words in ``lang`` first, then the other list's, then
        the digits, e.g. ``"otter lantern plum glacier / выдра фонарь слива ледник (…)"``."""
        first = lang if lang in LANGUAGES else "en"
        order = [first, *(other for other in LANGUAGES if other != first)]
        return " / ".join(self.text(each) for each in order) + f" ({self.digits})"


def table_code(genesis_hash: bytes, nonces: Sequence[bytes]) -> TableCode:
    """The code of a table from its genesis hash and every seat's nonce, in seat order."""
    digest = hashlib.sha256(TABLE_CODE_DOMAIN + genesis_hash)
    for nonce in nonces:
        if type(nonce) is not bytes or len(nonce) != TABLE_NONCE_SIZE:
            raise ValueError(f"a table nonce is {TABLE_NONCE_SIZE} bytes")
        digest.update(nonce)
    return TableCode(digest.digest()[:TABLE_CODE_BYTES])
