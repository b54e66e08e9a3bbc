"""Real `play` processes (loopback only, no mDNS) and a page client that drives one of them over
its WebSocket as the page does: it keeps every message, can seat whoever asks, and can play the
first legal move whenever it is its turn."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.ports import unallocated_port
from tests.ui.page_client import Login, PageSocket, log_in

LINK = re.compile(r"http://127\.0\.0\.1:(\d+)/\?token=([A-Za-z0-9_-]+)")  # in either language
State = dict[str, Any]


class PlayProcess:
    """`p2p-dominoes play --no-browser --no-mdns --interface 127.0.0.1` for one player."""

    def __init__(
        self,
        name: str,
        data: Path,
        *extra: str,
        lang: str | None = "en",
        env: dict[str, str] | None = None,
    ) -> None:
        self.name = name
        self.data = data
        self.lan_port = unallocated_port()
        argv = [sys.executable, "-m", "p2p_dominoes", "play", "--no-browser", "--no-mdns"]
        argv += ["--interface", "127.0.0.1", "--lan-port", str(self.lan_port)]
        argv += ["--data-dir", str(data), "--name", name, *extra]
        argv += ["--lang", lang] if lang is not None else []
        self.process = subprocess.Popen(
            argv,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            start_new_session=True,  # its bots too: kill() stops the whole machine's share
            env=None if env is None else {**os.environ, **env},
        )
        assert self.process.stdout is not None
        first = self.process.stdout.readline()
        found = LINK.search(first)
        assert found, first
        self.port, self.token = int(found.group(1)), found.group(2)

    def page(self, *, autoplay: bool = True, approve: bool = True) -> PageDriver:
        return PageDriver(self.port, self.token, autoplay=autoplay, approve=approve)

    def kill(self) -> None:
        """SIGKILL to `play` and the bots it started (a crash, a machine switched off)."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(10)
        self.kill()  # whatever is left of its group (bots)


_TELLING = ("screen", "turn", "move", "presence", "waiting", "stall_warning", "stopped", "match")
"""The state's fields a failed wait names before the whole state."""


class PageDriver:
    """One page's socket: the latest lobby and table states, every message, and what it sent."""

    def __init__(
        self, port: int, token: str, *, autoplay: bool, approve: bool, login: Login | None = None
    ) -> None:
        login = login or log_in(port, token)
        self.port, self.token, self.login = port, token, login
        self.socket = PageSocket(port, cookie=login.cookie, key=login.key, timeout=300)
        assert self.socket.status == 101, self.socket.status
        self.autoplay = autoplay
        self.approve = approve
        self.messages: list[State] = []
        self.table: State = {}
        self.lobby: State = {}
        self.closed = False
        self.sent: list[State] = []
        self._changed = threading.Condition()
        self._sending = threading.Lock()
        self._approved: set[int] = set()
        self._played: set[str] = set()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def send(self, command: State) -> None:
        with self._sending:
            self.sent.append(command)
            self.socket.send_json(command)

    def wait_for(self, what: Callable[[PageDriver], object], timeout: float = 60) -> Any:
        """Block until `what(self)` is true (returns it); fails with the last states if not."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while not (found := what(self)):
                left = deadline - time.monotonic()
                assert left > 0, self._last_seen()
                self._changed.wait(left)
        return found

    def _last_seen(self) -> str:
        """What a failed wait saw, the telling parts first (a CI log keeps a failure's end)."""
        state = self.table or self.lobby
        telling = {key: state.get(key) for key in _TELLING if key in state}
        kinds = [m.get("type") for m in self.messages[-8:]]
        other = self.lobby if state is self.table else {}
        lobby = {k: other[k] for k in ("busy", "joining", "host_lobby", "lines") if k in other}
        return f"last messages {kinds}; {telling}; lobby {lobby}; whole state {state}"

    def refusals(self) -> list[str]:
        return [str(m.get("text")) for m in self.messages if m.get("type") == "refused"]

    def close(self) -> None:
        self.socket.close()
        self._thread.join(timeout=10)

    def reopen(self, *, autoplay: bool = True) -> PageDriver:
        """The same browser opening the page again (its cookie and key, no new link)."""
        return PageDriver(
            self.port, self.token, autoplay=autoplay, approve=self.approve, login=self.login
        )

    def _run(self) -> None:
        while (message := self.socket.receive()) is not None:
            with self._changed:
                self.messages.append(message)
                if message.get("type") == "state":
                    if message.get("screen") == "table":
                        self.table = message
                    else:
                        self.lobby = message
                self._changed.notify_all()
            with contextlib.suppress(OSError):
                self._react(message)
        with self._changed:
            self.closed = True
            self._changed.notify_all()

    def _react(self, message: State) -> None:
        if message.get("type") != "state":
            return
        if self.approve:
            desk = message.get("host_lobby") or {}
            for request in desk.get("pending", []):
                if request["number"] not in self._approved:
                    self._approved.add(request["number"])
                    self.send({"type": "approve", "request": request["number"]})
        if self.autoplay and message.get("screen") == "table":
            command = first_legal(message)
            turn = json.dumps([message.get("hand_number"), message.get("hand"), message["line"]])
            if command is not None and turn not in self._played:  # once per turn
                self._played.add(turn)
                self.send(command)


def first_legal(state: State) -> State | None:
    """The first legal move a table state offers this seat, or None when it is not its turn."""
    if state.get("turn") is None or state.get("turn") != state.get("seat"):
        return None
    controls = state.get("controls")
    if controls is None:
        return None
    for tile in state.get("hand", []):
        if tile["fits"]:
            return {"type": "play", "tile": tile["tile"], "end": tile["fits"][0]}
    if controls.get("can_draw"):
        return {"type": "draw"}
    if controls.get("can_pass"):
        return {"type": "pass"}
    return None


def seat_of(state: State, name: str) -> int:
    return list(state["names"]).index(name)
