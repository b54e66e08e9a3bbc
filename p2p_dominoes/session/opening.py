"""Who opens a hand, once the deal is out: a lead-claim phase when the deal decides it
(PROTOCOL.md §10.5), else the match's opening rule; and how turns begin.

Also how this peer opens its own positions (its tiles, and a tile it drew).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from p2p_dominoes import mental
from p2p_dominoes.engine import TILES, InvalidRecord, PublicHand, Tile
from p2p_dominoes.engine.opening import Opening
from p2p_dominoes.session.events import Event, OpenerChosen
from p2p_dominoes.session.hand_in_play import HandInPlay
from p2p_dominoes.session.phases import Trigger

if TYPE_CHECKING:
    from p2p_dominoes.session.table import TableSession


def lottery(hand: HandInPlay) -> int:
    """The hand's lottery value, known once every key share is revealed."""
    assert hand.joint is not None
    return int.from_bytes(hand.joint.lottery, "big")


def open_hand(session: TableSession, hand: HandInPlay) -> list[Event]:
    """After the deal (v2, v3): a claim phase when the deal decides the opener, else turns."""
    hand.rank = session.match.rank_list()
    if hand.rank:
        full_deal = session.players * hand.size == len(TILES)
        hand.bound = 1 if full_deal else len(hand.rank)
        session._move(Trigger.CLAIMS_OPEN)
        return []
    return opening_found(session, hand, session.match.unclaimed_opening(lottery(hand)))


def opening_found(session: TableSession, hand: HandInPlay, opening: Opening) -> list[Event]:
    """Turns begin with `opening`'s seat; a void opening goes straight to the secrets."""
    if opening.void or opening.seat is None:
        hand.unopened = True
        session._move(Trigger.NO_OPENER)  # nothing was played: the secrets open every tile
        return []
    return start_turns(session, hand, opening.seat, opening.must_lead)


def end_claims(session: TableSession, hand: HandInPlay) -> list[Event]:
    """The best claim's seat leads its tile; with no claim, the fallback decides."""
    best = [(hand.rank_of(t), s) for s, t in enumerate(hand.claims) if t is not None]
    if best:
        index, seat = min(best)
        return start_turns(session, hand, seat, hand.rank[index])
    try:
        opening = session.match.fallback_opening(lottery(hand))
    except InvalidRecord:  # a fallback the deal decides: some seat hid its claim
        opening = Opening(None)
    return opening_found(session, hand, opening)


def start_turns(
    session: TableSession, hand: HandInPlay, opener: int, must_lead: Tile | None
) -> list[Event]:
    """The public hand begins with `opener` to move (leading `must_lead` when it is given)."""
    hand.public = PublicHand(session.rules, session.players, opener, must_lead)
    hand.public.match_scores = session.match.seat_scores  # a seat reads its pair's total
    session._move(Trigger.OPENER_FOUND)
    return [OpenerChosen(opener, must_lead)]


def open_own(hand: HandInPlay, positions: Sequence[int]) -> tuple[Tile, ...]:
    """This peer's tiles at `positions` (every other seat's share of them is in)."""
    assert hand.keys is not None and hand.joint is not None
    for position in positions:
        index = mental.open_position(
            hand.ctx, hand.keys, hand.joint, hand.deck, position, hand.shares_for(position)
        )
        hand.known[position] = TILES[index]
    return tuple(hand.known[p] for p in positions)
