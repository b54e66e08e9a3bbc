"""The hostile-LAN suite's fixture: `attacks`, its record of attacks and figures
(`tests/net/hostile/figures.py`)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.net.hostile.figures import ATTACKS_KEY, Attacks


@pytest.fixture(scope="session")
def attacks(request: pytest.FixtureRequest) -> Iterator[Attacks]:
    found = Attacks()
    request.config.stash[ATTACKS_KEY] = found
    yield found
