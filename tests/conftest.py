"""Fixtures for every test, and the run's figures in its summary (`tests/run_figures.py`)."""

from collections.abc import Iterator
from typing import Any

import pytest

from p2p_dominoes.net import strangers
from tests import run_figures


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Slow tests first (in their order): with `--maxschedchunk 1` pytest-xdist's workers
    take them one at a time from the start, and the run ends on short tests, so the workers
    finish together (without it the first worker's first chunk would hold every slow test)."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


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
