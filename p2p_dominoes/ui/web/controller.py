"""The web player's peer: lobby (tables on the LAN, create, join), then the table, in one trio run.

The page sends commands over its WebSocket; the controller checks them and drives the same
`host_table` / `join_table` peer runtime as the terminal, with `WebUI` as the peer's UI.
"""

from __future__ import annotations

import base64
import contextlib
import functools
import ipaddress
import json
import logging
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import trio

from p2p_dominoes.engine import DRAW, PASS, PRESETS, Action, Line, SeatView, describe
from p2p_dominoes.net.admission import LobbyControl, LobbyState
from p2p_dominoes.net.connection import normalize_fingerprint
from p2p_dominoes.net.discovery import (
    MAX_TABLES_LISTED,
    DiscoveryError,
    TableAd,
    lan_addresses,
    open_discovery,
)
from p2p_dominoes.net.runtime import PeerFailure, PeerOptions
from p2p_dominoes.net.tables import (
    Target,
    host_table,
    join_table,
    resume_table,
    split_host_port,
)
from p2p_dominoes.peer_text import peer_text
from p2p_dominoes.session import Identity
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
from p2p_dominoes.session.table import TableSession
from p2p_dominoes.store import RuleSetError, TableSummary, list_rule_sets, list_tables, table_rules
from p2p_dominoes.ui.narration import narrate
from p2p_dominoes.ui.web.hub import Hub
from p2p_dominoes.ui.web.snapshot import (
    TableProgress,
    chain,
    end_of,
    host_lobby_snapshot,
    table_snapshot,
)

log = logging.getLogger("p2p_dominoes.ui.web")


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

    def say(self, line: str) -> None:
        line = peer_text(line, 400)
        self.progress.log.append(line)
        self.controller.lobby_lines.append(line)
        self.publish()

    def seated(self, session: TableSession, names: Sequence[str]) -> None:
        self.session = session
        self.names = tuple(names)
        self.progress = TableProgress(shuffles_total=len(names), log=self.progress.log)
        self.controller.screen = "table"
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
                progress.history.append(list(event.scores))
            elif isinstance(event, MatchEnded):
                progress.match_over = True
                progress.match_winner = event.outcome.winner
                progress.match_draw = event.outcome.draw
            elif isinstance(event, CheatingDetected):
                progress.alert = f"{names[event.blame.seat]}: {event.blame.reason}"
            progress.log.extend(narrate(event, names, self.lang, me=seat))
            if isinstance(event, ActionTaken):
                progress.waiting_for = ""
        if any(isinstance(e, ActionTaken) for e in events) and self.session is not None:
            hand = self.session.hand
            if hand is not None and hand.public is not None:
                self.hub.publish(
                    {"type": "announce", "text": describe(hand.public.line, self.lang)}
                )
        self.publish()

    def waiting(self, name: str, seconds: float) -> None:
        self.progress.waiting_for = name
        self.progress.waiting_seconds = seconds
        self.publish()

    async def choose(
        self, view: SeatView, names: Sequence[str], scores: Sequence[int], target: int
    ) -> Action:
        """Wait for a play, draw or pass from the page that is legal now."""
        while True:  # clicks made before this turn began are stale: drop them
            try:
                self.actions.receive_nowait()
            except trio.WouldBlock:
                break
        self.publish()
        hand = self.session.hand if self.session else None
        assert hand is not None and hand.public is not None
        while True:
            command = await self.actions.receive()
            action = _action_from(command, view, hand.public.line)
            if action is not None:
                return action
            self.hub.publish({"type": "refused", "text": "That move is not legal now."})

    def publish(self) -> None:
        self.controller.publish()

    def snapshot(self) -> dict[str, Any]:
        session = self.session
        assert session is not None
        fingerprints = [key.fingerprint for key in session.transcript.keys]
        return table_snapshot(session, self.names, fingerprints, self.progress, self.lang)


def _action_from(command: dict[str, Any], view: SeatView, line: Line) -> Action | None:
    """The legal action a page command names, or None (also for any malformed command)."""
    kind = command.get("type")
    if kind == "draw":
        return DRAW if view.can_draw() else None
    if kind == "pass":
        return PASS if view.can_pass() else None
    tile, end = command.get("tile"), command.get("end")
    if kind != "play" or not isinstance(tile, str) or not isinstance(end, str):
        return None
    _, ends = chain(line)
    for play in view.legal_plays():
        if play.tile.key == tile and end_of(play, ends) == end:
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

    def publish(self) -> None:
        if self.screen == "table" and self.ui is not None and self.ui.session is not None:
            self.hub.publish({"type": "state", **self.ui.snapshot(), **self._me()}, snapshot=True)
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
                "addresses": list(addresses),
                "port": self.lan_port,
            },
            "lang": self.lang,
            "presets": sorted(PRESETS),
        }

    def lobby_snapshot(self) -> dict[str, Any]:
        """The lobby for the page: tables (verified ads, at most ``MAX_TABLES_LISTED`` rows of
        cleaned, bounded text, and at most ``LOBBY_TABLES_BYTES`` of JSON), lines, status."""
        return {
            "screen": "lobby",
            "busy": self.busy,
            "tables": _table_rows(self.tables),
            "lines": self.lobby_lines[-30:],
            "discovery": self.discovery_note,
            "unfinished": _unfinished_row(self.unfinished),
            "rule_sets": _saved_rule_sets(self.data_dir),
        }

    def _look_for_unfinished(self) -> None:
        """Find the most recent unfinished table in the data directory (None when none)."""
        self.unfinished = None
        if self.data_dir is None:
            return
        try:
            tables = list_tables(self.data_dir)
        except OSError:
            return
        self.unfinished = next((t for t in tables if not t.finished and t.problem is None), None)

    def _desk(self) -> dict[str, Any]:
        now = time.monotonic()  # the admission clock
        return {"host_lobby": host_lobby_snapshot(self.host_lobby, now)}

    # -- the host's desk (net.admission.HostDesk): the page asks the player who may sit -------

    def lobby(self, state: LobbyState) -> None:
        self.host_lobby = state
        self.publish()

    async def attend(self, control: LobbyControl) -> None:
        """Take the page's approve / refuse / remove commands until the game begins."""
        self.lobby_control = control
        try:
            await trio.sleep_forever()
        finally:
            self.lobby_control = None
            self.host_lobby = None

    def _answer(self, command: dict[str, Any]) -> None:
        answer = _lobby_answer(command)
        control = self.lobby_control
        if answer is None:
            self.hub.publish({"type": "refused", "text": "That answer is not valid."})
            return
        if control is None:
            self.hub.publish({"type": "refused", "text": "No table is waiting for players."})
            return
        verb, number = answer
        act = {"approve": control.approve, "refuse": control.refuse, "remove": control.remove}
        if not act[verb](number):
            self.hub.publish({"type": "refused", "text": "That request or seat is gone."})

    async def run(self) -> None:
        """Handle the page's commands and keep the list of tables fresh, until cancelled."""
        async with trio.open_nursery() as nursery:
            if self.mdns:
                nursery.start_soon(self._browse)
            else:
                self.discovery_note = "off"
            self._look_for_unfinished()
            self.publish()
            async for command in self.hub.commands:
                await self._command(command, nursery)

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
            self.hub.publish({"type": "refused", "text": "That command could not be carried out."})

    async def _dispatch(self, command: dict[str, Any], nursery: trio.Nursery) -> None:
        kind = command.get("type")
        if not isinstance(kind, str):
            self.hub.publish({"type": "refused", "text": 'A command has a "type".'})
        elif kind in ("play", "draw", "pass"):
            if self.ui is not None:
                with contextlib.suppress(trio.WouldBlock):  # clicks beyond the queue are dropped
                    self.ui.actions_send.send_nowait(command)
        elif kind == "record":
            self._send_record()
        elif kind in ("approve", "refuse", "remove"):
            self._answer(command)
        elif kind == "rule_sets":  # a set was saved or deleted (rules_api.py): list them anew
            self.publish()
        elif kind == "lobby":
            if not self.busy:
                self.screen = "lobby"
                self.publish()
        elif kind in ("host", "rematch", "join", "resume") and self.busy:
            self.hub.publish({"type": "refused", "text": "A table is already running."})
        elif kind == "host":
            settings = _host_settings(command, self.data_dir)
            if settings is None:
                self.hub.publish({"type": "refused", "text": "Those table settings are not valid."})
                return
            try:  # a saved set is read now: a rematch plays the same rules
                settings["table_rules"] = table_rules(self.data_dir, settings["rules"])
            except RuleSetError as exc:
                self.hub.publish({"type": "refused", "text": peer_text(str(exc), 400)})
                return
            self.last_host = settings
            self.busy = True
            nursery.start_soon(self._play, partial(self._host, settings))
        elif kind == "rematch" and self.last_host is not None:
            self.busy = True
            nursery.start_soon(self._play, partial(self._host, self.last_host))
        elif kind == "resume":
            table = self.unfinished if set(command) == {"type"} else None
            if table is None:
                text = (
                    "A resume command has no other fields."
                    if set(command) != {"type"}
                    else "There is no unfinished table to resume."
                )
                self.hub.publish({"type": "refused", "text": text})
                return
            self.busy = True
            nursery.start_soon(self._play, partial(self._resume, table.directory))
        elif kind == "join":
            target = _join_target(command)
            if target is None:
                self.hub.publish({"type": "refused", "text": "Give an address as HOST:PORT."})
                return
            self.busy = True
            nursery.start_soon(self._play, partial(self._join, target))
        else:
            self.hub.publish({"type": "refused", "text": "That command is not known here now."})

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
        )

    async def _resume(self, directory: Path) -> int:
        return await resume_table(self._options(), directory)

    async def _host(self, settings: dict[str, Any]) -> int:
        return await host_table(
            self._options(),
            table_name=settings["table"],
            rules=settings["table_rules"],
            players=settings["players"],
            bots=settings["bots"],
            bot_strategy="random",
            hands=settings["hands"],
            desk=self,
        )

    async def _join(self, target: Target) -> int:
        return await join_table(self._options(), target)

    async def _play(self, run: Any) -> None:
        self.busy = True
        self.lobby_lines.clear()
        self.publish()
        try:
            await run()
        except PeerFailure as exc:
            self.lobby_lines.append(peer_text(str(exc), 400))
            self.screen = "lobby"
        except BaseExceptionGroup as group:
            failures = group.subgroup(PeerFailure)
            if failures is None:
                raise
            self.lobby_lines.append(peer_text(str(failures.exceptions[0]), 400))
            self.screen = "lobby"
        finally:
            self.busy = False
            self._look_for_unfinished()
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


def _unfinished_row(table: TableSummary | None) -> dict[str, Any] | None:
    """The unfinished table the lobby offers to resume: its name (cleaned), seat, players."""
    if table is None:
        return None
    return {
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


def _saved_rule_sets(data_dir: Path | None) -> list[str]:
    """The names of the player's saved rule sets (for the create-table form)."""
    try:
        return list_rule_sets(data_dir) if data_dir is not None else []
    except RuleSetError:
        return []


def _host_settings(command: dict[str, Any], data_dir: Path | None = None) -> dict[str, Any] | None:
    """The table settings a page's "host" command asks for, or None unless every field is of
    the right type and in range; `rules` names a preset or one of the saved sets in `data_dir`."""
    name = command.get("table")
    if name is not None and not isinstance(name, str):
        return None
    table = (name or "").strip()[:64] or "Dominoes"
    rules = command.get("rules", "draw")
    players, bots = command.get("players"), command.get("bots", 0)
    hands = command.get("hands")
    if not isinstance(rules, str) or rules not in (*PRESETS, *_saved_rule_sets(data_dir)):
        return None
    if type(players) is not int or type(bots) is not int:
        return None
    if not 2 <= players <= 4 or not 0 <= bots < players:
        return None
    if hands is not None and (type(hands) is not int or not 1 <= hands <= MAX_HANDS):
        return None
    if not table.isprintable():
        return None
    return {"table": table, "rules": rules, "players": players, "bots": bots, "hands": hands}


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
    address = command.get("address")
    fingerprint = command.get("fingerprint")
    if not isinstance(address, str) or len(address) > 300:
        return None
    try:
        host, port = split_host_port(address.strip())
    except ValueError:
        return None
    if not _dialable_host(host):
        return None
    pin = None
    if fingerprint is not None:
        if not isinstance(fingerprint, str) or len(fingerprint) > 100:
            return None
        try:
            normalize_fingerprint(fingerprint)
        except ValueError:
            return None
        pin = fingerprint
    return Target((host,), port, pin)
