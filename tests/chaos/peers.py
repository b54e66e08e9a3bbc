"""Real peer processes for the chaos tests: start, kill -9, freeze, resume, and watch their logs.

Every peer is a separate ``python -m p2p_dominoes`` process (a random bot, ``--ui none``,
``--no-mdns``) with its own data directory (identity, crash-safe table log, hand secrets) and
its own ``--record``. Its output goes to one file per run (``PYTHONUNBUFFERED``, so a killed
peer's last lines are there too). The table log is read while the peer writes it
(:func:`p2p_dominoes.store.read_log` leaves out a record caught half-written), which is how the
tests know what phase a peer is in, and when a resumed peer is back in play.

A :class:`Table` starts a host and its joiners on given addresses (``127.0.0.1`` for all, or one
namespace each through ``wraps``) and kills whatever is still running when it closes. Processes
are only ever signalled by the PID this module started.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Final

from p2p_dominoes.cli import main as cli_main
from p2p_dominoes.session import Envelope, default_registry
from p2p_dominoes.store import LogContents, TableLogError, read_log, tables_dir

PHASE_OF_TYPE: Final[dict[str, str]] = {
    "genesis": "setup",
    "genesis_sign": "setup",
    "key_commit": "setup",
    "key_reveal": "setup",
    "shuffle": "shuffle",
    "deal": "deal",
    "lead_claim": "deal",
    "lead_claim3": "deal",
    "play": "turns",
    "play3": "turns",
    "draw": "turns",
    "draw_share": "turns",
    "pass": "turns",
    "skip": "turns",
    "hand_reveal": "reveal",
    "secret_reveal": "reveal",
}
"""The phase of the hand a peer is in, by the type of the last message its log holds."""

PHASES: Final = ("setup", "shuffle", "deal", "turns", "reveal")

Wrap = Callable[[list[str]], list[str]]
RecordProperty = Callable[[str, object], None]
"""pytest's `record_property` fixture (a name/value pair for the JUnit XML report)."""


def _no_wrap(argv: list[str]) -> list[str]:
    return argv


def message_type(data: bytes) -> str:
    """The type name of an encoded envelope (``genesis``, ``shuffle``, ``play`` …)."""
    return Envelope.decode(data, default_registry()).type.name


def sender(data: bytes) -> int:
    """The seat that signed an encoded envelope."""
    return Envelope.decode(data, default_registry()).seat


@dataclass(frozen=True)
class LogView:
    """What a peer's table log held when it was read."""

    seat: int
    messages: tuple[bytes, ...]
    finished: str | None
    dropped: int
    contents: LogContents

    @property
    def last_type(self) -> str:
        return message_type(self.messages[-1])

    @property
    def phase(self) -> str:
        return PHASE_OF_TYPE.get(self.last_type, self.last_type)


@dataclass
class Run:
    """One process of a peer: what it was started as, when, and where its output went."""

    command: str
    started: float
    output: Path
    process: subprocess.Popen[bytes]


@dataclass
class Peer:
    """One player: its data directory, record file and interface; its successive processes."""

    label: str
    root: Path
    interface: str
    wrap: Wrap = _no_wrap
    runs: list[Run] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)
    """Extra environment variables of its processes (a test hook's, say)."""
    _cached: tuple[int, LogView] | None = None

    @property
    def data_dir(self) -> Path:
        return self.root / self.label / "data"

    @property
    def record(self) -> Path:
        return self.root / self.label / "record.p2pd"

    @property
    def process(self) -> subprocess.Popen[bytes] | None:
        return self.runs[-1].process if self.runs else None

    # -- processes ---------------------------------------------------------------------------

    def _common(self) -> list[str]:
        return [
            "--bot", "random", "--ui", "none", "--no-mdns", "--port", "0",
            "--interface", self.interface,
            "--data-dir", str(self.data_dir), "--record", str(self.record),
        ]  # fmt: skip

    def start(self, command: str, *args: str) -> Run:
        """Start `p2p-dominoes COMMAND … ARGS` for this peer (the previous run must be over)."""
        assert not self.alive, f"{self.label} is still running"
        (self.root / self.label).mkdir(parents=True, exist_ok=True)
        output = self.root / self.label / f"run{len(self.runs)}-{command}.out"
        argv = self.wrap([sys.executable, "-m", "p2p_dominoes", command, *self._common(), *args])
        env = {**os.environ, "PYTHONUNBUFFERED": "1", **self.env}
        with output.open("wb") as sink:
            started = time.monotonic()
            process = subprocess.Popen(
                argv,
                stdin=subprocess.DEVNULL,
                stdout=sink,
                stderr=subprocess.STDOUT,
                env=env,
                start_new_session=True,
            )
        run = Run(command, started, output, process)
        self.runs.append(run)
        return run

    def host(self, players: int, hands: int, *extra: str) -> Run:
        return self.start(
            "host", "--name", self.label, "--players", str(players), "--hands", str(hands), *extra
        )

    def join(self, host: str, port: int) -> Run:
        return self.start("join", "--connect", f"{host}:{port}", "--name", self.label)

    def resume(self) -> Run:
        return self.start("resume")

    @property
    def alive(self) -> bool:
        process = self.process
        return process is not None and process.poll() is None

    def signal(self, signum: int) -> None:
        """Send `signum` to this peer's current process (by the PID we started)."""
        process = self.process
        if process is not None and process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(process.pid, signum)

    def kill(self) -> None:
        """kill -9, and reap it."""
        self.signal(signal.SIGKILL)
        if self.process is not None:
            self.process.wait(timeout=10)

    def freeze(self) -> None:
        self.signal(signal.SIGSTOP)

    def thaw(self) -> None:
        self.signal(signal.SIGCONT)

    def wait(self, timeout: float) -> int | None:
        """The current process's exit status, or None if it is still running after `timeout`."""
        process = self.process
        assert process is not None
        try:
            return process.wait(timeout=max(timeout, 0.0))
        except subprocess.TimeoutExpired:
            return None

    # -- what it says and what it logged -----------------------------------------------------

    def output(self, run: int = -1) -> str:
        return self.runs[run].output.read_text("utf-8", "replace") if self.runs else ""

    def all_output(self) -> str:
        return "\n".join(
            f"--- {self.label} run {i} ({r.command}, status {r.process.poll()}) ---\n"
            + self.output(i)
            for i, r in enumerate(self.runs)
        )

    def port(self) -> int | None:
        """The port a host says it listens on ("… is open on port N.")."""
        found = re.search(r"open on port (\d+)", self.output(0))
        return int(found.group(1)) if found else None

    def table_dir(self) -> Path | None:
        try:
            tables = [d for d in tables_dir(self.data_dir).iterdir() if d.is_dir()]
        except FileNotFoundError:
            return None
        assert len(tables) <= 1, tables
        return tables[0] if tables and (tables[0] / "table.log").exists() else None

    def log(self, *, cached: bool = False) -> LogView | None:
        """This peer's table log as it is now (None before the peer sat down).

        `cached`: reuse the last reading while the file's size is unchanged (for polling; the
        log only grows, but for the cut of a torn record when a peer resumes).
        """
        directory = self.table_dir()
        if directory is None:
            return None
        try:
            size = (directory / "table.log").stat().st_size
            if cached and self._cached is not None and self._cached[0] == size:
                return self._cached[1]
            contents = read_log(directory)
        except (FileNotFoundError, TableLogError):
            return None
        view = LogView(
            contents.header.seat,
            contents.messages,
            contents.finished,
            contents.dropped_bytes,
            contents,
        )
        self._cached = (size, view)
        return view


def in_phase(peer: Peer, *phases: str) -> Callable[[], bool]:
    """A test for :func:`wait_until`: the peer's log is in one of `phases`, or finished."""

    def there() -> bool:
        view = peer.log(cached=True)
        return view is not None and (view.finished is not None or view.phase in phases)

    return there


def wait_until(predicate: Callable[[], bool], timeout: float, every: float = 0.02) -> bool:
    deadline = time.monotonic() + timeout
    while True:
        if predicate():
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(every)


@dataclass
class Table:
    """A host (peers[0]) and its joiners, each on its own address (and wrapped command)."""

    root: Path
    players: int
    hands: int
    interfaces: Sequence[str]
    wraps: Sequence[Wrap] | None = None
    host_args: Sequence[str] = ()
    peers: list[Peer] = field(default_factory=list)

    def __post_init__(self) -> None:
        assert len(self.interfaces) == self.players
        wraps = self.wraps or [_no_wrap] * self.players
        labels = ["host"] + [f"j{i}" for i in range(1, self.players)]
        self.peers = [
            Peer(label, self.root, interface, wrap)
            for label, interface, wrap in zip(labels, self.interfaces, wraps, strict=True)
        ]

    def __enter__(self) -> Table:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        """Kill (by PID) every process of ours still running, frozen ones included."""
        for peer in self.peers:
            if peer.alive:
                peer.thaw()
                peer.kill()

    @property
    def host(self) -> Peer:
        return self.peers[0]

    def open(self, timeout: float = 60.0) -> None:
        """Start the host, then the joiners; return once every seat has sat down (has a log)."""
        self.host.host(self.players, self.hands, *self.host_args)
        if not wait_until(lambda: self.host.port() is not None or not self.host.alive, 20):
            raise AssertionError("the host did not open its table:\n" + self.host.all_output())
        port = self.host.port()
        assert port is not None, self.host.all_output()
        for peer in self.peers[1:]:
            peer.join(self.interfaces[0], port)
        if not wait_until(lambda: all(p.log() is not None for p in self.peers), timeout, 0.05):
            raise AssertionError("not every seat sat down:\n" + self.outputs())

    def by_seat(self) -> dict[int, Peer]:
        seats: dict[int, Peer] = {}
        for peer in self.peers:
            view = peer.log()
            assert view is not None
            seats[view.seat] = peer
        return seats

    def outputs(self) -> str:
        return "\n".join(peer.all_output() for peer in self.peers)

    def wait_all(self, timeout: float) -> dict[str, int | None]:
        """Every peer's exit status (None: still running when the time ran out)."""
        deadline = time.monotonic() + timeout
        return {p.label: p.wait(deadline - time.monotonic()) for p in self.peers}


@dataclass
class VerifyResult:
    status: int
    output: str


def verify(path: Path) -> VerifyResult:
    """``p2p-dominoes verify PATH`` (the command's own entry point, run in this process)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        status = cli_main(["verify", str(path)])
    return VerifyResult(status, out.getvalue())


@contextlib.contextmanager
def timed() -> Iterator[Callable[[], float]]:
    """``with timed() as elapsed:`` … ``elapsed()`` seconds since the block began."""
    start = time.monotonic()
    yield lambda: time.monotonic() - start


@dataclass
class Kill:
    """One kill -9 and the resume after it."""

    label: str
    seat: int
    last_type: str
    """The type of the last message in the killed peer's log."""
    phase: str
    messages: int
    """Messages in its log when it died (the genesis included)."""
    together: int
    """How many peers died at the same moment."""
    last_reached: int = 0
    """How many of the peers still running had its last logged message just after it died."""
    resumed: bool = False
    torn_bytes: int = 0
    resuming_line_s: float | None = None
    """From starting `resume` to its "Resuming … messages replayed" line."""
    back_in_play_s: float | None = None
    """From starting `resume` to the first new message in its log (accepted, on disk)."""
    survived: bool = False
    """Set once its match is over: it came back and finished the match (exit 0, log over)."""
    finished_at_kill: bool = False
    """Its log said the match was over when it died: nothing to resume."""


@dataclass
class Chaos:
    """kill -9 peers of a table and resume them, keeping what each log held at the kill."""

    table: Table
    kills: list[Kill] = field(default_factory=list)
    seen: set[bytes] = field(default_factory=set)
    """Every message any killed peer had logged when it died."""

    def candidates(self) -> list[Peer]:
        """Peers that may be killed now: running, sat down and not finished."""
        ready = []
        for peer in self.table.peers:
            view = peer.log(cached=True)
            if peer.alive and view is not None and view.finished is None:
                ready.append(peer)
        return ready

    def kill_and_resume(
        self, victims: Sequence[Peer], pause: float, back_timeout: float = 60.0
    ) -> list[Kill]:
        """kill -9 every victim at once, wait `pause` s, `resume` each, wait until each is back
        in play (a new message in its log) or has finished; returns the kills."""
        for victim in victims:
            victim.kill()
        views = [victim.log() for victim in victims]
        logged = [
            set(view.messages)
            for peer in self.table.peers
            if peer not in victims and (view := peer.log()) is not None
        ]
        done: list[Kill] = []
        for victim, view in zip(victims, views, strict=True):
            assert view is not None
            self.seen.update(view.messages)
            done.append(
                Kill(
                    victim.label,
                    view.seat,
                    view.last_type,
                    view.phase,
                    len(view.messages),
                    len(victims),
                    torn_bytes=view.dropped,
                    last_reached=sum(view.messages[-1] in other for other in logged),
                )
            )
        time.sleep(pause)
        waiting: list[tuple[Peer, LogView, Kill, Run]] = []
        for victim, view, kill in zip(victims, views, done, strict=True):
            assert view is not None
            if view.finished is not None:
                kill.finished_at_kill = True  # it finished just before it died
                continue
            kill.resumed = True
            waiting.append((victim, view, kill, victim.resume()))
        deadline = time.monotonic() + back_timeout
        while waiting and time.monotonic() < deadline:
            for item in list(waiting):
                victim, view, kill, run = item
                now = time.monotonic()
                if kill.resuming_line_s is None and "Resuming" in victim.output():
                    kill.resuming_line_s = now - run.started
                current = victim.log(cached=True)
                if current is not None and len(current.messages) > len(view.messages):
                    kill.back_in_play_s = now - run.started
                    if kill.resuming_line_s is None:
                        kill.resuming_line_s = kill.back_in_play_s
                    waiting.remove(item)
                elif not victim.alive:
                    waiting.remove(item)
            time.sleep(0.01)
        self.kills += done
        return done


@dataclass
class Outcome:
    """A finished match as every peer left it."""

    statuses: dict[str, int | None]
    record: bytes
    messages: tuple[bytes, ...]
    """The final transcript's messages (the genesis first)."""
    lost: set[bytes]
    """Messages some peer had logged that are not in the final transcript."""
    checked: int
    """Distinct messages logged by any peer (at a kill or at the end) that were checked."""
    verify_lines: list[str]


def check_completed(table: Table, chaos: Chaos | None, timeout: float) -> Outcome:
    """Wait for the match to end and check it: every peer exits 0 (or was killed by us after
    its log said the match was over), all records byte-identical, every log holds exactly the
    record and says "over", `verify` is clean on each record and each table directory, and
    nothing any peer ever logged is missing from the final transcript."""
    statuses = table.wait_all(timeout)
    outputs = table.outputs()
    finished_at_kill = {k.label for k in (chaos.kills if chaos else []) if not k.resumed}
    for peer in table.peers:
        status = statuses[peer.label]
        if status == -signal.SIGKILL and peer.label in finished_at_kill:
            continue
        assert status == 0, f"{peer.label} exited with {status}\n{outputs}"
    records = {peer.label: peer.record.read_bytes() for peer in table.peers}
    record = records[table.host.label]
    assert all(data == record for data in records.values()), "the records differ\n" + outputs
    final: tuple[bytes, ...] = ()
    union: set[bytes] = set(chaos.seen) if chaos else set()
    for peer in table.peers:
        view = peer.log()
        assert view is not None
        assert view.finished == "over", (peer.label, view.finished)
        assert view.contents.transcript_bytes() == record, f"{peer.label}'s log is not the record"
        final = view.messages
        union.update(view.messages)
    lines = []
    for peer in table.peers:
        directory = peer.table_dir()
        assert directory is not None
        for path in (peer.record, directory):
            result = verify(path)
            assert result.status == 0 and ": clean — " in result.output, result.output
            lines.append(result.output.strip())
    if chaos is not None:
        for kill in chaos.kills:
            # Back in play, or it had logged the whole match and only its finish was missing.
            came_back = kill.back_in_play_s is not None or kill.messages == len(final)
            kill.survived = kill.resumed and came_back
    return Outcome(statuses, record, final, union - set(final), len(union), lines)
