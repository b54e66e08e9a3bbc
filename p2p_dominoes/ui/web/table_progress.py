"""What the page shows beside the session's state (`TableProgress`): the shuffles' progress,
whom the table waits for, alerts and the log, the last hand's end and the match's, the pause
between hands, the last moves and what they scored.

The session holds the table's state; this holds what the peer UI (`web_ui.WebUI`) learned from
the runtime's events and calls, which the snapshot shows next to it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from p2p_dominoes.engine import HandResult, MatchOutcome
from p2p_dominoes.engine.record import HandRecord
from p2p_dominoes.net.presence import Presence
from p2p_dominoes.ui.web.kozel_sheet import SheetRow
from p2p_dominoes.ui.web.page_review import PageReview


@dataclass
class TableProgress:
    """What the page shows beside the session's state: progress, waiting, alerts, the log."""

    shuffles_done: int = 0
    shuffles_total: int = 0
    last_shuffler: str = ""
    waiting_for: str = ""
    waiting_seconds: float = 0.0
    alert: str = ""
    log: list[str] = field(default_factory=list)
    history: list[list[int]] = field(default_factory=list)
    last_result: HandResult | None = None
    last_hands: list[list[str]] = field(default_factory=list)
    last_hand_number: int = 0
    match_over: bool = False
    match_winner: int | None = None
    match_draw: bool = False
    match_outcome: MatchOutcome | None = None
    """The match's end as the engine decided it (its pair and title under Kozel)."""
    sheet: list[SheetRow] = field(default_factory=list)
    """Kozel: every audited hand with the pairs' totals after it (the Us / Them sheet)."""
    presence: Presence | None = None
    """Connections, turns and whom we wait for, as the runtime last reported them."""
    next_hand: int = 0
    """The hand a pause between hands leads to (0: no pause)."""
    next_hand_left: float = 0.0
    """Seconds left of that pause as of the snapshot."""
    next_hand_ready: bool = False
    """This player said they are ready (or the pause ran out)."""
    final_line: list[dict[str, Any]] = field(default_factory=list)
    final_description: str = ""
    final_shape: dict[str, Any] | None = None
    """A shape's board (`board_shape.shape_json`) of that last hand, None on a line."""
    """The last hand's board, kept on screen until the next hand's tiles are dealt."""
    failure: str = ""
    """Why this peer could not go on (a PeerFailure), once the table has stopped for it: a
    `Phrase` stays one, so the snapshot reads it in the page's language (`reason_in`)."""
    verdict: tuple[int, str] | None = None
    """Another seat stopped the table because a seat stalled (its signed notice): that seat,
    and the sentence every peer shows (`net/verdict.py`)."""
    go_on: dict[str, Any] | None = None
    """v4: the question on the page: go on with a bot in the seat `name` left (`bot`)?"""
    declined: str = ""
    """v4: the seat our person would not go on without (the table stopped for us)."""
    left: bool = False
    """v4: our person left the table (our goodbye is signed)."""
    went_on: str = ""
    """v4: the table went on without our seat (another seat said it stalled): why, in words."""
    asking_back: bool = False
    """v4 (§16.1): our seat went on, and our peer (resumed) asks for it back: the page says so
    until the seat is ours again (a fresh `TableProgress`) or the peer did not get it."""
    replaced: dict[int, str] = field(default_factory=dict)
    """v4: the seats that changed hands, and whose they were before."""
    resumable: bool = False
    """The data directory still holds this table unfinished (the lobby may resume it)."""
    last_action: dict[str, Any] | None = None
    """The hand's most recent move (seat, kind, tile, value), or None."""
    recent_actions: list[dict[str, Any]] = field(default_factory=list)
    """The hand's last few moves, oldest first, each with its serial number."""
    action_serial: int = 0
    """How many moves this peer has seen (the serial of the latest)."""
    last_score: list[dict[str, Any]] = field(default_factory=list)
    """What the hand's last scoring move scored (`score_flash` items), [] before one."""
    last_score_serial: int = 0
    """The serial of that move."""
    last_record: HandRecord | None = None
    """The record of the hand that ended last (all its tiles known): what a review reads."""
    review: PageReview | None = None
    """The review of that hand the page asked for, or None."""
