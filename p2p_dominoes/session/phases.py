"""The table's phases as data: which messages each phase takes, whose turn it is, and every
allowed move from one phase to the next (h11's `_state.py` is the model).

A session changes its phase in one place only (`TableSession._move`, through `next_phase`): a
validator or the audit names what happened (a `Trigger`), and this table says where that leads.
A (phase, trigger) pair that is not in `TRANSITIONS` is a bug in the session, never a peer's
fault, and raises `PhaseError`. To add a phase or a move, see docs/contributing.md ("A phase").

The order of a hand (PROTOCOL.md §10):
commit → reveal → shuffles in seat order → deal shares in seat order → (lead claims) → turns
(a draw is followed by the other seats' shares for the drawn position) → hand reveals → secrets →
audit → next hand, until the match (or the number of hands the genesis fixes) is over.

v4 (§16): in any phase of a hand a `goodbye` says a seat is gone; the hand is void (LEAVING),
the lowest remaining seat proposes the continuation, every other seat signs it (CONTINUE), and
the next hand begins with the leaver's seat held by its new key.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from typing import Final

from p2p_dominoes.session import hand_messages as msg
from p2p_dominoes.session.envelope import SECOND_VERSION, THIRD_VERSION, MessageType
from p2p_dominoes.session.genesis import GENESIS_SIGN
from p2p_dominoes.session.hand_in_play import HandInPlay
from p2p_dominoes.session.leave_messages import CONTINUE, CONTINUE_SIGN


class Phase(enum.Enum):
    """Where the table stands: which message it waits for next."""

    SETUP = "setup"
    COMMIT = "commit"
    REVEAL = "reveal"
    SHUFFLE = "shuffle"
    DEAL = "deal"
    LEAD_CLAIM = "lead claim"
    TURNS = "turns"
    DRAW_SHARES = "draw shares"
    HAND_REVEAL = "hand reveal"
    SECRET_REVEAL = "secret reveal"  # noqa: S105 - a phase name, not a password
    LEAVING = "leaving"
    CONTINUE = "continue"
    OVER = "over"
    HALTED = "halted"


class Trigger(enum.Enum):
    """What happened that moves the table to another phase (the value says it in words)."""

    HAND_BEGINS = "a hand begins: every seat commits to its keys"
    KEYS_COMMITTED = "every seat committed to its keys"
    KEYS_REVEALED = "every seat revealed its key share: the deck is made"
    SHUFFLED = "every seat shuffled"
    CLAIMS_OPEN = "the deal is out and decides the opener: the seats claim the lead"
    OPENER_FOUND = "the opener is known: turns begin"
    NO_OPENER = "nobody can open: the secrets open every tile (a redeal)"
    DREW = "a seat drew: the others share the drawn position"
    DRAW_OPENED = "every share of the drawn position is in: turns go on"
    HAND_OVER = "the hand is over: every seat shows what it has left"
    HANDS_SHOWN = "every seat showed its tiles: the secrets follow"
    MATCH_OVER = "the audit passed and the match is over"
    BLAMED = "a seat was named: the table stops"
    LEFT = "a seat is gone (its goodbye, or another's word that it stalled): the hand is void"
    PROPOSED = "the lowest remaining seat proposed the continuation: the others sign it"
    COMES_BACK = "at a hand's start, a seat's former holder asks it back: the hand is set aside"


HAND_PHASES: Final = (
    Phase.COMMIT,
    Phase.REVEAL,
    Phase.SHUFFLE,
    Phase.DEAL,
    Phase.LEAD_CLAIM,
    Phase.TURNS,
    Phase.DRAW_SHARES,
    Phase.HAND_REVEAL,
    Phase.SECRET_REVEAL,
)
"""The phases of a hand in play: a goodbye (v4) may come in any of them."""

TRANSITIONS: Final[Mapping[tuple[Phase, Trigger], Phase]] = {
    (Phase.SETUP, Trigger.HAND_BEGINS): Phase.COMMIT,
    (Phase.COMMIT, Trigger.KEYS_COMMITTED): Phase.REVEAL,
    (Phase.REVEAL, Trigger.KEYS_REVEALED): Phase.SHUFFLE,
    (Phase.SHUFFLE, Trigger.SHUFFLED): Phase.DEAL,
    (Phase.DEAL, Trigger.CLAIMS_OPEN): Phase.LEAD_CLAIM,
    (Phase.DEAL, Trigger.OPENER_FOUND): Phase.TURNS,
    (Phase.DEAL, Trigger.NO_OPENER): Phase.SECRET_REVEAL,
    (Phase.LEAD_CLAIM, Trigger.OPENER_FOUND): Phase.TURNS,
    (Phase.LEAD_CLAIM, Trigger.NO_OPENER): Phase.SECRET_REVEAL,
    (Phase.TURNS, Trigger.DREW): Phase.DRAW_SHARES,
    (Phase.DRAW_SHARES, Trigger.DRAW_OPENED): Phase.TURNS,
    (Phase.TURNS, Trigger.HAND_OVER): Phase.HAND_REVEAL,
    (Phase.HAND_REVEAL, Trigger.HANDS_SHOWN): Phase.SECRET_REVEAL,
    (Phase.SECRET_REVEAL, Trigger.HAND_BEGINS): Phase.COMMIT,  # the audit passed (or a redeal)
    (Phase.SECRET_REVEAL, Trigger.MATCH_OVER): Phase.OVER,
    # v4 (§16): a goodbye makes the hand in play void, in whichever of its phases it comes.
    **{(phase, Trigger.LEFT): Phase.LEAVING for phase in HAND_PHASES},
    (Phase.COMMIT, Trigger.COMES_BACK): Phase.LEAVING,  # §16.1: a come_back, then `continue`
    (Phase.LEAVING, Trigger.PROPOSED): Phase.CONTINUE,
    (Phase.CONTINUE, Trigger.HAND_BEGINS): Phase.COMMIT,  # every remaining seat signed
    # A blame stops the table from any phase, OVER included (a message after the match's end).
    **{(phase, Trigger.BLAMED): Phase.HALTED for phase in Phase if phase is not Phase.HALTED},
}
"""Every allowed move: (phase, what happened) → the next phase."""

FINAL: Final = frozenset({Phase.OVER, Phase.HALTED})
"""The phases that expect no more messages."""


class PhaseError(RuntimeError):
    """A move the phase table does not allow: a bug in the session, not a peer's fault."""


def next_phase(phase: Phase, trigger: Trigger) -> Phase:
    """The phase `trigger` leads to from `phase`; PhaseError if the table has no such move."""
    try:
        return TRANSITIONS[phase, trigger]
    except KeyError:
        raise PhaseError(f"no move from {phase.value!r} on {trigger.name}") from None


PHASE_TYPES: Final[Mapping[Phase, tuple[MessageType, ...]]] = {
    Phase.SETUP: (GENESIS_SIGN,),
    Phase.COMMIT: (msg.KEY_COMMIT,),
    Phase.REVEAL: (msg.KEY_REVEAL,),
    Phase.SHUFFLE: (msg.SHUFFLE,),
    Phase.DEAL: (msg.DEAL,),
    Phase.LEAD_CLAIM: (msg.LEAD_CLAIM,),
    Phase.TURNS: (msg.PLAY, msg.DRAW, msg.PASS, msg.SKIP),
    Phase.DRAW_SHARES: (msg.DRAW_SHARE,),
    Phase.HAND_REVEAL: (msg.HAND_REVEAL,),
    Phase.SECRET_REVEAL: (msg.SECRET_REVEAL,),
}
"""The message types each phase takes under protocol versions 1 and 2 (old logs)."""

V3_PHASE_TYPES: Final[Mapping[Phase, tuple[MessageType, ...]]] = {
    **PHASE_TYPES,
    Phase.LEAD_CLAIM: (msg.LEAD_CLAIM3,),
    Phase.TURNS: (msg.PLAY3, msg.DRAW, msg.PASS, msg.SKIP),
}
"""The message types each phase takes under protocol version 3 (§10.6 plays and claims)."""


V4_PHASE_TYPES: Final[Mapping[Phase, tuple[MessageType, ...]]] = {
    **V3_PHASE_TYPES,
    Phase.LEAVING: (CONTINUE,),
    Phase.CONTINUE: (CONTINUE_SIGN,),
}
"""The message types each phase takes under protocol version 4 (v3 and §16's leaving; the
`goodbye` itself comes in any hand phase, checked before whose turn it is)."""


def phase_types(version: int) -> Mapping[Phase, tuple[MessageType, ...]]:
    """The message types each phase takes under protocol `version`."""
    if version <= SECOND_VERSION:
        return PHASE_TYPES
    return V3_PHASE_TYPES if version == THIRD_VERSION else V4_PHASE_TYPES


def _turn(hand: HandInPlay) -> int:
    assert hand.public is not None
    return hand.public.turn


WHO_IS_NEXT: Final[Mapping[Phase, Callable[[HandInPlay], int]]] = {
    Phase.COMMIT: lambda hand: len(hand.commits),
    Phase.REVEAL: lambda hand: len(hand.reveals),
    Phase.SHUFFLE: lambda hand: len(hand.shuffles),
    Phase.DEAL: lambda hand: hand.deals,
    Phase.LEAD_CLAIM: lambda hand: len(hand.claims),
    Phase.TURNS: _turn,
    Phase.DRAW_SHARES: lambda hand: hand.draw_sharers[0],
    Phase.HAND_REVEAL: lambda hand: len(hand.revealed),
    Phase.SECRET_REVEAL: lambda hand: len(hand.secrets),
    Phase.LEAVING: lambda hand: hand.proposer,
    Phase.CONTINUE: lambda hand: hand.next_continue_signer,
}
"""The seat whose message a hand's phase waits for (SETUP's signer is the genesis's own)."""
