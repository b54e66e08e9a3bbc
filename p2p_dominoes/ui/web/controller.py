"""The web player's peer: lobby (tables on the LAN, create, join), then the table, in one trio run.

The page sends commands over its WebSocket; the controller checks them and drives the same
`host_table` / `join_table` peer runtime as the terminal, with `WebUI` as the peer's UI.
"""

from __future__ import annotations

import base64
import contextlib
import dataclasses
import functools
import ipaddress
import json
import logging
import math
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import trio

from p2p_dominoes.bots import BOTS
from p2p_dominoes.engine import (
    DRAW,
    FIELD,
    LANGUAGES,
    PASS,
    PRESETS,
    SKIP,
    Action,
    Line,
    Play,
    Rules,
    SeatView,
)
from p2p_dominoes.net import (
    HAND_BREAK,
    PeerFailure,
    PeerOptions,
    Target,
    host_table,
    join_table,
    resume_table,
    split_host_port,
)
from p2p_dominoes.net.admission import LobbyControl, LobbyState
from p2p_dominoes.net.connection import normalize_fingerprint
from p2p_dominoes.net.discovery import (
    MAX_TABLES_LISTED,
    DiscoveryError,
    TableAd,
    lan_addresses,
    open_discovery,
)
from p2p_dominoes.net.join_code import JoinCodeError, new_join_code, parse_join_code
from p2p_dominoes.net.page_presence import PageState
from p2p_dominoes.net.presence import Presence
from p2p_dominoes.net.verdict import task_words
from p2p_dominoes.peer_text import peer_text
from p2p_dominoes.session import Identity, PublicIdentity, TableSession
from p2p_dominoes.session.events import (
    ActionTaken,
    CheatingDetected,
    Event,
    HandEnded,
    HandStarted,
    MatchEnded,
    ShuffleVerified,
)
from p2p_dominoes.session.hand_messages import MAX_HANDS
from p2p_dominoes.store import RuleSetError, TableSummary, list_rule_sets, list_tables, table_rules
from p2p_dominoes.ui.web.board_words import board_words, page_lines, page_said
from p2p_dominoes.ui.web.hub import Hub
from p2p_dominoes.ui.web.kozel_sheet import SheetRow
from p2p_dominoes.ui.web.lobby_rules import lobby_rules
from p2p_dominoes.ui.web.refusals import refusal
from p2p_dominoes.ui.web.snapshot import (
    RECENT_ACTIONS,
    TableProgress,
    end_of,
    host_lobby_snapshot,
    play_ends,
    score_flash,
    seat_scores,
    table_snapshot,
)

log = logging.getLogger("p2p_dominoes.ui.web")

HEARTBEAT = 5.0
"""Seconds between the heartbeats that tell the page its own peer is alive."""
PAGE_GRACE = 4.0
"""Seconds with no tab open before the other players are told this player's page closed."""
REMATCH_PATIENCE = 120.0
"""Seconds a joiner's rematch keeps dialling the host while it has not reopened the table."""


class WebUI:
    """A peer UI that publishes the table to the page and waits for the page's choices."""

    def __init__(self, hub: Hub, lang: str, controller: PlayController) -> None:
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
        self.session = session
        self.names = tuple(names)
        self.progress = TableProgress(shuffles_total=len(names), log=self.progress.log)
        self.controller.screen = "table"
        self.controller.joining = None
        self.publish()

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
                if event.result.seat_pips:  # Kozel's «Мы / Они» sheet
                    progress.sheet.append(SheetRow(event.number, event.result, event.scores))
                rules = self.session.rules if self.session is not None else None
                progress.history.append(
                    seat_scores(rules, event.scores, len(names)) if rules else list(event.scores)
                )
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
                    else blame.reason
                )
                progress.alert = f"{stalled}: {reason}"
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
                action = _action_from(command, view, hand.public.line)
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


def _action_from(command: dict[str, Any], view: SeatView, line: Line) -> Action | None:
    """The legal action a page command names, or None (also for any malformed command)."""
    kind = command.get("type")
    if kind == "draw":
        return DRAW if view.can_draw() else None
    if kind == "pass":
        return PASS if view.can_pass() else None
    if kind == "skip":
        return SKIP if view.can_skip() else None
    tile, end = command.get("tile"), command.get("end")
    along = command.get("along", False)  # a double laid lengthwise (doubles: choice)
    if kind != "play" or not isinstance(tile, str) or not isinstance(end, str):
        return None
    if not isinstance(along, bool):
        return None
    ends = play_ends(line)
    for play in view.legal_plays():
        if play.tile.key == tile and end_of(play, ends) == end and play.along == along:
            return play
    return None


@dataclass
class PlayController:
    """The lobby state and the running table (if any) of one web player."""

    identity: Identity
    name: str
    lang: str
    hub: Hub
    interface: str | None = None
    lan_port: int = 47800
    mdns: bool = True
    screen: str = "lobby"
    tables: list[TableAd] = field(default_factory=list)
    lobby_lines: list[str] = field(default_factory=list)
    discovery_note: str = ""
    ui: WebUI | None = None
    busy: bool = False
    last_host: dict[str, Any] | None = None
    host_lobby: LobbyState | None = None
    """The table this player hosts, before the start (who sits, who asks); None otherwise."""
    lobby_control: LobbyControl | None = None
    data_dir: Path | None = None
    """Where this player's table logs and hand secrets are kept (None: nothing is kept)."""
    unfinished: TableSummary | None = None
    """The unfinished table the lobby offers to resume (looked up at start and after a table)."""
    unfinished_tables: list[TableSummary] = field(default_factory=list)
    """Every unfinished table in the data directory, the most recent first."""
    hand_break: float = HAND_BREAK
    """The longest pause between hands (the summary's countdown), in seconds."""
    lang_explicit: bool = False
    """`play --lang` was given: the page keeps that language instead of the browser's."""
    discovery_failed: Callable[[str], None] | None = None
    """Told why tables on the LAN cannot be looked for here (`play` says so in its window)."""
    heartbeat: float = HEARTBEAT
    """Seconds between the heartbeats that tell the page its peer is alive."""
    error: dict[str, Any] | None = None
    """The last refused command's line for the lobby (cleared by the next accepted one)."""
    joining: dict[str, Any] | None = None
    """The join in progress: where to, since when (monotonic), the last progress line."""
    running: trio.CancelScope | None = None
    """The scope of the table being opened, joined or played (the "cancel" command's)."""
    last_join: Target | None = None
    """Where this player last joined (a rematch dials it again)."""
    rematch_keys: frozenset[PublicIdentity] = frozenset()
    """At a rematch this player hosts: the last table's players, seated without asking."""

    def refuse(self, key: str, field: str | None = None, **values: object) -> None:
        """Tell the page one line why a command was refused (and keep it for the lobby)."""
        text = refusal(key, self.lang, **values)
        self.error = {"text": text, "field": field}
        self.hub.publish({"type": "refused", "text": text})
        if self.screen == "lobby":
            self.publish()

    def publish(self) -> None:
        if self.screen == "table" and self.ui is not None and self.ui.session is not None:
            table = self.ui.snapshot()
            self.hub.publish(
                {
                    "type": "state",
                    **table,
                    "busy": self.busy,
                    "rematch": self.rematch_offer(),
                    **self._me(),
                },
                snapshot=True,
            )
        else:
            self.hub.publish(
                {"type": "state", **self.lobby_snapshot(), **self._desk(), **self._me()},
                snapshot=True,
            )

    def _me(self) -> dict[str, Any]:
        addresses = [self.interface] if self.interface else _lan_addresses() or ["127.0.0.1"]
        return {
            "me": {
                "name": self.name,
                "fingerprint": self.identity.public.fingerprint,
                "short_fingerprint": self.identity.public.short_fingerprint,  # the table's header
                "addresses": list(addresses),
                "port": self.lan_port,
            },
            "lang": self.lang,
            "lang_explicit": self.lang_explicit,
            "presets": list(PRESETS),  # the editor's order (lobby_rules)
        }

    def lobby_snapshot(self) -> dict[str, Any]:
        """The lobby for the page: tables (verified ads, at most ``MAX_TABLES_LISTED`` rows of
        cleaned, bounded text, and at most ``LOBBY_TABLES_BYTES`` of JSON), lines, status."""
        joining = None
        if self.joining is not None:
            joining = {
                "address": self.joining["address"],
                "seconds": int(time.monotonic() - self.joining["since"]),
                "line": self.joining["line"],
                # What the host's screen shows beside this request, to compare.
                "fingerprint": self.identity.public.short_fingerprint,
            }
        saved = _saved_rule_sets(self.data_dir)
        return {
            "screen": "lobby",
            "busy": self.busy,
            "tables": _table_rows(self.tables),
            "lines": self.lobby_lines[-30:],
            "discovery": self.discovery_note,
            "unfinished": _unfinished_row(self.unfinished),
            "unfinished_tables": [_unfinished_row(t) for t in self.unfinished_tables[:20]],
            "joining": joining,
            "error": self.error,
            "rule_sets": saved,
            **lobby_rules(self.data_dir, saved),  # names, bots weakest first, default bots
        }

    def _look_for_unfinished(self) -> None:
        """Find the unfinished tables in the data directory (the most recent first)."""
        self.unfinished, self.unfinished_tables = None, []
        if self.data_dir is None:
            return
        try:
            tables = list_tables(self.data_dir)
        except OSError:
            return
        self.unfinished_tables = [t for t in tables if not t.finished and t.problem is None]
        self.unfinished = self.unfinished_tables[0] if self.unfinished_tables else None

    def _desk(self) -> dict[str, Any]:
        now = time.monotonic()  # the admission clock
        return {"host_lobby": host_lobby_snapshot(self.host_lobby, now)}

    # -- the host's desk (net.admission.HostDesk): the page asks the player who may sit -------

    def lobby(self, state: LobbyState) -> None:
        self.host_lobby = state
        self._seat_rematch()
        self.publish()

    def _seat_rematch(self) -> None:
        """At a rematch, whoever held a seat at the last table is seated without asking."""
        control, state = self.lobby_control, self.host_lobby
        if control is None or state is None:
            return
        for request in state.pending:
            if request.key in self.rematch_keys:
                control.approve(request.number)

    async def attend(self, control: LobbyControl) -> None:
        """Take the page's approve / refuse / remove commands until the game begins."""
        self.lobby_control = control
        self._seat_rematch()
        try:
            await trio.sleep_forever()
        finally:
            self.lobby_control = None
            self.host_lobby = None

    def _answer(self, command: dict[str, Any]) -> None:
        answer = _lobby_answer(command)
        control = self.lobby_control
        if answer is None:
            self.refuse("answer")
            return
        if control is None:
            self.refuse("no_desk")
            return
        verb, number = answer
        act = {"approve": control.approve, "refuse": control.refuse, "remove": control.remove}
        if not act[verb](number):
            self.refuse("gone")

    def _swap(self, command: dict[str, Any]) -> None:
        """The host swaps two seats before the start (`{"type": "swap", "seats": [a, b]}`,
        0-based): at a Kozel table this chooses the pairs."""
        seats = command.get("seats")
        control = self.lobby_control
        if (
            set(command) != {"type", "seats"}
            or not isinstance(seats, list)
            or len(seats) != 2
            or not all(type(seat) is int and 0 <= seat < 4 for seat in seats)
        ):
            self.refuse("answer")
            return
        if control is None:
            self.refuse("no_desk")
            return
        if not control.swap(seats[0], seats[1]):
            self.refuse("gone")

    async def run(self) -> None:
        """Handle the page's commands and keep the list of tables fresh, until cancelled."""
        async with trio.open_nursery() as nursery:
            if self.mdns:
                nursery.start_soon(self._browse)
            else:
                self.discovery_note = "off"
            self._look_for_unfinished()
            self.publish()
            nursery.start_soon(self._beat)
            async for command in self.hub.commands:
                await self._command(command, nursery)

    async def _beat(self) -> None:
        """A heartbeat to the page every few seconds: silence means its peer is gone (say, the
        machine slept or the process hangs), even while the socket still looks open."""
        while True:
            await trio.sleep(self.heartbeat)
            self.hub.publish({"type": "heartbeat"})

    async def _browse(self) -> None:
        """Keep ``tables`` fresh from mDNS; a failure is logged and browsing starts again
        (after a pause), except when discovery cannot run here at all."""
        while True:
            try:
                async with open_discovery(interface=self.interface) as disco:
                    while True:
                        self.tables = disco.tables()
                        if self.screen == "lobby":
                            self.publish()
                        with trio.move_on_after(2):
                            await disco.wait_for_change()
            except (DiscoveryError, OSError) as exc:
                self.discovery_note = str(exc)
                self.publish()
                if self.discovery_failed is not None:
                    self.discovery_failed(self.discovery_note)
                return
            except Exception as exc:  # discovery must never end the page's peer
                log.warning("discovery failed, browsing again: %r", exc)
                self.discovery_note = "restarting"
                self.publish()
            await trio.sleep(5)

    async def _command(self, command: dict[str, Any], nursery: trio.Nursery) -> None:
        """One command from the page: a malformed or unknown one is refused with a message,
        and nothing in it can end the peer (the page is untrusted input like the network)."""
        try:
            await self._dispatch(command, nursery)
        except Exception as exc:
            log.warning("a page command failed: %s: %s", type(exc).__name__, exc)
            self.refuse("failed")

    async def _dispatch(self, command: dict[str, Any], nursery: trio.Nursery) -> None:
        kind = command.get("type")
        if not isinstance(kind, str):
            self.refuse("no_type")
        elif kind in ("play", "draw", "pass", "skip"):
            if self.ui is not None:
                with contextlib.suppress(trio.WouldBlock):  # clicks beyond the queue are dropped
                    self.ui.actions_send.send_nowait(command)
        elif kind == "next_hand":
            if self.ui is not None:
                self.ui.ready()  # a late click (the countdown ran out) changes nothing
        elif kind == "record":
            self._send_record()
        elif kind == "lang":
            self._switch_language(command)
        elif kind in ("approve", "refuse", "remove"):
            self._answer(command)
        elif kind == "swap":
            self._swap(command)
        elif kind == "cancel":
            self._cancel()
        elif kind == "rule_sets":  # a set was saved or deleted (rules_api.py): list them anew
            self.publish()
        elif kind == "lobby":
            ended = self.ui is not None and self.ui.session is not None and self.ui.session.finished
            if not self.busy or ended:  # the peer may still linger for the others' last word
                self.screen = "lobby"
                self.error = None
                self.publish()
        elif kind in ("host", "rematch", "join", "resume") and self.busy:
            self.refuse("running")
        elif kind == "host":
            settings = _check_host(command, self.data_dir)
            if isinstance(settings, _Problem):
                self.refuse(settings.key, settings.where, **dict(settings.values))
                return
            try:  # a saved set is read now: a rematch plays the same rules
                settings["table_rules"] = table_rules(self.data_dir, settings["rules"])
            except RuleSetError as exc:
                self.refuse("rule_set", "rules", reason=peer_text(str(exc), 400))
                return
            self.last_host, self.last_join, self.rematch_keys = settings, None, frozenset()
            self._start(nursery, partial(self._host, settings))
        elif kind == "rematch":
            self._rematch(nursery)
        elif kind == "resume":
            table, problem = self._resumable(command)
            if table is None:
                self.refuse(problem)
                return
            self.last_host, self.last_join = None, None  # no rematch of a resumed table
            self._start(nursery, partial(self._resume, table.directory))
        elif kind == "join":
            target = _check_join(command)
            if isinstance(target, _Problem):
                self.refuse(target.key, target.where)
                return
            self.last_host, self.last_join = None, target
            self._join_now(nursery, target)
        else:
            self.refuse("unknown")

    def _switch_language(self, command: dict[str, Any]) -> None:
        """The page's language for the texts made here from now on (log, reasons, board)."""
        lang = command.get("lang")
        if set(command) != {"type", "lang"} or lang not in LANGUAGES:
            self.refuse("lang")
            return
        self.lang = str(lang)
        if self.ui is not None:
            self.ui.lang = self.lang
        self.publish()

    def _join_now(self, nursery: trio.Nursery, target: Target) -> None:
        self.joining = {"address": _shown_target(target), "since": time.monotonic(), "line": ""}
        self._start(nursery, partial(self._join, target))

    def rematch_offer(self) -> dict[str, Any] | None:
        """After a whole match: a new one with the same seats, as host or joiner (or None)."""
        ui = self.ui
        if self.busy or ui is None or ui.session is None or not ui.progress.match_over:
            return None
        if self.last_host is not None:
            return {"role": "host", "seats": list(ui.names)}
        if self.last_join is not None:
            return {"role": "join", "seats": list(ui.names)}
        return None

    def _rematch(self, nursery: trio.Nursery) -> None:
        """The host opens the same table again and seats the last players without asking;
        a joiner dials the same host again (pinned to its key), waiting for it to reopen."""
        ui = self.ui
        if self.rematch_offer() is None or ui is None or ui.session is None:
            self.refuse("no_rematch")
            return
        seats = ui.session.transcript.genesis.seats
        if self.last_host is not None:
            self.rematch_keys = frozenset(s.key for s in seats[1:])
            self._start(nursery, partial(self._host, self.last_host))
        elif self.last_join is not None:
            target = dataclasses.replace(
                self.last_join, expect=seats[0].key, patience=REMATCH_PATIENCE
            )
            self._join_now(nursery, target)

    def _resumable(self, command: dict[str, Any]) -> tuple[TableSummary | None, str]:
        """The unfinished table a resume command names (the most recent without "table"), or
        None and the refusal's key."""
        if set(command) - {"type", "table"}:
            return None, "resume_fields"
        if "table" not in command:
            return self.unfinished, "nothing_to_resume"
        wanted = command["table"]
        for table in self.unfinished_tables:
            if isinstance(wanted, str) and table.table_id.hex() == wanted:
                return table, ""
        return None, "no_such_table"

    def _start(self, nursery: trio.Nursery, run: Any) -> None:
        self.busy = True
        self.error = None
        self.running = trio.CancelScope()
        nursery.start_soon(self._play, run, self.running)

    def _cancel(self) -> None:
        """Close the waiting room or stop joining: only before the table is seated."""
        seated = self.ui is not None and self.ui.session is not None
        if not self.busy or self.running is None or seated:
            self.refuse("nothing_to_cancel")
            return
        self.running.cancel()
        self.lobby_lines.append(refusal("cancelled", self.lang))

    def _options(self) -> PeerOptions:
        self.ui = WebUI(self.hub, self.lang, self)
        return PeerOptions(
            name=self.name,
            identity=self.identity,
            ui=self.ui,
            interface=self.interface,
            port=self.lan_port,
            mdns=self.mdns,
            data_dir=self.data_dir,
            presence=self.ui,
            page=self.ui.page_state,
            between_hands=self.ui.between_hands,
            hand_break=self.hand_break,
        )

    async def _resume(self, directory: Path) -> int:
        return await resume_table(self._options(), directory)

    async def _host(self, settings: dict[str, Any]) -> int:
        return await host_table(
            self._options(),
            table_name=settings["table"],
            rules=_rules(settings),
            players=settings["players"],
            bots=settings["bots"],
            bot_strategy=settings.get("bot", "random"),
            hands=settings["hands"],
            desk=self,
            join_code=settings.get("join_code"),
        )

    async def _join(self, target: Target) -> int:
        return await join_table(self._options(), target)

    async def _play(self, run: Any, scope: trio.CancelScope | None = None) -> None:
        self.busy = True
        self.lobby_lines.clear()
        self.publish()
        try:
            with scope or trio.CancelScope():
                await run()
        except PeerFailure as exc:
            self._failed(str(exc))
        except BaseExceptionGroup as group:
            failures = group.subgroup(PeerFailure)
            if failures is None:
                raise
            self._failed(str(failures.exceptions[0]))
        finally:
            self.busy = False
            self.joining = None
            self.running = None
            if self.ui is not None and self.ui.session is None:
                self.screen = "lobby"  # cancelled or failed before the table was seated
            self._look_for_unfinished()
            self.publish()

    def _failed(self, text: str) -> None:
        """The peer could not go on: the lobby says why; a seated table keeps its screen and
        shows the stop with its next steps."""
        line = peer_text(text, 400)
        self.lobby_lines.append(line)
        ui = self.ui
        if ui is not None and ui.session is not None:
            ui.progress.failure = line
        else:
            self.screen = "lobby"

    def _send_record(self) -> None:
        ui = self.ui
        if ui is None or ui.session is None:
            return
        data = ui.session.transcript.to_bytes()
        self.hub.publish(
            {
                "type": "record",
                "name": f"p2p-dominoes-{ui.session.transcript.table_id.hex()[:8]}.p2pd",
                "data": base64.b64encode(data).decode("ascii"),
            }
        )


def _rules(settings: dict[str, Any]) -> Rules:
    """The rules a host command names (read when it came), with its own stall timeout when it
    gives one."""
    rules: Rules = settings["table_rules"]
    stall = settings.get("stall_timeout")
    return rules if stall is None else dataclasses.replace(rules, stall_timeout_s=stall)


def _unfinished_row(table: TableSummary | None) -> dict[str, Any] | None:
    """The unfinished table the lobby offers to resume: its id, name (cleaned), seat, players."""
    if table is None:
        return None
    return {
        "id": table.table_id.hex(),
        "name": peer_text(table.name, 64) or table.table_id.hex()[:8],
        "seat": table.seat + 1,
        "players": [peer_text(name, 64) for name in table.players],
        "messages": table.messages,
    }


@functools.lru_cache(maxsize=1)
def _lan_addresses() -> tuple[str, ...]:
    """This machine's LAN addresses (looked up once: every page update shows them)."""
    return tuple(lan_addresses())


LOBBY_TABLES_BYTES = 16_384
"""Most bytes of JSON the lobby's table list may take in one push to the page."""


def _table_rows(tables: Sequence[TableAd]) -> list[dict[str, str]]:
    """Page rows for at most ``MAX_TABLES_LISTED`` tables, text cleaned, within the byte cap."""
    rows: list[dict[str, str]] = []
    size = 2
    for t in tables[:MAX_TABLES_LISTED]:
        row = {
            "table": peer_text(t.info.table_name, 64),
            "host": peer_text(t.info.player_name, 64),
            "fingerprint": t.info.fingerprint,  # before the genesis: the full one
            "seats": f"{t.info.seats_taken}/{t.info.seats_total}",
            "rules": peer_text(t.info.rules, 32),
            "phase": t.info.phase,
            "id": t.info.table_id.hex(),
            "address": peer_text(_dialable(t), 64),
            "pin": t.info.fingerprint,
        }
        size += len(json.dumps(row, ensure_ascii=False).encode("utf-8")) + 1
        if size > LOBBY_TABLES_BYTES:
            break
        rows.append(row)
    return rows


def _dialable(table: TableAd) -> str:
    host = table.addresses[0] if table.addresses else ""
    return f"[{host}]:{table.port}" if ":" in host else f"{host}:{table.port}"


def _lobby_answer(command: dict[str, Any]) -> tuple[str, int] | None:
    """("approve" | "refuse", request number) or ("remove", seat) from a page command, or None."""
    kind = command.get("type")
    field = "seat" if kind == "remove" else "request"
    number = command.get(field)
    if kind not in ("approve", "refuse", "remove") or type(number) is not int:
        return None
    if not 0 <= number < 1_000_000:
        return None
    return str(kind), number


@dataclass(frozen=True)
class _Problem:
    """Why a command's settings are refused: the refusal's key and the field at fault."""

    key: str
    where: str | None = None
    values: tuple[tuple[str, object], ...] = ()


def _saved_rule_sets(data_dir: Path | None) -> list[str]:
    """The names of the player's saved rule sets (for the create-table form)."""
    try:
        return list_rule_sets(data_dir) if data_dir is not None else []
    except RuleSetError:
        return []


def _host_settings(command: dict[str, Any], data_dir: Path | None = None) -> dict[str, Any] | None:
    """The table settings a page's "host" command asks for, or None unless every field is of
    the right type and in range; `rules` names a preset or one of the saved sets in `data_dir`."""
    settings = _check_host(command, data_dir)
    return None if isinstance(settings, _Problem) else settings


def _check_host(command: dict[str, Any], data_dir: Path | None = None) -> dict[str, Any] | _Problem:
    """The table settings of a "host" command, or the first field that is wrong."""
    name = command.get("table")
    if name is not None and not isinstance(name, str):
        return _Problem("table_name", "table")
    table = (name or "").strip()[:64] or "Dominoes"
    rules = command.get("rules", "draw")
    players, bots = command.get("players"), command.get("bots", 0)
    hands = command.get("hands")
    bot = command.get("bot", "random")
    if not isinstance(rules, str) or rules not in (*PRESETS, *_saved_rule_sets(data_dir)):
        return _Problem("rules", "rules")
    if type(players) is not int or not 2 <= players <= 4:
        return _Problem("players", "players")
    if type(bots) is not int or not 0 <= bots < players:
        return _Problem("bots", "bots", (("most", players - 1),))
    if isinstance(bot, list):  # each bot its own strategy, one per bot
        if len(bot) != bots or not all(isinstance(b, str) and b in BOTS for b in bot):
            return _Problem("bot", "bot")
        bot = list(bot)
    elif not isinstance(bot, str) or bot not in BOTS:
        return _Problem("bot", "bot")
    if hands is not None and (type(hands) is not int or not 1 <= hands <= MAX_HANDS):
        return _Problem("hands", "hands", (("most", MAX_HANDS),))
    stall = command.get("stall_timeout")
    low, high = FIELD["stall_timeout_s"].bounds  # the switch record's, as for files and the CLI
    if stall is not None and (type(stall) is not int or not low <= stall <= high):
        return _Problem("stall_timeout", "stall_timeout", (("low", low), ("high", high)))
    if not table.isprintable():
        return _Problem("table_name", "table")
    asks_code = command.get("join_code", False)  # the page's checkbox; absent: no code
    if type(asks_code) is not bool:
        return _Problem("join_code", "join_code")
    return {
        # Made once for the table, so a rematch of these settings keeps it (its joiners have it).
        "join_code": new_join_code() if asks_code else None,
        "table": table,
        "rules": rules,
        "players": players,
        "bots": bots,
        "bot": bot,
        "hands": hands,
        "stall_timeout": stall,
    }


_HOST_NAME = re.compile(
    r"(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,62})(?:\.[A-Za-z0-9-]{1,63})*\.?"
)


def _dialable_host(host: str) -> bool:
    """An IP address (v6 with an optional zone) or a DNS host name: nothing else is dialled."""
    try:
        ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return _HOST_NAME.fullmatch(host) is not None
    return host.isascii() and host.isprintable() and len(host) <= 64


def _join_target(command: dict[str, Any]) -> Target | None:
    """Where a page's "join" command asks to go (`HOST:PORT`, an optional full fingerprint to
    pin), or None when the address or the fingerprint is malformed."""
    target = _check_join(command)
    return None if isinstance(target, _Problem) else target


def _check_join(command: dict[str, Any]) -> Target | _Problem:
    """The join command's target, or which of its fields is malformed."""
    address = command.get("address")
    fingerprint = command.get("fingerprint")
    if not isinstance(address, str) or len(address) > 300:
        return _Problem("address", "address")
    try:
        host, port = split_host_port(address.strip())
    except ValueError:
        return _Problem("address", "address")
    if not _dialable_host(host):
        return _Problem("address", "address")
    pin = None
    if fingerprint is not None:
        if not isinstance(fingerprint, str) or len(fingerprint) > 100:
            return _Problem("fingerprint", "fingerprint")
        try:
            normalize_fingerprint(fingerprint)
        except ValueError:
            return _Problem("fingerprint", "fingerprint")
        pin = fingerprint
    seat = command.get("seat")  # 0-based; None (absent): any free seat
    if seat is not None and (type(seat) is not int or not 1 <= seat <= 3):
        return _Problem("seat", "seat")
    typed = command.get("code")  # the host's join code as typed (absent or empty: none)
    code = None
    if typed is not None and (not isinstance(typed, str) or len(typed) > 200):
        return _Problem("join_code", "code")
    if typed and typed.strip():
        try:
            code = parse_join_code(typed)
        except JoinCodeError:
            return _Problem("join_code", "code")
    return Target((host,), port, pin, seat=seat, code=code)


def _shown_target(target: Target) -> str:
    host = target.addresses[0]
    return f"[{host}]:{target.port}" if ":" in host else f"{host}:{target.port}"
