"""This peer's own duties: the messages it must sign when its turn comes in a phase that is not
a game decision (its genesis signature, key commit and reveal, shuffle, deal shares, its lead
claim, draw shares, its hand reveal and its secret, v4: its signature on a continuation when it
agrees by default), and the body of its own v3 play.

Every message made here goes through the same validation as any peer's before it is sent.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from p2p_dominoes import mental
from p2p_dominoes.engine import Play, Tile
from p2p_dominoes.engine.opening import best_of
from p2p_dominoes.mental import Step, StepKind
from p2p_dominoes.session import hand_messages as msg
from p2p_dominoes.session import leaving, legacy, tile_proofs
from p2p_dominoes.session.deal import dealt_positions
from p2p_dominoes.session.envelope import FIRST_VERSION, SECOND_VERSION, Envelope
from p2p_dominoes.session.events import Update
from p2p_dominoes.session.genesis_signing import sign_genesis
from p2p_dominoes.session.hand_in_play import HandInPlay
from p2p_dominoes.session.leave_messages import CONTINUE, CONTINUE_SIGN
from p2p_dominoes.session.phases import Phase
from p2p_dominoes.session.schema import Wire
from p2p_dominoes.session.turns import place_body

if TYPE_CHECKING:
    from p2p_dominoes.session.table import TableSession


def send_automatic(session: TableSession, update: Update) -> None:
    """Sign and accept every message that is this peer's to send now (not game actions)."""
    intake = session._intake
    while session.seat is not None:
        expected = session.expected
        if expected is None or expected[0] != session.seat:
            return
        if session.phase in DECISIONS and not _giving_back(session):
            return
        asks_first = session.phase is Phase.CONTINUE and not session.agrees_by_default
        if asks_first and not _giving_back(session):
            return  # a person is asked first (`TableSession.agree_to_continue`)
        # §16.1: a returning player's request goes on the table at a hand's start, before our
        # own commit of that hand.
        envelope = session._come_back_message() or session._automatic_message()
        if not intake.accept(envelope, update, own=True):
            return
        update.outgoing.append(envelope.encode())
        intake.drain(update)


DECISIONS: Final = (Phase.TURNS, Phase.LEAVING)
"""Phases whose message this peer never sends on its own: a game action, and the continuation
(which names the new holder's key: `TableSession.propose_continue`)."""


def _giving_back(session: TableSession) -> bool:
    """§16.1: the continuation after a come_back names no one new (the player who asked): it
    is proposed without a decision, and every seat signs it without asking its person (the
    seat goes back to the player it was taken from; nobody is asked to trust a newcomer)."""
    hand = session.hand
    return (
        session.phase in (Phase.LEAVING, Phase.CONTINUE)
        and hand is not None
        and hand.returning is not None
    )


def automatic_message(session: TableSession) -> Envelope:
    """The message this peer owes in the current phase (it is this seat's turn)."""
    phase, hand, seat = session.phase, session.hand, session.seat
    if phase is Phase.LEAVING and hand is not None and hand.returning is not None:
        return session._sign(CONTINUE, leaving.proposal(session, *hand.returning).to_body())
    if phase is Phase.SETUP:
        identity, nonce = session._identity, session._table_nonce
        assert identity is not None and seat is not None and nonce is not None
        return sign_genesis(session.transcript, identity, seat, nonce)
    if phase is Phase.CONTINUE:  # v4: the new holder's keys play no part here
        return continue_sign_message(session)
    assert hand is not None and hand.keys is not None and seat is not None
    number, keys, rng = hand.number, hand.keys, session._rng
    if phase is Phase.COMMIT:
        return session._sign(msg.KEY_COMMIT, (number, keys.commit.to_bytes()))
    if phase is Phase.REVEAL:
        return session._sign(msg.KEY_REVEAL, (number, keys.reveal.to_bytes()))
    assert hand.joint is not None
    if phase is Phase.SHUFFLE:
        step = mental.shuffle_deck(hand.ctx, seat, hand.joint, hand.deck, rng)
        return session._sign(msg.SHUFFLE, (number, step.to_bytes()))
    if phase is Phase.DEAL:
        shares = tuple(
            mental.make_share(hand.ctx, keys, hand.deck, p, rng).to_bytes()
            for p in dealt_positions(session, hand, seat)
        )
        return session._sign(msg.DEAL, (number, shares))
    if phase is Phase.LEAD_CLAIM:
        return _lead_claim(session, hand, seat)
    if phase is Phase.DRAW_SHARES:
        share = mental.make_share(hand.ctx, keys, hand.deck, hand.next_position - 1, rng)
        return session._sign(msg.DRAW_SHARE, (number, share.to_bytes()))
    if phase is Phase.HAND_REVEAL:
        reveals = tuple(
            mental.reveal_tile(hand.ctx, keys, hand.deck, p, hand.known[p].index, rng).to_bytes()
            for p in sorted(hand.held[seat])
            if hand.known[p] not in hand.tiles_played  # v3: held keeps played positions
        )
        return session._sign(msg.HAND_REVEAL, (number, reveals))
    assert phase is Phase.SECRET_REVEAL
    return session._sign(msg.SECRET_REVEAL, (number, mental.reveal_secret(keys).to_bytes()))


def continue_sign_message(session: TableSession) -> Envelope:
    """This seat's signature on the continuation proposed after a goodbye (§16)."""
    hand = session.hand
    assert hand is not None and hand.continuation is not None
    return session._sign(CONTINUE_SIGN, (hand.number, hand.continuation))


def _lead_claim(session: TableSession, hand: HandInPlay, seat: int) -> Envelope:
    """This peer's lead claim: its best tile if that beats the claims so far, else nil."""
    mine = {hand.known[p]: p for p in hand.held[seat]}
    best: Tile | None
    if session.version == FIRST_VERSION:
        best = legacy.best_lead_v1(mine)
    else:
        best = best_of(hand.rank, mine)
        if best is not None and hand.rank_of(best) >= hand.bound:
            best = None  # nothing that beats the best claim so far: say nothing
    if session.version <= SECOND_VERSION:
        return legacy.lead_claim_message(session, hand, best, mine)
    claim = None
    if best is not None:
        step = Step(StepKind.LEAD_CLAIM)
        proof = tile_proofs.prove(hand, seat, step, best, hand.held[seat], session._rng)
        claim = (best.index, proof)
    return session._sign(msg.LEAD_CLAIM3, (hand.number, claim))


def play3_body(session: TableSession, hand: HandInPlay, play: Play) -> tuple[Wire, ...]:
    """The body of this peer's v3 `play3`: the tile, its proof, `drawn` when the rules score a
    tile drawn in this turn apart, and its place."""
    seat = session.seat
    assert seat is not None
    real = next(p for p in hand.held[seat] if hand.known.get(p) is play.tile)
    rules = session.rules
    drawn = (
        real in tile_proofs.drawn_now(hand) if tile_proofs.scores_apart(rules, hand, play) else None
    )
    positions = tile_proofs.proof_set(rules, hand, seat, play, drawn)
    step = tile_proofs.play_step(hand)
    proof = tile_proofs.prove(hand, seat, step, play.tile, positions, session._rng)
    return (hand.number, play.tile.index, proof, drawn, *place_body(play))
