"""EC-ElGamal ciphertexts (c1, c2) = (r·G, M + r·PK) and decks of them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from p2p_dominoes.mental.encoding import Reader
from p2p_dominoes.mental.errors import EncodingError
from p2p_dominoes.mental.group import POINT_SIZE, Point, add, mul, mul_base
from p2p_dominoes.words import phrase

CIPHERTEXT_SIZE = 2 * POINT_SIZE


@dataclass(frozen=True, slots=True)
class Ciphertext:
    """One encrypted card: `c1 = r·G`, `c2 = M + r·PK`."""

    c1: Point
    c2: Point

    def to_bytes(self) -> bytes:
        """`c1 ‖ c2`."""
        return self.c1.raw + self.c2.raw

    def reencrypt(self, randomness: int, joint_key: Point) -> Ciphertext:
        """The same plaintext under fresh randomness: `(c1 + r·G, c2 + r·PK)`."""
        return Ciphertext(
            Point.from_libsodium(add(self.c1.raw, mul_base(randomness))),
            Point.from_libsodium(add(self.c2.raw, mul(randomness, joint_key.raw))),
        )


class Deck:
    """An ordered, immutable sequence of ciphertexts; position i is `deck[i]`."""

    __slots__ = ("_bytes", "cards")
    cards: tuple[Ciphertext, ...]
    _bytes: bytes

    def __init__(self, cards: Sequence[Ciphertext]) -> None:
        object.__setattr__(self, "cards", tuple(cards))
        object.__setattr__(self, "_bytes", b"".join(c.to_bytes() for c in self.cards))

    @classmethod
    def from_bytes(cls, data: bytes, size: int) -> Deck:
        """Decode `size` ciphertexts, validating every point."""
        if len(data) != size * CIPHERTEXT_SIZE:
            raise EncodingError(phrase("mental.why.deck_must_bytes", size=size * CIPHERTEXT_SIZE))
        reader = Reader(data)
        return cls([Ciphertext(reader.point(), reader.point()) for _ in range(size)])

    def to_bytes(self) -> bytes:
        """The ciphertexts' encodings concatenated in position order."""
        return self._bytes

    def __len__(self) -> int:
        return len(self.cards)

    def __getitem__(self, position: int) -> Ciphertext:
        return self.cards[position]

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Deck is immutable")

    def __copy__(self) -> Deck:
        return self  # immutable: a copy is the value itself

    def __deepcopy__(self, memo: dict[int, object]) -> Deck:
        return self

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Deck) and other.to_bytes() == self.to_bytes()

    def __hash__(self) -> int:
        return hash(self.to_bytes())

    def __repr__(self) -> str:
        return f"Deck({len(self.cards)} cards)"
