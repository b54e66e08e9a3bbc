"""Every test ends the processes it starts: the guard behind the `tests/conftest.py` fixture.

The pytest process puts a mark in its environment (`MARK`, its own pid), which every process it
starts inherits, and their children too: so a grandchild whose parent died (a bot whose `play`
was killed, a `host` whose `unshare` wrapper exited), re-parented to init, still carries it.
(Not a child subreaper: adopted processes would linger as zombies that keep their process group
alive, and tests wait for groups to go.) Before a test the guard notes the live marked
processes; after the test's own fixtures are torn down, any marked process that was not there
before and is still alive (a zombie is not) is a leak: the guard kills it and fails the test,
naming its command line.

Exempt are the long-lived helpers of session fixtures: the Playwright driver and the browser it
launched (a subtree whose root's command line names Playwright).
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Final

MARK: Final = "P2PD_TEST_RUNNER"
GRACE_SECONDS: Final = 5.0
"""How long a process may take to exit after its test's teardown before it counts as left behind
(a process sent SIGTERM at the end of a fixture may still be saving its log)."""
EXEMPT_MARKERS: Final = ("playwright",)


@dataclass(frozen=True)
class Process:
    """One entry of /proc: a pid with its start time (pids are reused), parent, state, argv."""

    pid: int
    started: int
    parent: int
    state: str
    argv: str
    marked: bool

    @property
    def key(self) -> tuple[int, int]:
        return (self.pid, self.started)

    @property
    def alive(self) -> bool:
        return self.state not in ("Z", "X")


def mark_this_run() -> None:
    """Mark the processes this one starts from now on (see the module's text)."""
    os.environ[MARK] = str(os.getpid())


def _read(pid: int) -> Process | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        argv = Path(f"/proc/{pid}/cmdline").read_bytes()
        environ = Path(f"/proc/{pid}/environ").read_bytes()
    except OSError:
        return None
    # The command name (field 2) is in parentheses and may hold spaces: split after the last ')'.
    fields = stat[stat.rindex(")") + 2 :].split()
    return Process(
        pid=pid,
        started=int(fields[19]),
        parent=int(fields[1]),
        state=fields[0],
        argv=argv.replace(b"\0", b" ").decode(errors="replace").strip() or stat.split()[1],
        marked=f"\0{MARK}={os.getpid()}\0".encode() in b"\0" + environ,
    )


def descendants() -> list[Process]:
    """The processes started from this one (marked), but for the exempt subtrees."""
    table = {p.pid: p for p in (_read(int(e)) for e in os.listdir("/proc") if e.isdigit()) if p}

    def exempt(process: Process) -> bool:
        """Whether the process or one of its ancestors is a session fixture's helper."""
        chain: Process | None = process
        for _ in range(64):  # a parent chain is short; this bounds a pid-reuse loop
            if chain is None:
                return False
            if any(marker in chain.argv for marker in EXEMPT_MARKERS):
                return True
            chain = table.get(chain.parent)
        return False

    me = os.getpid()
    return [p for p in table.values() if p.marked and p.pid != me and not exempt(p)]


def _reap(pids: set[int]) -> None:
    """Collect those of `pids` that are our exited children (the leaks just killed: their test
    is over, nothing else will wait for them). Other zombies are left alone: a child's `Popen`
    may still read its status."""
    for pid in pids:
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)


def left_behind(before: Iterable[tuple[int, int]], grace: float = GRACE_SECONDS) -> list[Process]:
    """The live processes below this one that are not in `before`, after up to `grace` seconds
    for them to exit (polled: the condition, not a fixed wait)."""
    known = set(before)
    deadline = time.monotonic() + grace
    while True:
        left = [p for p in descendants() if p.alive and p.key not in known]
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.05)


def kill(processes: Iterable[Process]) -> None:
    """SIGKILL each process (so a leak does not outlive the run), then reap what was ours."""
    pids = {process.pid for process in processes}
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + GRACE_SECONDS
    while time.monotonic() < deadline and any(p.alive for p in descendants() if p.pid in pids):
        time.sleep(0.02)
    _reap(pids)
