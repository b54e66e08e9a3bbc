"""Offline audit of a finished hand: re-verify every message and decrypt every position."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from p2p_dominoes.mental.context import HandContext, Step, StepKind
from p2p_dominoes.mental.elgamal import Deck
from p2p_dominoes.mental.errors import InvalidMessageError
from p2p_dominoes.mental.group import L, mul, sub
from p2p_dominoes.mental.keys import KeyCommit, KeyReveal, combine_keys
from p2p_dominoes.mental.secret_reveal import SecretReveal, check_secret_reveal
from p2p_dominoes.mental.shares import DecryptionShare, check_share
from p2p_dominoes.mental.shuffle import ShuffleStep, check_shuffles
from p2p_dominoes.mental.tile_reveal import TileReveal, check_tile_reveal
from p2p_dominoes.mental.tiles import TILE_COUNT, point_to_tile
from p2p_dominoes.words import phrase


@dataclass(frozen=True)
class HandRecord:
    """Every public mental-poker message of one hand, as authenticated by the session.

    `commits`, `reveals`, `shuffles` and `secrets` are indexed by seat; `shares` and
    `tile_reveals` are in the order they were sent.
    """

    ctx: HandContext
    commits: tuple[KeyCommit, ...]
    reveals: tuple[KeyReveal, ...]
    shuffles: tuple[ShuffleStep, ...]
    shares: tuple[DecryptionShare, ...] = ()
    tile_reveals: tuple[TileReveal, ...] = ()
    secrets: tuple[SecretReveal, ...] = ()


@dataclass(frozen=True)
class AuditReport:
    """Either the tile at every final-deck position, or the first failing message."""

    tiles: tuple[int, ...] | None
    failure: InvalidMessageError | None

    @property
    def ok(self) -> bool:
        """True when every message checked out."""
        return self.failure is None


def audit(record: HandRecord) -> AuditReport:
    """Re-verify the hand in protocol order; the first bad or missing message is reported.

    Order: key commitments and reveals, shuffles, shares, tile reveals, secrets; then every
    share is checked directly against the revealed secret and every position is decrypted.
    """
    try:
        return AuditReport(_audit(record), None)
    except InvalidMessageError as failure:
        return AuditReport(None, failure)


def _audit(record: HandRecord) -> tuple[int, ...]:
    ctx = record.ctx
    joint = combine_keys(ctx, record.commits, record.reveals)
    deck = check_shuffles(ctx, record.shuffles, joint)
    for share in record.shares:
        check_share(ctx, share, joint, deck)
    for reveal in record.tile_reveals:
        others = [
            s for s in record.shares if s.position == reveal.position and s.seat != reveal.seat
        ]
        check_tile_reveal(ctx, reveal, joint, deck, others)
    step = Step(StepKind.SECRET_REVEAL).said
    for seat in range(ctx.seats):
        if seat >= len(record.secrets) or record.secrets[seat].seat != seat:
            raise InvalidMessageError(seat, step, phrase("mental.why.per_hand_secret_not_revealed"))
        check_secret_reveal(record.secrets[seat], joint)
    secrets = [s.secret.value for s in record.secrets]
    # Redundant with the proofs, and cheap: every share must be exactly x_seat·c1.
    published: list[DecryptionShare | TileReveal] = [*record.shares, *record.tile_reveals]
    for item in published:
        if mul(secrets[item.seat], deck[item.position].c1.raw) != item.share.raw:
            raise InvalidMessageError(
                item.seat,
                phrase("mental.why.step_audit_share", index=item.position),
                phrase("mental.why.share_not_x_c1"),
            )
    return decrypt_deck(deck, record.secrets)


def decrypt_deck(deck: Deck, secrets: Sequence[SecretReveal]) -> tuple[int, ...]:
    """The tile at every position of a checked deck, from every seat's checked secret.

    For a peer that verified every message as it arrived, this is the whole end-of-hand
    decryption; `audit` re-verifies everything first.
    """
    joint_secret = sum(s.secret.value for s in secrets) % L
    tiles = []
    for card in deck.cards:
        tile = point_to_tile(sub(card.c2.raw, mul(joint_secret, card.c1.raw)))
        if tile is None:  # the shuffle proofs make this unreachable
            raise RuntimeError("a checked deck decrypted to a non-tile")
        tiles.append(tile)
    if sorted(tiles) != list(range(TILE_COUNT)):
        raise RuntimeError("a checked deck does not hold every tile once")
    return tuple(tiles)
