"""The web player's peer: lobby (tables on the LAN, create, join), then the table, in one trio run.

The page sends commands over its WebSocket; the controller checks them (`page_commands.py`) and
drives the same `host_table` / `join_table` peer runtime as the terminal, with `WebUI`
(`web_ui.py`) as the peer's UI; the lobby's rows come from `lobby_rows.py`.
"""

from __future__ import annotations

import base64
import contextlib
import dataclasses
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, Final

import trio

from p2p_dominoes.engine import LANGUAGES, PRESETS
from p2p_dominoes.net import (
    HAND_BREAK,
    DiscoveryError,
    PeerFailure,
    PeerOptions,
    TableAd,
    Target,
    host_table,
    join_table,
    open_discovery,
    resume_table,
)
from p2p_dominoes.net.admission import LobbyControl, LobbyState
from p2p_dominoes.peer_text import peer_text
from p2p_dominoes.session import Identity, PublicIdentity
from p2p_dominoes.store import RuleSetError, TableSummary, list_tables, table_rules
from p2p_dominoes.ui.web.hub import Hub
from p2p_dominoes.ui.web.leave_commands import go_on, leave
from p2p_dominoes.ui.web.lobby_rows import (
    host_lobby_snapshot,
    own_addresses,
    shown_target,
    table_rows,
    unfinished_row,
)
from p2p_dominoes.ui.web.lobby_rules import lobby_rules
from p2p_dominoes.ui.web.page_commands import (
    Problem,
    check_host,
    check_join,
    check_review,
    host_rules,
    lobby_answer,
    saved_rule_sets,
)
from p2p_dominoes.ui.web.page_review import PageReview, work_out
from p2p_dominoes.ui.web.refusals import refusal
from p2p_dominoes.ui.web.web_ui import WebUI
from p2p_dominoes.words import reason_in, reason_of

log = logging.getLogger("p2p_dominoes.ui.web")

HEARTBEAT = 5.0
"""Seconds between the heartbeats that tell the page its own peer is alive."""
REMATCH_PATIENCE = 120.0
"""Seconds a joiner's rematch keeps dialling the host while it has not reopened the table."""


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
        addresses = [self.interface] if self.interface else own_addresses() or ["127.0.0.1"]
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
        saved = saved_rule_sets(self.data_dir)
        return {
            "screen": "lobby",
            "busy": self.busy,
            "tables": table_rows(self.tables),
            "lines": self.lobby_lines[-30:],
            "discovery": self.discovery_note,
            "unfinished": unfinished_row(self.unfinished),
            "unfinished_tables": [unfinished_row(t) for t in self.unfinished_tables[:20]],
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
        answer = lobby_answer(command)
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
        """Hand a command to its handler in `COMMANDS` (by its "type"); one with no type or an
        unknown type is refused, and so is one that would start a table while one runs."""
        kind = command.get("type")
        if not isinstance(kind, str):
            self.refuse("no_type")
        elif kind not in COMMANDS:
            self.refuse("unknown")
        elif kind in STARTS and self.busy:
            self.refuse("running")
        else:
            COMMANDS[kind](self, command, nursery)

    def _queue_move(self, command: dict[str, Any]) -> None:
        """A play, draw, pass or skip: queued for the turn (`WebUI.choose` checks it there)."""
        if self.ui is not None:
            with contextlib.suppress(trio.WouldBlock):  # clicks beyond the queue are dropped
                self.ui.actions_send.send_nowait(command)

    def _next_hand(self) -> None:
        """The player is ready for the next hand."""
        if self.ui is not None:
            self.ui.ready()  # a late click (the countdown ran out) changes nothing

    def _to_lobby(self) -> None:
        """Back to the lobby screen, unless a table is still being played here."""
        ended = self.ui is not None and self.ui.session is not None and self.ui.session.finished
        if not self.busy or ended:  # the peer may still linger for the others' last word
            self.screen = "lobby"
            self.error = None
            self.publish()

    def _host_command(self, command: dict[str, Any], nursery: trio.Nursery) -> None:
        """Open a table with the command's settings (its rules read now)."""
        settings = check_host(command, self.data_dir)
        if isinstance(settings, Problem):
            self.refuse(settings.key, settings.where, **dict(settings.values))
            return
        try:  # a saved set is read now: a rematch plays the same rules
            settings["table_rules"] = table_rules(self.data_dir, settings["rules"])
        except RuleSetError as exc:
            self.refuse("rule_set", "rules", reason=peer_text(reason_in(exc, self.lang), 400))
            return
        self.last_host, self.last_join, self.rematch_keys = settings, None, frozenset()
        self._start(nursery, partial(self._host, settings))

    def _resume_command(self, command: dict[str, Any], nursery: trio.Nursery) -> None:
        """Resume the unfinished table the command names (the most recent without one)."""
        table, problem = self._resumable(command)
        if table is None:
            self.refuse(problem)
            return
        self.last_host, self.last_join = None, None  # no rematch of a resumed table
        self._start(nursery, partial(self._resume, table.directory))

    def _join_command(self, command: dict[str, Any], nursery: trio.Nursery) -> None:
        """Join the table at the command's address."""
        target = check_join(command)
        if isinstance(target, Problem):
            self.refuse(target.key, target.where)
            return
        self.last_host, self.last_join = None, target
        self._join_now(nursery, target)

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
        self.joining = {"address": shown_target(target), "since": time.monotonic(), "line": ""}
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
            ask_go_on=self.ui.ask_go_on,
            offers_leave=self.ui.offer_leave,
            comes_back=self.ui.comes_back,
            hand_break=self.hand_break,
        )

    async def _resume(self, directory: Path) -> int:
        return await resume_table(self._options(), directory)

    async def _host(self, settings: dict[str, Any]) -> int:
        return await host_table(
            self._options(),
            table_name=settings["table"],
            rules=host_rules(settings),
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
            self._failed(reason_of(exc))
        except BaseExceptionGroup as group:
            failures = group.subgroup(PeerFailure)
            if failures is None:
                raise
            self._failed(reason_of(failures.exceptions[0]))
        finally:
            self.busy = False
            self.joining = None
            self.running = None
            if self.ui is not None and self.ui.session is None:
                self.screen = "lobby"  # cancelled or failed before the table was seated
            self._look_for_unfinished()
            self.publish()

    def _failed(self, reason: str) -> None:
        """The peer could not go on: the lobby says why; a seated table keeps its screen and
        shows the stop with its next steps (a `Phrase` reason kept as one, read in the page's
        language when the snapshot is made)."""
        line = peer_text(reason, 400)
        self.lobby_lines.append(reason_in(reason, self.lang) if line == reason else line)
        ui = self.ui
        if ui is not None and ui.session is not None:
            ui.progress.failure = reason if line == reason else line
        else:
            self.screen = "lobby"

    def _review(self, command: dict[str, Any], nursery: trio.Nursery) -> None:
        """Review this player's decisions in the hand that just ended (`page_review.py`): the
        search runs in a worker thread; the page shows "working" until its rows come."""
        hand, ui = check_review(command), self.ui
        if isinstance(hand, Problem):
            self.refuse(hand.key)
            return
        session = ui.session if ui is not None else None
        if ui is None or session is None or session.seat is None:
            self.refuse("no_review")
            return
        progress, record = ui.progress, ui.progress.last_record
        if record is None or hand != progress.last_hand_number:
            self.refuse("no_review")
        elif progress.review is not None and progress.review.rows is None:
            self.refuse("reviewing")
        elif progress.review is None or progress.review.hand != hand:
            progress.review = PageReview(hand, session.seat)
            nursery.start_soon(work_out, progress.review, record, self.publish)
            self.publish()

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


Handler = Callable[[PlayController, dict[str, Any], trio.Nursery], None]
"""What a page command does: given the controller, the command and the nursery a table runs in."""

STARTS: Final = frozenset({"host", "rematch", "join", "resume"})
"""The commands that open, join or resume a table: refused while one runs."""


def _move(controller: PlayController, command: dict[str, Any], _: trio.Nursery) -> None:
    """A play, draw, pass or skip: queued for the turn."""
    controller._queue_move(command)


def _answer(controller: PlayController, command: dict[str, Any], _: trio.Nursery) -> None:
    """The host approves, refuses or removes a seat."""
    controller._answer(command)


COMMANDS: Final[dict[str, Handler]] = {
    **dict.fromkeys(("play", "draw", "pass", "skip"), _move),
    "next_hand": lambda c, _, __: c._next_hand(),
    "go_on": lambda c, command, _: go_on(c, command),  # v4 (leave_commands.py)
    "leave": lambda c, _, __: leave(c),
    "record": lambda c, _, __: c._send_record(),
    "review": PlayController._review,
    "lang": lambda c, command, _: c._switch_language(command),
    **dict.fromkeys(("approve", "refuse", "remove"), _answer),
    "swap": lambda c, command, _: c._swap(command),
    "cancel": lambda c, _, __: c._cancel(),
    # A rule set was saved or deleted (rules_api.py): list them anew.
    "rule_sets": lambda c, _, __: c.publish(),
    "lobby": lambda c, _, __: c._to_lobby(),
    "host": PlayController._host_command,
    "rematch": lambda c, _, nursery: c._rematch(nursery),
    "resume": PlayController._resume_command,
    "join": PlayController._join_command,
}
"""Each page command's type and what it does (`PlayController._dispatch` looks it up)."""
