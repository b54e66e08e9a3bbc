"""The end-of-hand audit: once every seat revealed its per-hand secret, decrypt the whole deck,
check each lead claim against the seat's true hand, replay the hand on the full engine (what
needed hidden tiles is checked here), score it, and go on to the next hand or end the match.

A fault found here names its seat with the signed message the audit faults as evidence.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from p2p_dominoes import mental
from p2p_dominoes.engine import TILES, IllegalAction, InvalidRecord, MatchOutcome, Tile, record_of
from p2p_dominoes.engine.opening import best_of
from p2p_dominoes.mental.errors import message_of
from p2p_dominoes.session import legacy
from p2p_dominoes.session.checks import tile_text
from p2p_dominoes.session.envelope import FIRST_VERSION
from p2p_dominoes.session.events import (
    Blame,
    CheatingDetected,
    Event,
    HandEnded,
    HandRedealt,
    MatchEnded,
)
from p2p_dominoes.session.hand_in_play import HandInPlay
from p2p_dominoes.session.hand_messages import MAX_HANDS
from p2p_dominoes.session.opening import lottery
from p2p_dominoes.session.phases import Trigger
from p2p_dominoes.words import phrase

if TYPE_CHECKING:
    from p2p_dominoes.session.table import TableSession


def audit(session: TableSession, hand: HandInPlay) -> list[Event]:
    """Decrypt everything, replay the hand on the full engine, score it, go on."""
    # Every proof, share and claim was verified as it arrived and every secret matches its
    # key, so decrypting the final deck with the secrets is all that is left to do.
    players = session.players
    try:
        tiles_by_position = mental.decrypt_deck(hand.deck, hand.secrets)
    except RuntimeError as exc:  # unreachable once every proof checked out
        return audit_blame(
            session,
            0,
            phrase("session.why.final_deck_does_not_decrypt", reason=message_of(exc)),
            "audit",
        )
    tiles = [TILES[i] for i in tiles_by_position]
    size = hand.size
    hands = [tiles[s * size : (s + 1) * size] for s in range(players)]
    boneyard = tiles[players * size :]
    for position, tile in hand.known.items():
        if tiles[position] is not tile:  # cannot happen once every proof checked out
            return audit_blame(
                session,
                0,
                phrase("session.why.position_decrypts_differently", position=position),
                "audit",
            )
    drawn = lottery(hand)
    blamed = _audit_claims(session, hand, hands)
    if blamed is not None:
        return blamed
    if hand.unopened:
        return _void_hand(session, hand, hands, drawn)
    assert hand.public is not None
    match = session.match
    try:
        state = match.start_hand(hands, boneyard, drawn)
    except InvalidRecord as exc:
        return audit_blame(
            session, 0, phrase("session.why.deal_not_set_28_tiles", reason=message_of(exc)), "audit"
        )
    if state is None or state.opener != hand.public.opener:
        # Unreachable once the claims passed: honest claims find the deal's own opener.
        return audit_blame(session, 0, phrase("session.why.claims_do_not_give_deal"), "audit")
    for number, (seat, action) in enumerate(hand.public.history):
        try:
            state.apply(seat, action)
        except IllegalAction as exc:
            reason = phrase("session.why.found_at_audit", action=exc.action, rule=exc.rule)
            index = hand.action_indices[number]
            return audit_blame(session, seat, reason, "audit-rules", index)
    result = state.result
    if result is None:
        return audit_blame(
            session, hand.public.turn, phrase("session.why.hand_did_not_end_as"), "audit-rules"
        )
    before = tuple(match.scores)
    # The record's `hand` is the number the opening rule reads (counted hands + 1), so the
    # engine alone replays it; after a void hand it differs from the wire's hand number.
    opening_number = match.opening_number
    outcome = match.finish_hand(state)
    left = tuple(tuple(state.hand_of(s)) for s in range(players))
    record = record_of(state, before, opening_number)
    ended = HandEnded(hand.number, result, left, tuple(match.scores), record)
    session.hands_ended.append(ended)
    return [ended, *_next_hand(session, outcome)]


def _next_hand(session: TableSession, outcome: MatchOutcome) -> list[Event]:
    """The match ends (its goal, or the genesis's number of counted hands), or the next
    hand is dealt — also after a void hand, which counts nothing."""
    played = session.match.counted_hands
    done = session.max_hands is not None and played >= session.max_hands
    if outcome.over or done or session._hands_begun >= MAX_HANDS:
        session._move(Trigger.MATCH_OVER)
        return [MatchEnded(outcome, tuple(session.match.scores), played, session.max_hands)]
    return session._begin_hand()


def _audit_claims(
    session: TableSession, hand: HandInPlay, hands: Sequence[Sequence[Tile]]
) -> list[Event] | None:
    """Each lead claim against the seat's true best (the blame, or None when all hold).

    v1 (see `legacy`): every seat revealed its best lead. v2/v3: a revealed claim is the seat's
    best ranked tile; a nil claim hid nothing that beat the bound the seat saw.
    """
    if session.version == FIRST_VERSION:
        fault = legacy.faulty_claim_v1(hand, hands)
        if fault is None:
            return None
        seat, reason, index = fault
        return audit_blame(session, seat, reason, "audit-claim", index)
    for seat, claim in enumerate(hand.claims):
        index = hand.claim_indices[seat]
        best = best_of(hand.rank, hands[seat])
        if claim is not None and claim is not best:
            reason = phrase("session.why.claim_not_best", claim=claim.text, best=tile_text(best))
            return audit_blame(session, seat, reason, "audit-claim", index)
        bound = hand.claim_bounds[seat]
        if claim is None and best is not None and hand.rank_of(best) < bound:
            reason = phrase("session.why.claimed_nothing_but_held", best=best.text)
            return audit_blame(session, seat, reason, "audit-claim", index)
    return None


def _void_hand(
    session: TableSession, hand: HandInPlay, hands: Sequence[Sequence[Tile]], drawn: int
) -> list[Event]:
    """No seat could open (a redeal): the hand counts nothing; the next one is dealt."""
    match = session.match
    found = match.opening(hands, drawn) if hand.rank else match.unclaimed_opening(drawn)
    if not found.void:  # honest claims always agree with the deal; keep the table safe
        return audit_blame(session, 0, phrase("session.why.claims_found_no_opener_but"), "audit")
    outcome = match.void_hand()
    dealt = tuple(tuple(tiles) for tiles in hands)
    return [HandRedealt(hand.number, dealt), *_next_hand(session, outcome)]


def audit_blame(
    session: TableSession, seat: int, reason: str, code: str, index: int | None = None
) -> list[Event]:
    """Name `seat`; `index` is the transcript index of the message the audit faults."""
    at = len(session.transcript) - 1 if index is None else index
    evidence = (session.transcript[at].encoded,)
    blame = Blame(seat, reason, code, evidence, index=at)
    session.blame = blame
    session._move(Trigger.BLAMED)
    return [CheatingDetected(blame)]
