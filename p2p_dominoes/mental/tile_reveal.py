"""A seat showing everyone the tile at one of its positions (a play, or the end-of-hand count).

The seat publishes the tile, the position and its own decryption share with a Chaum–Pedersen
proof; with every other seat's share for that position anyone checks `c2 − Σ D_j = M_tile`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from p2p_dominoes.mental.chaum_pedersen import ChaumPedersenProof
from p2p_dominoes.mental.context import HandContext, Step, StepKind
from p2p_dominoes.mental.elgamal import Deck
from p2p_dominoes.mental.encoding import Reader, u8
from p2p_dominoes.mental.errors import (
    EncodingError,
    GroupError,
    InvalidMessageError,
    ProofError,
    message_of,
)
from p2p_dominoes.mental.group import Point, sub, sum_points
from p2p_dominoes.mental.keys import HandKeys, JointKey
from p2p_dominoes.mental.messages import MessageTag, decode
from p2p_dominoes.mental.randomness import SYSTEM_RANDOM, RandomSource
from p2p_dominoes.mental.shares import DecryptionShare, collect_shares, read_position, share_binding
from p2p_dominoes.mental.tiles import TILE_COUNT, point_to_tile, tile_point, tile_text
from p2p_dominoes.words import phrase


def _read_tile(reader: Reader) -> int:
    tile = reader.u8()
    if tile >= TILE_COUNT:
        raise EncodingError(phrase("mental.why.tile_out_range", tile=tile))
    return tile


@dataclass(frozen=True)
class TileReveal:
    """Seat `seat` shows that `position` holds `tile`, with its own share and proof."""

    seat: int
    position: int
    tile: int
    share: Point
    proof: ChaumPedersenProof

    def to_bytes(self) -> bytes:
        """`tag ‖ u8(seat) ‖ u8(position) ‖ u8(tile) ‖ D[32] ‖ proof[64]`."""
        return (
            u8(MessageTag.TILE_REVEAL)
            + u8(self.seat)
            + u8(self.position)
            + u8(self.tile)
            + self.share.raw
            + self.proof.to_bytes()
        )

    @classmethod
    def from_bytes(cls, data: bytes, sender: int) -> TileReveal:
        """Decode a message sent by `sender`; InvalidMessageError if malformed."""

        def parse(r: Reader) -> TileReveal:
            position, tile = read_position(r), _read_tile(r)
            return cls(sender, position, tile, r.point(), ChaumPedersenProof.read(r))

        return decode(data, sender, MessageTag.TILE_REVEAL, "tile reveal", parse)


def reveal_tile(
    ctx: HandContext,
    keys: HandKeys,
    deck: Deck,
    position: int,
    tile: int,
    rng: RandomSource = SYSTEM_RANDOM,
) -> TileReveal:
    """Show `tile` (learnt with `open_position`) at this seat's `position`."""
    if not 0 <= position < len(deck) or not 0 <= tile < TILE_COUNT:
        raise ValueError("position or tile out of range")
    c1 = deck[position].c1
    x = keys.secret.value
    share = c1.mul(x)
    proof = ChaumPedersenProof.prove(
        share_binding(ctx, StepKind.TILE_REVEAL, position, keys.seat),
        x,
        keys.reveal.public_key,
        c1,
        share,
        rng,
    )
    return TileReveal(keys.seat, position, tile, share, proof)


def check_tile_reveal(
    ctx: HandContext,
    reveal: TileReveal,
    joint: JointKey,
    deck: Deck,
    shares: Iterable[DecryptionShare],
    *,
    shares_checked: bool = False,
) -> int:
    """Check a tile reveal against the other seats' shares for its position; return the tile.

    `shares_checked=True` skips re-verifying share proofs that the caller checked on arrival.

    InvalidMessageError blames the revealing seat for a bad share or a false claim, and any other
    seat whose share for the position is wrong or missing.
    """
    step = Step(StepKind.TILE_REVEAL, reveal.position).said
    if not 0 <= reveal.seat < ctx.seats:
        raise InvalidMessageError(reveal.seat, step, phrase("mental.why.not_seat_hand"))
    if not 0 <= reveal.position < len(deck):
        raise InvalidMessageError(reveal.seat, step, phrase("mental.why.position_out_of_range"))
    card = deck[reveal.position]
    try:
        reveal.proof.verify(
            share_binding(ctx, StepKind.TILE_REVEAL, reveal.position, reveal.seat),
            joint.seat_keys[reveal.seat],
            card.c1,
            reveal.share,
        )
    except (ProofError, GroupError) as exc:
        raise InvalidMessageError(
            reveal.seat, step, phrase("mental.why.wrong_decryption_share", reason=message_of(exc))
        ) from None
    others = collect_shares(
        ctx, joint, deck, reveal.position, reveal.seat, shares, checked=shares_checked
    )
    try:
        plain = sub(card.c2.raw, sum_points([*others, reveal.share.raw]))
    except GroupError:
        plain = b""
    if plain != tile_point(reveal.tile).raw:
        actual = point_to_tile(plain)
        found = phrase("mental.why.no_tile") if actual is None else tile_text(actual)
        raise InvalidMessageError(
            reveal.seat,
            step,
            phrase(
                "mental.why.claims_but_position_decrypts", value=tile_text(reveal.tile), found=found
            ),
        )
    return reveal.tile
