"""Offline verification of a saved transcript: the same checks a peer makes, message by message.

Signatures, the hash chain, the expected seat and type of every message, every proof and share,
every rule (including those only checkable at the end-of-hand audit) and every score; v4: the
chain through a goodbye and its continuation (the void hand, the seat's new key, §16).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from p2p_dominoes.engine import HandEnd, MatchOutcome
from p2p_dominoes.mental.errors import message_of
from p2p_dominoes.session.errors import InvalidMessage
from p2p_dominoes.session.events import (
    Event,
    HandAbandoned,
    HandEnded,
    HandRedealt,
    MatchEnded,
    SeatReplaced,
)
from p2p_dominoes.session.messages import default_registry
from p2p_dominoes.session.table import Phase, TableSession
from p2p_dominoes.session.table_code import TableCode
from p2p_dominoes.session.transcript import RECORD_MESSAGE, Transcript, read_records
from p2p_dominoes.words import phrase


@dataclass(frozen=True)
class Failure:
    """The first message that does not check out (commands/verify_words.py says it in words)."""

    index: int | None
    seat: int | None
    reason: str
    """The reason in the protocol's words (`verify --json` gives it as it is)."""
    kind: str | None = None
    """A failure the verifier itself finds rather than a message's check: `EQUIVOCATION` or
    `NO_GENESIS` (commands/verify_words.py says these in the reader's language)."""


EQUIVOCATION = "equivocation"
"""A record of a transcript holds a seat's two different signed messages for one place."""
NO_GENESIS = "no-genesis"
"""The file holds no message at all."""


@dataclass
class VerifyReport:
    """What `verify_transcript` found: a clean record with its scores, or the first failure."""

    messages: int = 0
    hands: int = 0
    """Counted hands audited (what the genesis's `max_hands` counts)."""
    void_hands: int = 0
    """Void hands audited and dealt again (a block that does not count, or a redeal)."""
    scores: tuple[int, ...] = ()
    outcome: MatchOutcome | None = None
    head: bytes = b""
    complete: bool = False
    failure: Failure | None = None
    names: tuple[str, ...] = ()
    events: list[Event] = field(default_factory=list)
    code: TableCode | None = None
    """The table code the players compared (None until every seat signed the genesis)."""
    max_hands: int | None = None
    """The match length the genesis signed (None: a whole match, to the rules' target)."""
    abandoned: list[tuple[int, int, str]] = field(default_factory=list)
    """v4 (§16): each hand made void by a goodbye: (hand number, seat, "left" | "stalled")."""
    seat_changes: list[tuple[int, str, str, int]] = field(default_factory=list)
    """v4 (§16): each continuation: (seat, its player before, its new holder, first hand)."""
    seats_back: list[tuple[int, str, str, int]] = field(default_factory=list)
    """v4 (§16.1): each seat taken back: (seat, the bot that gives it back, the returning
    player, first hand)."""

    @property
    def ok(self) -> bool:
        return self.failure is None

    @property
    def limit_reached(self) -> bool:
        """The match ended because the genesis's number of hands was played."""
        return (
            self.complete
            and self.max_hands is not None
            and self.hands >= self.max_hands
            and not (self.outcome is not None and self.outcome.over)
        )


def verify_transcript(
    data: bytes,
    on_event: Callable[[Event], None] | None = None,
    on_names: Callable[[tuple[str, ...]], None] | None = None,
) -> VerifyReport:
    """Check a transcript file; never raises on bad input.

    `on_event` sees every event an observer of the table would; `on_names` the seats' names.
    """
    report = VerifyReport()
    session: TableSession | None = None
    index = -1
    claimed: int | None = None
    try:
        for index, (kind, envelope) in enumerate(read_records(data, default_registry())):
            if kind != RECORD_MESSAGE:
                evidence = phrase("session.why.equivocation", seat=envelope.seat + 1)
                report.failure = Failure(index, envelope.seat, evidence, EQUIVOCATION)
                return report
            if session is None:
                transcript = Transcript(envelope, default_registry())
                session = TableSession(transcript, None, None)
                report.names = tuple(s.name for s in transcript.genesis.seats)
                report.max_hands = transcript.genesis.max_hands
                if on_names is not None:
                    on_names(report.names)
            else:
                claimed = envelope.seat
                for event in session.admit(envelope):
                    if on_event is not None:
                        on_event(event)
                    if isinstance(event, HandEnded) and event.result.end is not HandEnd.VOID:
                        report.hands += 1
                    elif isinstance(event, HandEnded | HandRedealt):
                        report.void_hands += 1
                    if isinstance(event, MatchEnded):
                        report.outcome = event.outcome
                    if isinstance(event, HandAbandoned):
                        report.abandoned.append((event.number, event.seat, event.reason))
                    if isinstance(event, SeatReplaced):
                        change = (event.seat, event.before, event.name, event.next_hand)
                        (report.seats_back if event.back else report.seat_changes).append(change)
            report.messages = index + 1
    except InvalidMessage as exc:
        report.code = session.table_code if session is not None else None
        at = exc.index if exc.index is not None else max(index, 0)
        seat = exc.seat
        if seat is None and exc.index is None and session is not None:
            seat = claimed  # unauthenticated: the seat the message claims to be from
        report.failure = Failure(at, seat, exc.reason)
        return report
    except ValueError as exc:
        report.failure = Failure(max(index, 0), None, message_of(exc))
        return report
    if session is None:
        report.failure = Failure(None, None, "the file holds no genesis", NO_GENESIS)
        return report
    report.code = session.table_code
    report.scores = session.scores
    report.head = session.transcript.head
    report.complete = session.phase is Phase.OVER
    return report
