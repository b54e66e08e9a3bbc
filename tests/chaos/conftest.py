"""The chaos suite's fixtures: its figures (`tests/chaos/figures.py`), and the network-hygiene
guard.

The guard: the pytest process runs in the machine's own network namespace, so no test here may
start zeroconf in it. The peers are started with ``--no-mdns`` on 127.0.0.1 or inside the fake
LAN's namespaces (``tests/net/netns.py``), never on a real interface.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import zeroconf

from tests.chaos.figures import FIGURES_KEY, Figures


@pytest.fixture(scope="session")
def figures(request: pytest.FixtureRequest) -> Iterator[Figures]:
    found = Figures()
    request.config.stash[FIGURES_KEY] = found
    yield found


class HygieneViolation(AssertionError):
    """A test tried to start mDNS in the machine's own network namespace."""


@pytest.fixture(autouse=True)
def _no_mdns_in_this_namespace(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    def refuse(self: Any, *args: Any, **kwargs: Any) -> None:
        raise HygieneViolation("zeroconf may not run in the test runner's network namespace")

    monkeypatch.setattr(zeroconf.Zeroconf, "__init__", refuse)
    yield
