"""Protocol versions 1 and 2, kept only to verify and resume old logs (today's is v3).

v1: the first protocol; in the first hand of a highest-double match every seat reveals its best
lead. v2 (PROTOCOL.md §10.5): lead claims come in any hand whose opening the deal decides, each
beating the best so far or nil, stopping at the rank-0 tile. Under both a play and a claim reveal
the tile at its position (v3 shows the tile with an OR-proof instead, never the position), and a
seat's held positions shrink as it plays.

Here: the v1/v2 validators (lead claims, plays, the hand reveal's check), v1's opening, v1's
audit of the claims, and this peer's own v1/v2 plays and claims.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from p2p_dominoes import mental
from p2p_dominoes.engine import (
    FirstOpener,
    IllegalAction,
    Play,
    Tile,
    highest_double_lead,
)
from p2p_dominoes.mental import TileReveal
from p2p_dominoes.session import hand_messages as msg
from p2p_dominoes.session import opening
from p2p_dominoes.session.checks import Effect, bad, check_reveal, tile_text
from p2p_dominoes.session.envelope import FIRST_VERSION, Envelope
from p2p_dominoes.session.events import Event
from p2p_dominoes.session.hand_in_play import HandInPlay
from p2p_dominoes.session.phases import Trigger
from p2p_dominoes.session.schema import Wire
from p2p_dominoes.session.turns import lay, place_body, play_of
from p2p_dominoes.words import phrase

if TYPE_CHECKING:
    from p2p_dominoes.session.table import TableSession


def open_hand_v1(session: TableSession, hand: HandInPlay) -> list[Event]:
    """v1 after the deal: claims in the first hand of a highest-double match, else turns."""
    if (
        session.match.opening_number == 1
        and session.rules.first_opener is FirstOpener.HIGHEST_DOUBLE
    ):
        session._move(Trigger.CLAIMS_OPEN)
        return []
    opener, must_lead = session.match.next_opener([], opening.lottery(hand))
    return opening.start_turns(session, hand, opener, must_lead)


def lead_claim(session: TableSession, hand: HandInPlay, envelope: Envelope, own: bool) -> Effect:
    """A v1/v2 lead claim: a revealed tile (v2: one that beats the bound), or nil (v2 only)."""
    data = envelope.field("reveal")
    if data is None and session.version == FIRST_VERSION:
        raise bad("bad-body", phrase("session.why.lead_claim_reveal_version_1"))
    checked = None
    if data is not None:
        checked = check_reveal(hand, envelope, data, hand.held[envelope.seat])
        if session.version != FIRST_VERSION:
            tile = checked[1]
            if hand.rank_of(tile) >= hand.bound:
                raise IllegalAction(
                    envelope.seat, phrase("session.action.claim", tile=tile.text), hand.beat()
                )

    def apply() -> list[Event]:
        hand.claim_indices.append(len(session.transcript) - 1)
        hand.claim_bounds.append(hand.bound)
        if checked is None:
            hand.claims.append(None)
        else:
            hand.tile_reveals.append(checked[0])
            hand.claims.append(checked[1])
        if session.version == FIRST_VERSION:
            if len(hand.claims) < session.players:
                return []
            tiles = [[t] for t in hand.claims if t is not None]
            opener, must_lead = highest_double_lead(tiles)
            return opening.start_turns(session, hand, opener, must_lead)
        if checked is not None:
            hand.bound = hand.rank_of(checked[1])
        if hand.bound == 0 or len(hand.claims) == session.players:
            return opening.end_claims(session, hand)  # early stop: nothing beats the rank-0 tile
        return []

    return apply


def play(session: TableSession, hand: HandInPlay, envelope: Envelope, own: bool) -> Effect:
    """A v1/v2 play: the tile revealed at its position, and its place."""
    seat = envelope.seat
    assert hand.public is not None
    reveal, tile = check_reveal(hand, envelope, envelope.field("reveal"), hand.held[seat])
    checked = hand.public.check_play(seat, play_of(session, envelope, tile))
    # Threes for luck scores a tile drawn in this turn apart: this turn's draws took the
    # last positions dealt out, so the reveal's position says it publicly.
    from_draw = reveal.position >= hand.next_position - hand.public.draws_this_turn

    def apply() -> list[Event]:
        hand.held[seat].remove(reveal.position)
        hand.tile_reveals.append(reveal)
        hand.played[reveal.position] = tile
        return lay(session, hand, seat, checked, from_draw)

    return apply


def check_hand_reveals(
    hand: HandInPlay, envelope: Envelope, raw: Sequence[Wire], held: Sequence[int]
) -> list[tuple[TileReveal, Tile]]:
    """v1/v2: the seat reveals exactly the positions it still holds, in order."""
    if len(raw) != len(held):
        raise bad(
            "bad-reveal",
            phrase("session.why.reveals_tiles_but_holds", count=len(raw), count2=len(held)),
        )
    checked = [check_reveal(hand, envelope, data, held) for data in raw]
    if [r.position for r, _ in checked] != list(held):
        raise bad("bad-reveal", phrase("session.why.revealed_positions_not_positions_holds"))
    return checked


def faulty_claim_v1(
    hand: HandInPlay, hands: Sequence[Sequence[Tile]]
) -> tuple[int, str, int] | None:
    """v1's audit of the claims: every seat revealed its best lead. The first seat that did
    not (its seat, the reason and its claim's transcript index), or None."""
    for seat, claim in enumerate(hand.claims):
        lead = highest_double_lead([hands[seat]])[1]
        if claim is not lead:
            reason = phrase(
                "session.why.claim_not_best_lead", claim=tile_text(claim), lead=lead.text
            )
            return seat, reason, hand.claim_indices[seat]
    return None


def best_lead_v1(mine: Mapping[Tile, int]) -> Tile | None:
    """v1: the lead this peer claims (its highest double, else its heaviest tile)."""
    return highest_double_lead([list(mine)])[1]


def lead_claim_message(
    session: TableSession, hand: HandInPlay, best: Tile | None, mine: Mapping[Tile, int]
) -> Envelope:
    """This peer's v1/v2 lead claim: `best` revealed at its position, or nil."""
    assert hand.keys is not None
    if best is None:
        return session._sign(msg.LEAD_CLAIM, (hand.number, None))
    reveal = mental.reveal_tile(
        hand.ctx, hand.keys, hand.deck, mine[best], best.index, session._rng
    )
    return session._sign(msg.LEAD_CLAIM, (hand.number, reveal.to_bytes()))


def play_body(session: TableSession, hand: HandInPlay, play: Play) -> tuple[Wire, ...]:
    """The body of this peer's v1/v2 `play`: the tile revealed at its position, its place."""
    assert hand.keys is not None and session.seat is not None
    position = next(p for p in hand.held[session.seat] if hand.known[p] is play.tile)
    reveal = mental.reveal_tile(
        hand.ctx, hand.keys, hand.deck, position, play.tile.index, session._rng
    )
    return (hand.number, reveal.to_bytes(), *place_body(play))
