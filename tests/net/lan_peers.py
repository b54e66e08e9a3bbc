"""Run `p2p-dominoes host` / `join` as real OS processes and read what they print.

Each peer's standard output and error go to files in the test's temporary directory, so a test
can wait for a line (the host's "open on port N"), and a failing test shows every peer's output.
Every process started here is killed by its own PID when the block ends, also on failure.
"""

from __future__ import annotations

import contextlib
import re
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from tests.net.netns import REPO_ROOT

PORT_LINE = re.compile(r"is open on port (\d+)\.")
FINAL_HASH = re.compile(r"final transcript hash: ([0-9a-f]{64})")
LOOPBACK = ("--interface", "127.0.0.1", "--port", "0", "--no-mdns", "--ui", "none")
"""A peer on 127.0.0.1 only: any free port, no mDNS, no page."""


def cli_argv(command: str, *args: str) -> list[str]:
    """This interpreter running `p2p-dominoes COMMAND ARGS…`."""
    return [sys.executable, "-m", "p2p_dominoes", command, *args]


class Peer:
    """One running peer process; its output is kept in `<dir>/<name>.out` and `.err`."""

    def __init__(
        self, name: str, argv: Sequence[str], directory: Path, *, typed: bool = False
    ) -> None:
        """Start the peer; with `typed` its standard input is a pipe (see :meth:`type_line`)."""
        self.name = name
        self.argv = list(argv)
        self.stdout_path = directory / f"{name}.out"
        self.stderr_path = directory / f"{name}.err"
        with self.stdout_path.open("wb") as out, self.stderr_path.open("wb") as err:
            self.process = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE if typed else subprocess.DEVNULL,
                stdout=out,
                stderr=err,
                cwd=REPO_ROOT,
            )

    def type_line(self, line: str) -> None:
        """Type a line for the player of this peer (it plays with the text UI)."""
        assert self.process.stdin is not None
        self.process.stdin.write(line.encode() + b"\n")
        self.process.stdin.flush()

    @property
    def stdout(self) -> str:
        return self.stdout_path.read_text(encoding="utf-8", errors="replace")

    @property
    def stderr(self) -> str:
        return self.stderr_path.read_text(encoding="utf-8", errors="replace")

    def wait_for(self, pattern: re.Pattern[str], timeout: float = 20.0) -> re.Match[str]:
        """The first match of `pattern` in the peer's standard output, waiting for it to appear."""
        deadline = time.monotonic() + timeout
        while True:
            found = pattern.search(self.stdout)
            if found is not None:
                return found
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"{self.name} never printed {pattern.pattern!r}\n{self}")
            time.sleep(0.02)

    def port(self) -> int:
        """The port the host printed ("… is open on port N.")."""
        return int(self.wait_for(PORT_LINE).group(1))

    def wait(self, timeout: float) -> int:
        try:
            return self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"{self.name} still running after {timeout:g} s\n{self}") from None

    def final_hash(self) -> str:
        found = FINAL_HASH.search(self.stdout)
        assert found is not None, f"{self.name} printed no final hash\n{self}"
        return found.group(1)

    def __str__(self) -> str:
        return (
            f"--- {self.name}: {' '.join(self.argv[2:])}\n"
            f"stdout:\n{self.stdout}\nstderr:\n{self.stderr}"
        )


@contextlib.contextmanager
def peers() -> Iterator[list[Peer]]:
    """A list to put started peers in; whatever still runs at the end is killed (by PID)."""
    started: list[Peer] = []
    try:
        yield started
    finally:
        for peer in started:
            if peer.process.poll() is None:
                peer.process.kill()
                peer.process.wait(10)
            if peer.process.stdin is not None:
                peer.process.stdin.close()


def finish_all(started: Sequence[Peer], timeout: float) -> None:
    """Wait for every peer; each must exit 0 (the assertion shows every peer's output)."""
    deadline = time.monotonic() + timeout
    for peer in started:
        peer.wait(max(0.1, deadline - time.monotonic()))
    failed = [p for p in started if p.process.returncode != 0]
    assert not failed, "\n".join(
        [f"{p.name} exited {p.process.returncode}" for p in failed] + [str(p) for p in started]
    )


def check_agreement(started: Sequence[Peer], records: Sequence[Path]) -> str:
    """Every peer printed the same final hash and wrote the same bytes; returns the hash."""
    hashes = {p.name: p.final_hash() for p in started}
    assert len(set(hashes.values())) == 1, hashes
    contents = [r.read_bytes() for r in records]
    assert all(c == contents[0] for c in contents), "the records differ"
    return next(iter(hashes.values()))


def verify_cli(record: Path) -> str:
    """`p2p-dominoes verify RECORD` must exit 0; returns its line."""
    result = subprocess.run(
        cli_argv("verify", str(record)),
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO_ROOT,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "clean" in result.stdout, result.stdout
    return result.stdout


@dataclass(frozen=True)
class PlayedTable:
    """A table played to its end over loopback: its peers (the host first), their records, and
    the final hash every peer printed and every record ends on."""

    peers: list[Peer]
    records: list[Path]
    final: str

    @property
    def host(self) -> Peer:
        return self.peers[0]


def start_host(tmp_path: Path, started: list[Peer], *args: str) -> Peer:
    """`host --name host ARGS` on loopback (`LOOPBACK`) as a peer process, added to `started`."""
    host = Peer("host", cli_argv("host", "--name", "host", *args, *LOOPBACK), tmp_path)
    started.append(host)
    return host


def play_on_loopback(
    tmp_path: Path,
    seats: int,
    *host_args: str,
    host_bot: str = "greedy",
    joiner_bot: str = "random",
    timeout: float = 180,
) -> PlayedTable:
    """`host` (with `host_args`, e.g. `--rules`, `--hands`) and `seats - 1` joiners dialling it
    over TCP on 127.0.0.1, every seat a bot keeping a record; all must end with status 0 and
    agree byte for byte (`check_agreement`)."""
    records = [tmp_path / f"seat{k}.p2pd" for k in range(seats)]
    with peers() as started:
        host = start_host(
            tmp_path,
            started,
            *("--bot", host_bot, "--players", str(seats), *host_args, "--record", str(records[0])),
        )
        port = host.port()
        for k in range(1, seats):
            joiner = cli_argv(
                "join",
                *("--connect", f"127.0.0.1:{port}", "--name", f"joiner{k}", "--bot", joiner_bot),
                *("--record", str(records[k]), *LOOPBACK),
            )
            started.append(Peer(f"joiner{k}", joiner, tmp_path))
        finish_all(started, timeout=timeout)
        final = check_agreement(started, records)
    return PlayedTable(list(started), records, final)
