"""What a table session reports to the peer that runs it: events, and blame with evidence."""

from __future__ import annotations

from dataclasses import dataclass, field

from p2p_dominoes.engine import Action, HandRecord, HandResult, MatchOutcome, Tile
from p2p_dominoes.words import Phrase, phrase


@dataclass(frozen=True)
class Blame:
    """A seat named as cheating or broken, with the reason and the signed evidence."""

    seat: int
    reason: str
    code: str
    evidence: tuple[bytes, ...] = ()
    """The signed messages that show it (encoded envelopes), when there are any."""
    index: int | None = None
    """The transcript index of the offending message, when it was accepted before the audit."""
    via: int | None = None
    """The seat whose peer delivered the evidence, when not the blamed seat's own: a peer that
    halted on a message sent to it alone forwards that message to every seat, and each peer
    re-checks it itself (PROTOCOL.md §10.10, *Blame forwarding*)."""
    expected: str | None = None
    """For a stall: the type name of the message the seat had to send (players are shown it in
    words, `net/verdict.py`)."""

    @property
    def said(self) -> Phrase:
        """The blame as one line (the seat, why, who forwarded the evidence); `said.in_(lang)`
        reads it in a player's language. `str(blame)` is its English text."""
        if self.via is None:
            return phrase("session.why.blamed", seat=self.seat + 1, reason=self.reason)
        return phrase(
            "session.why.blamed_relayed", seat=self.seat + 1, reason=self.reason, via=self.via + 1
        )

    def __str__(self) -> str:
        return str(self.said)


@dataclass(frozen=True)
class Event:
    """Base class of session events."""


@dataclass(frozen=True)
class TableReady(Event):
    """Every seat has signed the genesis."""


@dataclass(frozen=True)
class HandStarted(Event):
    number: int


@dataclass(frozen=True)
class ShuffleVerified(Event):
    """A seat's shuffle proof checked out: `done` of `total` shuffles so far."""

    seat: int
    done: int
    total: int


@dataclass(frozen=True)
class TilesDealt(Event):
    """This peer's own tiles, decrypted from the deal."""

    tiles: tuple[Tile, ...]


@dataclass(frozen=True)
class OpenerChosen(Event):
    seat: int
    must_lead: Tile | None


@dataclass(frozen=True)
class ActionTaken(Event):
    """A seat played, drew or passed; `drawn` is the tile, only for the drawer's own peer."""

    seat: int
    action: Action
    drawn: Tile | None = None


@dataclass(frozen=True)
class HandEnded(Event):
    """The hand was audited: every proof, share, pass and draw checked; the result scored."""

    number: int
    result: HandResult
    hands: tuple[tuple[Tile, ...], ...]
    """The tiles each seat held at the end."""
    scores: tuple[int, ...]
    record: HandRecord
    """The plain hand record (deal, opener, actions) that the engine alone can replay."""


@dataclass(frozen=True)
class HandRedealt(Event):
    """Nobody could open the hand (no ranked tile dealt, fallback `redeal`): the claims were
    audited, the hand counts nothing, and the next one is dealt with fresh keys."""

    number: int
    hands: tuple[tuple[Tile, ...], ...]
    """The void deal, every seat's tiles (as the audit decrypted them)."""


@dataclass(frozen=True)
class HandAbandoned(Event):
    """v4 (§16): a goodbye made the hand in play void: nothing of it is revealed, it scores
    nothing, and it is recorded as abandoned by `seat` (`reason` "left", or "stalled" in the
    word of seat `by`)."""

    number: int
    seat: int
    reason: str
    by: int


@dataclass(frozen=True)
class SeatReplaced(Event):
    """v4 (§16): every remaining seat checked the continuation (its own scores, the kept
    seats' keys): `seat` goes from `before` to its new holder `name` (a fresh key), from hand
    `next_hand` on; the seat keeps its score. Said when the continuation is proposed; the next
    hand begins once every other seat has signed it."""

    seat: int
    before: str
    name: str
    next_hand: int
    back: bool = False
    """§16.1: the player who left the seat takes it back (from the bot `before`) under `name`."""


@dataclass(frozen=True)
class MatchEnded(Event):
    """The match is over: a seat reached the target (`outcome.over`), or the genesis's
    `max_hands` hands were played (`limit_reached`)."""

    outcome: MatchOutcome
    scores: tuple[int, ...]
    hands: int = 0
    """How many hands were played."""
    max_hands: int | None = None
    """The genesis's limit on hands, if it set one."""

    @property
    def limit_reached(self) -> bool:
        """True when the match stopped because its agreed number of hands was played."""
        return not self.outcome.over and self.max_hands is not None and self.hands >= self.max_hands


@dataclass(frozen=True)
class CheatingDetected(Event):
    blame: Blame


@dataclass(frozen=True)
class Update:
    """What one input produced: events to show, and encoded messages to send to every peer."""

    events: list[Event] = field(default_factory=list)
    outgoing: list[bytes] = field(default_factory=list)
    forwarded: list[bytes] = field(default_factory=list)
    """Other seats' signed messages to send to every peer: the evidence of a blame, so that
    a cheat sent to this peer alone stops every peer (never held back, never our own)."""

    def extend(self, other: Update) -> None:
        self.events.extend(other.events)
        self.outgoing.extend(other.outgoing)
        self.forwarded.extend(other.forwarded)
