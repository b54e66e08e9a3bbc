"""Decryption shares D_j = x_j·c1 with Chaum–Pedersen proofs: dealing a position to a seat.

A tile at deck position p goes to seat s when every other seat publishes its share for p; seat
s adds its own share privately and looks up `c2 − Σ D_j`. Shares are public: the tile stays
hidden until seat s publishes its own share (see `tile_reveal.py`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from p2p_dominoes.mental.chaum_pedersen import ChaumPedersenProof
from p2p_dominoes.mental.context import HandContext, ProofBinding, Step, StepKind
from p2p_dominoes.mental.elgamal import Deck
from p2p_dominoes.mental.encoding import Reader, u8
from p2p_dominoes.mental.errors import (
    EncodingError,
    GroupError,
    InvalidMessageError,
    ProofError,
    message_of,
)
from p2p_dominoes.mental.group import Point, mul, sub, sum_points
from p2p_dominoes.mental.keys import HandKeys, JointKey
from p2p_dominoes.mental.messages import MessageTag, decode
from p2p_dominoes.mental.randomness import SYSTEM_RANDOM, RandomSource
from p2p_dominoes.mental.tiles import TILE_COUNT, point_to_tile
from p2p_dominoes.words import phrase

POSITIONS: Final = TILE_COUNT


def read_position(reader: Reader) -> int:
    """The next byte as a deck position (< 28)."""
    position = reader.u8()
    if position >= POSITIONS:
        raise EncodingError(phrase("mental.why.position_number_out_of_range", position=position))
    return position


@dataclass(frozen=True)
class DecryptionShare:
    """Seat `seat`'s share `x_seat·c1` for deck position `position`, with its proof."""

    seat: int
    position: int
    share: Point
    proof: ChaumPedersenProof

    def to_bytes(self) -> bytes:
        """`tag ‖ u8(seat) ‖ u8(position) ‖ D[32] ‖ proof[64]`."""
        return (
            u8(MessageTag.SHARE)
            + u8(self.seat)
            + u8(self.position)
            + self.share.raw
            + self.proof.to_bytes()
        )

    @classmethod
    def from_bytes(cls, data: bytes, sender: int) -> DecryptionShare:
        """Decode a message sent by `sender`; InvalidMessageError if malformed."""

        def parse(r: Reader) -> DecryptionShare:
            return cls(sender, read_position(r), r.point(), ChaumPedersenProof.read(r))

        return decode(data, sender, MessageTag.SHARE, "decryption share", parse)


def share_binding(ctx: HandContext, kind: StepKind, position: int, seat: int) -> ProofBinding:
    """The binding of a share proof: step (`kind`, position) by prover `seat`."""
    return ProofBinding(ctx, Step(kind, position), seat)


def make_share(
    ctx: HandContext,
    keys: HandKeys,
    deck: Deck,
    position: int,
    rng: RandomSource = SYSTEM_RANDOM,
) -> DecryptionShare:
    """This seat's proven decryption share for `position` of the final `deck`."""
    if not 0 <= position < len(deck):
        raise ValueError("position out of range")
    c1 = deck[position].c1
    x = keys.secret.value
    share = c1.mul(x)
    proof = ChaumPedersenProof.prove(
        share_binding(ctx, StepKind.SHARE, position, keys.seat),
        x,
        keys.reveal.public_key,
        c1,
        share,
        rng,
    )
    return DecryptionShare(keys.seat, position, share, proof)


def check_share(ctx: HandContext, share: DecryptionShare, joint: JointKey, deck: Deck) -> None:
    """Raise InvalidMessageError blaming `share.seat` unless the share fits its position."""
    step = Step(StepKind.SHARE, share.position).said
    if not 0 <= share.seat < ctx.seats:
        raise InvalidMessageError(share.seat, step, phrase("mental.why.not_seat_hand"))
    if not 0 <= share.position < len(deck):
        raise InvalidMessageError(share.seat, step, phrase("mental.why.position_out_of_range"))
    try:
        share.proof.verify(
            share_binding(ctx, StepKind.SHARE, share.position, share.seat),
            joint.seat_keys[share.seat],
            deck[share.position].c1,
            share.share,
        )
    except (ProofError, GroupError) as exc:
        raise InvalidMessageError(
            share.seat, step, phrase("mental.why.wrong_decryption_share", reason=message_of(exc))
        ) from None


def collect_shares(
    ctx: HandContext,
    joint: JointKey,
    deck: Deck,
    position: int,
    owner: int,
    shares: Iterable[DecryptionShare],
    *,
    checked: bool = False,
) -> list[bytes]:
    """Check the shares of every seat but `owner` for `position`; return them in seat order.

    With `checked=True` the caller vouches that each share's proof was verified on arrival.
    """
    by_seat: dict[int, DecryptionShare] = {}
    for share in shares:
        if share.position != position:
            raise ValueError(f"share for position {share.position}, expected {position}")
        if share.seat == owner:
            raise ValueError("the owner's own share is not a dealt share")
        if not checked:
            check_share(ctx, share, joint, deck)
        by_seat[share.seat] = share
    missing = [s for s in range(ctx.seats) if s != owner and s not in by_seat]
    if missing:
        raise InvalidMessageError(
            missing[0], Step(StepKind.SHARE, position).said, phrase("mental.why.share_missing")
        )
    return [by_seat[s].share.raw for s in sorted(by_seat)]


def open_position(
    ctx: HandContext,
    keys: HandKeys,
    joint: JointKey,
    deck: Deck,
    position: int,
    shares: Iterable[DecryptionShare],
) -> int:
    """The tile at `position` for its owner `keys.seat`, from every other seat's share.

    Each share is checked (InvalidMessageError blames its seat). Once the shuffles and the
    shares are checked the result is always a tile; anything else is a caller bug (ValueError).
    """
    others = collect_shares(ctx, joint, deck, position, keys.seat, shares)
    card = deck[position]
    own = mul(keys.secret.value, card.c1.raw)
    try:
        plain = sub(card.c2.raw, sum_points([*others, own]))
    except GroupError:
        plain = b""
    tile = point_to_tile(plain)
    if tile is None:
        raise ValueError("position does not decrypt to a tile: were the shuffles checked?")
    return tile
