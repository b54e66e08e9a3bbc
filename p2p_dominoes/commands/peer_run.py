"""Running a peer command: one line for a failure (the exit status of `commands/exits.py`),
Ctrl+C's line saying how to come back, the player's typed lines fed to the text UI, and the
unfinished tables a peer mentions."""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import trio

from p2p_dominoes.commands.command_language import command_language
from p2p_dominoes.commands.exits import Interrupted, UsageError
from p2p_dominoes.net import DiscoveryError, PeerFailure, PeerOptions
from p2p_dominoes.net.task_dump import with_task_dump
from p2p_dominoes.peer_text import peer_text
from p2p_dominoes.store import data_dir, discard_unfinished_writes
from p2p_dominoes.ui.text import PlayerGone
from p2p_dominoes.words import line, reason_in

PENDING_INPUT: list[trio.MemorySendChannel[str]] = []
"""Where the stdin reader puts the player's lines (one per process)."""


def run_peer(main: Callable[[], Awaitable[int]], options: PeerOptions | None = None) -> int:
    """Run a peer; its PeerFailure becomes one line for the user, Ctrl+C one line saying how
    to come back (exit status 130)."""
    before = _unfinished_ids(options)
    try:
        # Ctrl+C reaches the main task at a checkpoint, never in the middle of some task's code,
        # where a handler of that task could take it for its own failure and carry on.
        return trio.run(with_task_dump(main), restrict_keyboard_interrupt_to_checkpoints=True)
    except BaseException as exc:  # nurseries wrap errors in exception groups
        failure = first_of(exc, PeerFailure) or first_of(exc, PlayerGone)
        if failure is not None:
            raise UsageError(peer_text(reason_in(failure, command_language()), 400)) from None
        discovery = first_of(exc, DiscoveryError)
        if discovery is not None:
            raise UsageError(_discovery_text(discovery)) from None
        if first_of(exc, KeyboardInterrupt) is not None:
            # A second Ctrl+C now (a person pressing twice) must not lose the line that says
            # how to come back: it takes a moment to read the table logs.
            previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
            try:
                if options is not None and options.record is not None:
                    discard_unfinished_writes(options.record)
                said = come_back(options, before)
            finally:
                signal.signal(signal.SIGINT, previous)
            raise Interrupted(said) from None
        raise


def _discovery_text(exc: DiscoveryError) -> str:
    return line("command.peer.no_discovery", command_language(), error=exc)


def _unfinished_ids(options: PeerOptions | None) -> set[bytes]:
    if options is None or options.data_dir is None:
        return set()
    return {t.table_id for t in unfinished(options.data_dir)}


def come_back(options: PeerOptions | None, before: set[bytes]) -> str:
    """The line after Ctrl+C, in the command line's language: how to come back to the table,
    if it was kept."""
    lang = command_language()
    if options is None:
        return line("command.peer.interrupted", lang)
    if options.data_dir is None:
        return line("command.peer.interrupted_no_log", lang)
    tables = unfinished(options.data_dir)
    if not tables:
        return line("command.peer.interrupted_before_game", lang)
    command = "p2p-dominoes resume"
    if options.data_dir != data_dir(None):
        command += f" --data-dir {_quoted(str(options.data_dir))}"
    new = [t for t in tables if t.table_id not in before] or tables
    if len(tables) > 1:
        table = new[-1]
        command += f" {_quoted(table.name or table.table_id.hex()[:8])}"
    return line("command.peer.interrupted_seat_kept", lang, command=command)


def _quoted(text: str) -> str:
    import shlex

    return shlex.quote(text)


_E = TypeVar("_E", bound=BaseException)


def first_of(exc: BaseException, kind: type[_E]) -> _E | None:
    """The first exception of type `kind` in `exc` or in its groups, or None."""
    if isinstance(exc, kind):
        return exc
    if isinstance(exc, BaseExceptionGroup):
        for inner in exc.exceptions:
            found = first_of(inner, kind)
            if found is not None:
                return found
    return None


async def _stdin_lines(send: trio.MemorySendChannel[str]) -> None:
    """Feed the player's typed lines to the game (the terminal UI reads from here)."""
    stream = trio.lowlevel.FdStream(os.dup(sys.stdin.fileno()))
    buffer = b""
    async with send, stream:
        while True:
            chunk = await stream.receive_some(4096)
            if not chunk:
                return
            buffer += chunk
            while b"\n" in buffer:
                line, buffer = buffer.split(b"\n", 1)
                await send.send(line.decode("utf-8", "replace"))


async def with_input(options: PeerOptions, play: Callable[[], Awaitable[int]]) -> int:
    """Run `play`, feeding the player's typed lines to the text UI when a person plays."""
    if not PENDING_INPUT:
        return await play()
    send = PENDING_INPUT.pop()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(_stdin_lines, send)
        status = await play()
        nursery.cancel_scope.cancel()
    return status


def unfinished(data: Path) -> list[Any]:
    """The unfinished tables kept in `data` (none when it cannot be read)."""
    from p2p_dominoes.store import list_tables

    try:
        return [t for t in list_tables(data) if not t.finished and t.problem is None]
    except OSError:
        return []


def mention_unfinished(options: PeerOptions) -> None:
    """Before hosting or joining: say which tables are unfinished, and how to resume them."""
    if options.data_dir is None:
        return
    for table in unfinished(options.data_dir)[:3]:
        label = table.name or table.table_id.hex()[:8]
        options.say(
            f"Unfinished table '{label}' (seat {table.seat + 1}): p2p-dominoes resume {label!r}"
        )
