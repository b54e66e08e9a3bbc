"""The validators of a hand's first phases: key commits, key reveals, shuffles and the deal.

Each takes one message of its phase and returns the state change it makes (see `checks`); the
last message of a phase names the move to the next one (`phases.Trigger`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from p2p_dominoes import mental
from p2p_dominoes.mental import DecryptionShare, KeyCommit, KeyReveal, ShuffleStep
from p2p_dominoes.session import legacy, opening
from p2p_dominoes.session.checks import Effect, bad, field_bytes
from p2p_dominoes.session.envelope import FIRST_VERSION, Envelope
from p2p_dominoes.session.events import Event, ShuffleVerified, TilesDealt
from p2p_dominoes.session.hand_in_play import HandInPlay
from p2p_dominoes.session.phases import Trigger
from p2p_dominoes.words import phrase

if TYPE_CHECKING:
    from p2p_dominoes.session.table import TableSession


def key_commit(session: TableSession, hand: HandInPlay, envelope: Envelope, own: bool) -> Effect:
    """A seat's commitment to its per-hand keys (COMMIT)."""
    commit = KeyCommit.from_bytes(field_bytes(envelope, "commit"), envelope.seat)

    def apply() -> list[Event]:
        hand.commits.append(commit)
        if len(hand.commits) == session.players:
            session._move(Trigger.KEYS_COMMITTED)
        return []

    return apply


def key_reveal(session: TableSession, hand: HandInPlay, envelope: Envelope, own: bool) -> Effect:
    """A seat's key share, against its commitment; the last one makes the joint key (REVEAL)."""
    reveal = KeyReveal.from_bytes(field_bytes(envelope, "reveal"), envelope.seat)
    mental.check_key_reveal(hand.ctx, hand.commits[envelope.seat], reveal)
    joint = None
    if len(hand.reveals) + 1 == session.players:
        joint = mental.combine_keys(hand.ctx, hand.commits, [*hand.reveals, reveal])

    def apply() -> list[Event]:
        hand.reveals.append(reveal)
        if joint is not None:
            hand.joint = joint
            hand.decks.append(mental.starting_deck(joint))
            session._move(Trigger.KEYS_REVEALED)
        return []

    return apply


def shuffle(session: TableSession, hand: HandInPlay, envelope: Envelope, own: bool) -> Effect:
    """A seat's shuffle of the deck with its proof (SHUFFLE)."""
    step = ShuffleStep.from_bytes(field_bytes(envelope, "step"), envelope.seat)
    assert hand.joint is not None
    deck = step.deck if own else mental.check_shuffle(hand.ctx, step, hand.joint, hand.deck)

    def apply() -> list[Event]:
        hand.shuffles.append(step)
        hand.decks.append(deck)
        done = len(hand.shuffles)
        if done == session.players:
            session._move(Trigger.SHUFFLED)
        return [ShuffleVerified(envelope.seat, done, session.players)]

    return apply


def dealt_positions(session: TableSession, hand: HandInPlay, sharer: int) -> list[int]:
    """The positions `sharer` gives a decryption share of in the deal: every other seat's."""
    return [p for s in range(session.players) if s != sharer for p in hand.held[s]]


def deal(session: TableSession, hand: HandInPlay, envelope: Envelope, own: bool) -> Effect:
    """A seat's decryption shares of every other seat's positions (DEAL); after the last one
    this peer opens its tiles and the hand's opening is found."""
    sharer = envelope.seat
    raw = envelope.field("shares")
    assert isinstance(raw, tuple)
    positions = dealt_positions(session, hand, sharer)
    if len(raw) != len(positions):
        raise bad(
            "bad-deal",
            phrase("session.why.shares_deal_needs", count=len(raw), count2=len(positions)),
        )
    shares = []
    assert hand.joint is not None
    for position, data in zip(positions, raw, strict=True):
        assert isinstance(data, bytes)
        share = DecryptionShare.from_bytes(data, sharer)
        if share.position != position:
            raise bad(
                "bad-deal",
                phrase(
                    "session.why.share_position_expected",
                    position=share.position,
                    position2=position,
                ),
            )
        if not own:
            mental.check_share(hand.ctx, share, hand.joint, hand.deck)
        shares.append(share)

    def apply() -> list[Event]:
        for share in shares:
            hand.shares.setdefault(share.position, []).append(share)
        hand.all_shares.extend(shares)
        hand.deals += 1
        if hand.deals < session.players:
            return []
        events: list[Event] = []
        if session.seat is not None:
            events.append(TilesDealt(opening.open_own(hand, hand.held[session.seat])))
        if session.version == FIRST_VERSION:
            return [*events, *legacy.open_hand_v1(session, hand)]
        return [*events, *opening.open_hand(session, hand)]

    return apply
