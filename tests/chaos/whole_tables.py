"""Whole tables for the crash tests: a process group per peer (its bots in it), its table logs
(the host's and each bot's, under the host's data directory), and a page driver that plays a
`play` peer's seat over the page's WebSocket as a person's browser would.

Every process here is started by these helpers in a new session and signalled by that group's
id (the host and the bots it started), never by name.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from p2p_dominoes.store import LogContents, TableLogError, bot_seats, read_log, tables_dir
from tests.chaos.peers import PHASE_OF_TYPE, message_type, verify
from tests.ui.page_client import PageSocket, log_in

PAGE_URL = re.compile(r"open http://127\.0\.0\.1:(\d+)/\?token=(\S+)")


def wait_until(predicate: Callable[[], bool], timeout: float, every: float = 0.02) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(every)
    return predicate()


def table_log(data: Path) -> LogContents | None:
    """The one table log under DATA/tables (None before the peer sat down)."""
    try:
        found = [d for d in tables_dir(data).iterdir() if (d / "table.log").exists()]
    except FileNotFoundError:
        return None
    assert len(found) <= 1, found
    if not found:
        return None
    try:
        return read_log(found[0])
    except (FileNotFoundError, TableLogError):
        return None


def table_path(data: Path) -> Path:
    found = [d for d in tables_dir(data).iterdir() if (d / "table.log").exists()]
    assert len(found) == 1, found
    return found[0]


def phase(data: Path) -> str | None:
    """The phase of the hand the peer's log is in ("turns", "reveal" …), "over" when finished."""
    contents = table_log(data)
    if contents is None or not contents.messages:
        return None
    if contents.finished is not None:
        return "over"
    kind = message_type(contents.messages[-1])
    return PHASE_OF_TYPE.get(kind, kind)


def logged(data: Path) -> int:
    """How many messages the peer's table log holds now."""
    contents = table_log(data)
    return 0 if contents is None else len(contents.messages)


def back_in_play(data: Path, before: int, since: float, what: Callable[[], str]) -> float:
    """Seconds from `since` (a restart) until the log holds more than `before` messages or
    says the match is over: the table is back in play."""
    assert wait_until(lambda: logged(data) > before or phase(data) == "over", 90), what()
    return round(time.monotonic() - since, 2)


@dataclass
class Group:
    """One command started in its own session (so its bots share its process group)."""

    argv: list[str]
    output: Path
    process: subprocess.Popen[bytes]

    @classmethod
    def start(cls, argv: list[str], output: Path) -> Group:
        # faulthandler: a group that does not stop is sent SIGABRT, and each process's threads
        # say where they were (see `stop`).
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONFAULTHANDLER": "1"}
        env["P2P_DOMINOES_TASK_DUMP"] = "1"  # and its trio tasks, on SIGUSR1 (net/task_dump.py)
        with output.open("wb") as sink:
            process = subprocess.Popen(
                [sys.executable, "-m", "p2p_dominoes", *argv],
                stdin=subprocess.DEVNULL,
                stdout=sink,
                stderr=subprocess.STDOUT,
                env=env,
                start_new_session=True,
            )
        return cls(argv, output, process)

    def text(self) -> str:
        return self.output.read_text("utf-8", "replace")

    def signal_group(self, signum: int) -> None:
        """`kill -9` (or Ctrl-C's SIGINT) to the whole group, as a reboot or a terminal would."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signum)

    def group_gone(self) -> bool:
        self.process.poll()
        try:
            os.killpg(self.process.pid, 0)
        except ProcessLookupError:
            return True
        return False

    def stop(self, signum: int, timeout: float = 30.0) -> int | None:
        """Signal the group, wait until every process in it is gone; the leader's status."""
        self.signal_group(signum)
        if not wait_until(self.group_gone, timeout, 0.05):
            self.signal_group(signal.SIGUSR1)  # where each trio task of what still runs waits
            wait_until(lambda: "trio tasks of pid" in self.text(), 3, 0.05)
            self.signal_group(signal.SIGABRT)  # the stacks of what still runs, for the failure
            wait_until(self.group_gone, 5, 0.05)
            raise AssertionError(f"group still running after {timeout:g} s\n{self.text()}")
        return self.process.wait(timeout=5)

    def close(self) -> None:
        if not self.group_gone():
            self.signal_group(signal.SIGKILL)
            wait_until(self.group_gone, 10, 0.05)
        with contextlib.suppress(Exception):
            self.process.wait(timeout=5)


def page_link(group: Group, timeout: float = 30.0) -> tuple[int, str]:
    """The page's port and one-time token, from what `play` printed."""
    assert wait_until(lambda: PAGE_URL.search(group.text()) is not None, timeout), group.text()
    found = PAGE_URL.search(group.text())
    assert found is not None
    return int(found.group(1)), found.group(2)


def check_whole(host_data: Path, record: Path | None, others: list[Path]) -> int:
    """Every log of the table (the host's, its bots', `others`) finished "over" and holding the
    host's transcript; `verify` clean on each table directory and on `record`. Returns how many
    records were verified."""
    host_dir = table_path(host_data)
    host_log = read_log(host_dir)
    assert host_log.finished == "over", host_log.finished
    transcript = host_log.transcript_bytes()
    bots = bot_seats(host_dir)
    paths = [host_dir] + [table_path(b.directory) for b in bots] + [table_path(o) for o in others]
    seats = {host_log.header.seat}
    for path in paths[1:]:
        contents = read_log(path)
        assert contents.finished == "over", (path, contents.finished)
        assert contents.transcript_bytes() == transcript, f"{path} is not the host's record"
        seats.add(contents.header.seat)
    assert seats == set(range(len(host_log.genesis.seats))), seats
    if record is not None:
        assert record.read_bytes() == transcript
        paths.append(record)
    for path in paths:
        result = verify(path)
        assert result.status == 0 and ": clean — " in result.output, result.output
    return len(paths)


def bot_identities(host_data: Path) -> dict[str, int]:
    """Each bot's identity-file mode (it must be 0600), by name."""
    return {
        bot.name: (bot.directory / "identity.pem").stat().st_mode & 0o777
        for bot in bot_seats(table_path(host_data))
    }


@dataclass
class PageDriver:
    """Plays one `play` peer's seat from its page: logs in with the one-time link, then on every
    table state where it is this seat's turn sends the first legal play, else draw, else pass."""

    port: int
    token: str
    last: dict[str, Any] = field(default_factory=dict)
    lobby: dict[str, Any] = field(default_factory=dict)
    refusals: list[str] = field(default_factory=list)
    _socket: PageSocket | None = None
    _thread: threading.Thread | None = None
    _sending: threading.Lock = field(default_factory=threading.Lock)
    _approved: set[int] = field(default_factory=set)

    def __post_init__(self) -> None:
        login = log_in(self.port, self.token)
        self._socket = PageSocket(self.port, cookie=login.cookie, key=login.key, timeout=300)
        assert self._socket.status == 101, self._socket.status
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def send(self, command: dict[str, Any]) -> None:
        assert self._socket is not None
        with self._sending:
            self._socket.send_json(command)

    def _run(self) -> None:
        page = self._socket
        assert page is not None
        while (message := page.receive()) is not None:
            if message.get("type") == "refused":
                self.refusals.append(str(message.get("text")))
            if message.get("type") != "state":
                continue
            if message.get("screen") != "table":
                self.lobby = message
                with contextlib.suppress(OSError):
                    self._approve(message)
                continue
            self.last = message
            with contextlib.suppress(OSError):
                self._act(message)

    def _approve(self, state: dict[str, Any]) -> None:
        """Seat whoever asks at the table this page hosts (once per request)."""
        desk = state.get("host_lobby") or {}
        for request in desk.get("pending", []):
            if request["number"] not in self._approved:
                self._approved.add(request["number"])
                self.send({"type": "approve", "request": request["number"]})

    def _act(self, state: dict[str, Any]) -> None:
        if state.get("turn") is None or state.get("turn") != state.get("seat"):
            return
        controls = state.get("controls")
        if controls is None:
            return
        for tile in state.get("hand", []):
            if tile["fits"]:
                self.send({"type": "play", "tile": tile["tile"], "end": tile["fits"][0]})
                return
        if controls.get("can_draw"):
            self.send({"type": "draw"})
        elif controls.get("can_pass"):
            self.send({"type": "pass"})

    @property
    def over(self) -> bool:
        return bool(self.last.get("match", {}).get("over"))

    def close(self) -> None:
        if self._socket is not None:
            self._socket.close()
        if self._thread is not None:
            self._thread.join(timeout=10)
