"""The validator of the lead-claim phase under protocol v3 (PROTOCOL.md §10.5, §10.6).

In a hand whose opening the deal decides, each seat in turn claims the lead with a tile that
beats the best claim so far, shown with an OR-proof that it is at one of its positions, or
claims nothing; the phase stops at the rank-0 tile. Version 1/2 claims are in `legacy`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from p2p_dominoes import mental
from p2p_dominoes.engine import TILES, IllegalAction
from p2p_dominoes.mental import Step, StepKind
from p2p_dominoes.session import opening, tile_proofs
from p2p_dominoes.session.checks import Effect
from p2p_dominoes.session.envelope import Envelope
from p2p_dominoes.session.events import Event
from p2p_dominoes.session.hand_in_play import HandInPlay
from p2p_dominoes.words import phrase

if TYPE_CHECKING:
    from p2p_dominoes.session.table import TableSession


def lead_claim3(session: TableSession, hand: HandInPlay, envelope: Envelope, own: bool) -> Effect:
    """A v3 lead claim: a tile that beats the bound with its proof, or nil."""
    seat, claim = envelope.seat, envelope.field("claim")
    tile = None
    if claim is not None:
        assert isinstance(claim, tuple) and hand.joint is not None
        index, proof = claim
        assert isinstance(index, int) and isinstance(proof, bytes)
        tile = TILES[index]
        if hand.rank_of(tile) >= hand.bound:
            raise IllegalAction(seat, phrase("session.action.claim", tile=tile.text), hand.beat())
        if not own:
            step = Step(StepKind.LEAD_CLAIM)
            branches = tile_proofs.branches(hand, seat, hand.held[seat])
            mental.check_tile(hand.ctx, seat, step, index, proof, hand.joint, branches)

    def apply() -> list[Event]:
        hand.claim_indices.append(len(session.transcript) - 1)
        hand.claim_bounds.append(hand.bound)
        hand.claims.append(tile)
        if tile is not None:
            hand.bound = hand.rank_of(tile)
        if hand.bound == 0 or len(hand.claims) == session.players:
            return opening.end_claims(session, hand)  # early stop: nothing beats the rank-0 tile
        return []

    return apply
