"""Fixtures for every test."""

from collections.abc import Iterator

import pytest

from p2p_dominoes.net import strangers


@pytest.fixture(autouse=True)
def _a_fresh_stranger_log() -> Iterator[None]:
    """Each test starts with no stranger named yet (the process shares one memory of them)."""
    strangers._PROCESS_MEMORY.clear()
    yield
    strangers._PROCESS_MEMORY.clear()
