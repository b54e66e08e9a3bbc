"""The table as this player's page sees it: `WebUI`, the peer UI of a web player.

The peer runtime tells a UI what happens at the table (seated, events, whom it waits for, the
pause between hands) and asks it for this player's moves; `WebUI` keeps what the page shows of
that (`TableProgress`), publishes it as snapshots through the controller, and takes the page's
moves from a queue. It lives apart from the controller (the lobby and the commands) because it
is the other side of the peer: what the runtime calls, not what the page sends.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import trio

from p2p_dominoes.engine import DRAW, SKIP, Action, Play, SeatView
from p2p_dominoes.net import ComingBack
from p2p_dominoes.net.page_presence import PageState
from p2p_dominoes.net.presence import Presence
from p2p_dominoes.net.said import said
from p2p_dominoes.net.verdict import task_words
from p2p_dominoes.peer_text import peer_text
from p2p_dominoes.session import TableSession
from p2p_dominoes.session.events import (
    ActionTaken,
    CheatingDetected,
    Event,
    HandAbandoned,
    HandEnded,
    HandStarted,
    MatchEnded,
    SeatReplaced,
    ShuffleVerified,
)
from p2p_dominoes.store import TableSummary
from p2p_dominoes.ui.web.board_words import board_words, page_lines, page_said
from p2p_dominoes.ui.web.hub import Hub
from p2p_dominoes.ui.web.kozel_sheet import SheetRow
from p2p_dominoes.ui.web.page_commands import action_from
from p2p_dominoes.ui.web.page_review import review_snapshot
from p2p_dominoes.ui.web.score_words import score_flash, seat_scores
from p2p_dominoes.ui.web.snapshot import RECENT_ACTIONS, table_snapshot
from p2p_dominoes.ui.web.table_progress import TableProgress
from p2p_dominoes.words import reason_in

PAGE_GRACE = 4.0
"""Seconds with no tab open before the other players are told this player's page closed."""


class Controller(Protocol):
    """What `WebUI` reads and sets of the controller it plays for (`PlayController`): the
    screen the page shows, the lobby's lines, the join in progress, refusals and publishing."""

    screen: str
    lobby_lines: list[str]
    joining: dict[str, Any] | None
    busy: bool
    unfinished_tables: list[TableSummary]

    def refuse(self, key: str, field: str | None = None, **values: object) -> None:
        """Tell the page one line why a command was refused."""

    def publish(self) -> None:
        """Send the page a fresh snapshot."""


class WebUI:
    """A peer UI that publishes the table to the page and waits for the page's choices."""

    def __init__(self, hub: Hub, lang: str, controller: Controller) -> None:
        self.hub = hub
        self.lang = lang
        self.controller = controller
        self.session: TableSession | None = None
        self.names: tuple[str, ...] = ()
        self.progress = TableProgress()
        self.actions_send, self.actions = trio.open_memory_channel[dict[str, Any]](16)
        self._ready = trio.Event()
        self._break_ends = 0.0
        self.move = 0
        """How many times the player was asked for a move (the page echoes it to be heard)."""
        self.asking = False
        self._shown_presence: object = None
        self._read_presence: Callable[[], Presence] | None = None
        self._page_seen = time.monotonic()
        self._go_on: trio.MemorySendChannel[bool] | None = None
        """v4: where the page's answer to the question whether to go on goes, while asked."""
        self.leave: Callable[[], bool] | None = None
        """v4: how this player leaves the table for good (the runtime's, once seated)."""
        self.returning = False
        """v4 (§16.1): this peer resumed the table and asks its seat back if it went on."""

    def page_state(self) -> PageState:
        """Whether a tab shows this table: "closed" once none has for PAGE_GRACE seconds (a
        reload or a tab taking over comes back within it), for the others to see (§14)."""
        now = time.monotonic()
        if self.hub.holder() is not None:
            self._page_seen = now
            return "open"
        return "open" if now - self._page_seen < PAGE_GRACE else "closed"

    def watch(self, read: Callable[[], Presence]) -> None:
        """Where the runtime's presence is read (each snapshot reads it afresh)."""
        self._read_presence = read

    def tick(self) -> None:
        """The runtime's tick (and after each event): publish when what the page shows of the
        presence or of the pause's countdown changed."""
        if self._shown() != self._shown_presence:
            self.publish()

    def _shown(self) -> object:
        """The presence as of now, and the part of it (and of the countdown) the page shows."""
        presence = self._read_presence() if self._read_presence is not None else None
        self.progress.presence = presence
        if self.progress.next_hand and not self.progress.next_hand_ready:
            self.progress.next_hand_left = max(0.0, self._break_ends - time.monotonic())
        key = None if presence is None else _presence_key(presence)
        return key, math.ceil(self.progress.next_hand_left)

    async def between_hands(self, number: int, seconds: float) -> None:
        """The pause before hand `number`: until the page sends "next_hand" (the runtime ends
        it after `seconds`)."""
        self._ready = trio.Event()
        self._break_ends = time.monotonic() + seconds
        progress = self.progress
        progress.next_hand, progress.next_hand_left = number, seconds
        progress.next_hand_ready = False
        self.publish()
        try:
            await self._ready.wait()
        finally:
            progress.next_hand_ready = True
            progress.next_hand_left = 0.0
            self.publish()

    async def ask_go_on(self, name: str, bot: str, seconds: float) -> bool:
        """v4: the page asks whether the table goes on with `bot` in the seat `name` left (its
        two buttons send "go_on"); the runtime gives up after `seconds`, which is a no."""
        send, answers = trio.open_memory_channel[bool](1)
        self._go_on = send
        self.progress.go_on = {"name": name, "bot": bot, "seconds": math.ceil(seconds)}
        self.publish()
        yes = False
        try:
            yes = await answers.receive()
        finally:
            self._go_on = None
            self.progress.go_on = None
            if not yes:
                self.progress.declined = name
            self.publish()
        return yes

    def answer_go_on(self, yes: bool) -> bool:
        """The page's answer to the question (False when none is asked)."""
        if self._go_on is None:
            return False
        try:
            self._go_on.send_nowait(yes)
        except (trio.WouldBlock, trio.BrokenResourceError, trio.ClosedResourceError):
            return False
        return True

    def offer_leave(self, leave: Callable[[], bool]) -> None:
        """The runtime's way to leave, for the page's *Leave the table* (v4)."""
        self.leave = leave

    def ready(self) -> bool:
        """The player is ready for the next hand; False when no pause is running."""
        if not self.progress.next_hand or self.progress.next_hand_ready:
            return False
        self._ready.set()
        return True

    def say(self, line: str) -> None:
        line = page_said(peer_text(line, 400), self.lang)
        self.progress.log.append(line)
        self.controller.lobby_lines.append(line)
        if self.controller.joining is not None:
            self.controller.joining["line"] = line
        self.publish()

    def verdict(self, seat: int, line: str) -> None:
        """Another seat stopped the table because `seat` stalled: the page shows its sentence."""
        self.progress.verdict = (seat, line)
        self.publish()

    def unseated(self) -> None:
        """The table being set up never started (a seat was lost while its genesis was signed,
        `net/setup_lost.py`): back to the lobby screen, whose lines say why."""
        self.session = None
        self.controller.screen = "lobby"
        self.publish()

    def seated(self, session: TableSession, names: Sequence[str]) -> None:
        """The table is set (a new table, or one resumed, or a seat taken back, §16.1): the
        score history and sheet hold the hands the session has audited so far."""
        self.session = session
        self.names = tuple(names)
        self.returning = False
        self.progress = TableProgress(shuffles_total=len(names), log=self.progress.log)
        for ended in session.hands_ended:
            self._add_to_history(ended)
        self.controller.screen = "table"
        self.controller.joining = None
        self.publish()

    def comes_back(self, step: ComingBack) -> None:
        """v4 (§16.1): once seated by `resume`, if our seat went on the peer asks it back, and
        the page says so (not that the table went on without us); when the peer asked and did
        not get it back, the page shows that the table went on. The peer says it asks even when
        our session never saw the seat go (the records parted where we left: `named_gone`)."""
        self.returning = step is not ComingBack.NOT_BACK
        if step is ComingBack.MAY_ASK:
            return
        progress = self.progress
        progress.asking_back = step is ComingBack.ASKING
        if step is ComingBack.NOT_BACK and not progress.went_on:  # (our record never saw it go)
            progress.went_on = said("not_given_back", self.lang)
        self.publish()

    def _add_to_history(self, event: HandEnded) -> None:
        """An audited hand's totals in the score history (and Kozel's sheet, its row)."""
        progress = self.progress
        if event.result.seat_pips:  # Kozel's "We / They" sheet
            progress.sheet.append(SheetRow(event.number, event.result, event.scores))
        session = self.session
        progress.history.append(
            seat_scores(session.rules, event.scores, session.players)
            if session is not None
            else list(event.scores)
        )

    def events(self, events: Sequence[Event], names: Sequence[str], seat: int) -> None:
        progress = self.progress
        for event in events:
            if isinstance(event, HandStarted):
                progress.shuffles_done = 0
                progress.last_shuffler = ""
            elif isinstance(event, ShuffleVerified):
                progress.shuffles_done = event.done
                progress.last_shuffler = names[event.seat]
            elif isinstance(event, HandEnded):
                progress.last_result = event.result
                progress.last_hand_number = event.number
                progress.last_hands = [[t.key for t in tiles] for tiles in event.hands]
                progress.last_record, progress.review = event.record, None
                self._add_to_history(event)
            elif isinstance(event, MatchEnded):
                progress.match_over = True
                progress.match_winner = event.outcome.winner
                progress.match_draw = event.outcome.draw
                progress.match_outcome = event.outcome
            elif isinstance(event, CheatingDetected):
                blame, stalled = event.blame, names[event.blame.seat]
                reason = (
                    task_words(blame.expected, stalled, self.lang)
                    if blame.code == "stall"
                    else reason_in(blame.reason, self.lang)
                )
                progress.alert = f"{stalled}: {reason}"
            elif isinstance(event, HandAbandoned) and event.seat == seat:
                if event.by == seat:
                    progress.left = True  # v4: our own goodbye
                else:  # v4: another seat said we stalled: the table goes on without us
                    by = peer_text(names[event.by], 64)  # (the page offers the record)
                    progress.went_on = said("said_gone", self.lang, name=by, record="")
                    progress.asking_back = self.returning  # §16.1: unless we ask it back
            elif isinstance(event, SeatReplaced):
                if event.back:  # §16.1: the seat's own player again, no bot's badge or mark
                    progress.replaced.pop(event.seat, None)
                else:
                    progress.replaced[event.seat] = event.before
                if event.seat == seat and not progress.left and not event.back:
                    progress.went_on = said(
                        "went_on", self.lang, bot=peer_text(event.name, 64), record=""
                    )
                    progress.asking_back = self.returning  # §16.1: unless we ask it back
                self.names = tuple(names)  # the seat's new holder, by its name
            elif isinstance(event, ActionTaken):
                progress.last_action = _last_action(event)
                progress.action_serial += 1
                progress.recent_actions.append(
                    {**progress.last_action, "serial": progress.action_serial}
                )
                del progress.recent_actions[:-RECENT_ACTIONS]
            if isinstance(event, HandStarted):
                progress.last_action = None
                progress.recent_actions.clear()
                progress.last_score, progress.last_score_serial = [], 0
            progress.log.extend(page_lines(event, names, self.lang, seat))
            if isinstance(event, ActionTaken):
                progress.waiting_for = ""
        if any(isinstance(e, ActionTaken) for e in events) and self.session is not None:
            hand = self.session.hand
            if hand is not None and hand.public is not None:
                flash = score_flash(hand.public.notes, self.lang)
                if flash:  # what the last move scored: every seat's page flashes it
                    progress.last_score = flash
                    progress.last_score_serial = progress.action_serial
                line, rules = hand.public.line, self.session.rules
                total = hand.public.end_total() if rules.reads_end_total and line.tiles else None
                text = board_words(line, names, seat, self.lang, total)
                self.hub.publish({"type": "announce", "text": text})
        self.publish()

    def waiting(self, name: str, seconds: float) -> None:
        self.progress.waiting_for = name
        self.progress.waiting_seconds = seconds
        self.publish()

    async def choose(
        self, view: SeatView, names: Sequence[str], scores: Sequence[int], target: int
    ) -> Action:
        """Wait for a play, draw or pass from the page that is legal now.

        Each ask has a number (the snapshot's "move"); a command that names another number was
        clicked for an earlier ask (a double click on Draw) and is dropped without a word."""
        while True:  # clicks made before this turn began are stale: drop them
            try:
                self.actions.receive_nowait()
            except trio.WouldBlock:
                break
        self.move += 1
        self.asking = True
        self.publish()
        hand = self.session.hand if self.session else None
        assert hand is not None and hand.public is not None
        try:
            while True:
                command = await self.actions.receive()
                if "move" in command and command["move"] != self.move:
                    continue
                action = action_from(command, view, hand.public.line)
                if action is not None:
                    return action
                self.controller.refuse("illegal")
        finally:
            self.asking = False

    def publish(self) -> None:
        self.controller.publish()

    def snapshot(self) -> dict[str, Any]:
        session = self.session
        assert session is not None
        fingerprints = [key.fingerprint for key in session.transcript.keys]
        progress = self.progress
        self._shown_presence = self._shown()  # fresh, and what the page now holds
        progress.resumable = not self.controller.busy and any(
            t.table_id == session.transcript.table_id for t in self.controller.unfinished_tables
        )
        data = table_snapshot(session, self.names, fingerprints, progress, self.lang)
        data["move"] = self.move if self.asking else None
        data["review"] = review_snapshot(
            progress.review, progress.last_hand_number, self.lang, self.names
        )
        if data["line"] and not data.get("final_board"):
            progress.final_line, progress.final_description = data["line"], data["description"]
            progress.final_shape = data.get("board")
        return data


PRESENCE_EVERY = 5
"""Seconds between re-publishing counters that only count on (the page counts in between);
changes of state (away, back, whom we wait for, a warning) are published at once."""


def _presence_key(presence: Presence) -> object:
    """What of the presence is worth a new snapshot: states, whom we wait for, the warning,
    and the counters in steps of PRESENCE_EVERY seconds."""

    def step(seconds: float | None) -> int | None:
        return None if seconds is None else int(seconds // PRESENCE_EVERY)

    seats = tuple(
        (p.state, step(p.away_seconds), step(p.turn_seconds), p.page, step(p.page_seconds))
        for p in presence.seats
    )
    waiting = presence.waiting
    shown = None
    if waiting is not None and waiting.shown:
        shown = (waiting.seat, step(waiting.seconds), waiting.page_closed)
    warning = presence.stall_warning
    warned = None if warning is None else (warning.seat, warning.away, step(warning.stall_left))
    return seats, shown, warned


def _last_action(event: ActionTaken) -> dict[str, Any]:
    """The move just made, for the page to highlight and caption (see snapshot-contract.md)."""
    action = event.action
    if isinstance(action, Play):
        value = action.place.value if action.place is not None else None
        return {"seat": event.seat, "kind": "play", "tile": action.tile.key, "value": value}
    kind = "draw" if action == DRAW else "skip" if action == SKIP else "pass"
    drawn = event.drawn.key if event.drawn is not None else None
    return {"seat": event.seat, "kind": kind, "tile": None, "value": None, "drawn": drawn}
