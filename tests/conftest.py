"""Fixtures for every test, the test ladder's tiers, the guard that no test leaves a process
behind (`tests/process_guard.py`), and the run's figures in its summary (`tests/run_figures.py`)."""

import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

import pytest
from hypothesis import settings

from p2p_dominoes.net import strangers
from tests import process_guard, run_figures

# A shell that starts the suite in the background (`nohup`, `cmd &`) hands it SIGINT ignored, and
# an ignored signal stays ignored in every process it starts: the peers that tests stop with
# Ctrl-C's SIGINT would not stop. Python's own handler is reset to the default on exec, so every
# process started from here gets Ctrl-C's default behaviour again.
signal.signal(signal.SIGINT, signal.default_int_handler)

FAST_TIER: Final = ("engine", "mental", "words")
"""The pure layers' folders under tests/: the fast tier (`pytest -m fast`, under a minute),
which `scripts/ladder.py` runs before the rest."""
TESTS: Final = Path(__file__).resolve().parent

settings.register_profile("gate", derandomize=True)
"""The ladder's (and so CI's) hypothesis profile (`--hypothesis-profile gate`): the same examples
on every run, so a gate never turns red on an example no one chose. A plain `pytest` explores
new random examples each run, and a failure it finds is kept as an `@example`."""


def pytest_configure(config: pytest.Config) -> None:
    process_guard.mark_this_run()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the fast tier; then slow tests first (in their order): with `--maxschedchunk 1`
    pytest-xdist's workers take them one at a time from the start, and the run ends on short
    tests, so the workers finish together (without it the first worker's first chunk would hold
    every slow test)."""
    for item in items:
        parts = item.path.resolve().relative_to(TESTS).parts
        if parts and parts[0] in FAST_TIER:
            item.add_marker(pytest.mark.fast)
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


@pytest.fixture(autouse=True)
def _no_process_outlives_its_test() -> Iterator[None]:
    """Fail a test that leaves a process running after its teardown (and kill what it left)."""
    before = [process.key for process in process_guard.descendants()]
    yield
    left = process_guard.left_behind(before)
    if left:
        process_guard.kill(left)
        lines = "\n".join(f"  pid {p.pid}: {p.argv[:200]}" for p in left)
        pytest.fail(f"the test left {len(left)} process(es) running:\n{lines}", pytrace=False)


def pytest_sessionfinish(session: pytest.Session) -> None:
    run_figures.hand_to_controller(session.config)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: object) -> None:
    """pytest-xdist: a worker finished; its figures came with it (none if it crashed)."""
    run_figures.take_from_worker(
        node.config, getattr(node, "workeroutput", {}), crashed=error is not None
    )


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    run_figures.print_figures(terminalreporter, config)


@pytest.fixture(autouse=True)
def _a_fresh_stranger_log() -> Iterator[None]:
    """Each test starts with no stranger named yet (the process shares one memory of them)."""
    strangers._PROCESS_MEMORY.clear()
    yield
    strangers._PROCESS_MEMORY.clear()
