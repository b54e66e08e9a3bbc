"""Where every task of a peer waits, on request: a diagnosis for a peer that does not stop.

A peer started with `P2P_DOMINOES_TASK_DUMP=1` in its environment prints its trio task tree,
each task with the frames it is suspended in, to standard error when it receives SIGUSR1. The
tests set it for the peers they stop with Ctrl+C, and send SIGUSR1 before giving up on one:
`faulthandler` shows only the threads, and a trio program that hangs is one thread waiting in
epoll while some task waits for something that will never come.
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Awaitable, Callable
from typing import Final

import trio

ENVIRONMENT: Final = "P2P_DOMINOES_TASK_DUMP"


def wanted() -> bool:
    """Whether this process was asked to dump its tasks on SIGUSR1."""
    return os.environ.get(ENVIRONMENT) == "1"


def task_tree() -> str:
    """The running tasks, nested as their nurseries are, each with its suspended frames."""
    lines: list[str] = []

    def visit(task: trio.lowlevel.Task, depth: int) -> None:
        lines.append(f"{'  ' * depth}task {task.name}")
        for frame, line in task.iter_await_frames():
            code = frame.f_code
            lines.append(f"{'  ' * depth}    {code.co_filename}:{line} in {code.co_name}")
        for nursery in task.child_nurseries:
            for child in nursery.child_tasks:
                visit(child, depth + 1)

    visit(trio.lowlevel.current_root_task(), 0)  # type: ignore[arg-type]
    return "\n".join(lines)


async def _dump_on_signal() -> None:
    with trio.open_signal_receiver(signal.SIGUSR1) as signals:
        async for _ in signals:
            print(f"trio tasks of pid {os.getpid()}:\n{task_tree()}", file=sys.stderr, flush=True)


def with_task_dump(main: Callable[[], Awaitable[int]]) -> Callable[[], Awaitable[int]]:
    """`main`, with a task that dumps the task tree on SIGUSR1 when `wanted()` (else `main`)."""
    if not wanted():
        return main

    async def dumping() -> int:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(_dump_on_signal)
            try:
                return await main()
            finally:
                nursery.cancel_scope.cancel()

    return dumping
