"""Fixtures for the transport tests, and the network-hygiene guard.

The guard: the pytest process itself runs in the machine's own network namespace, so no test
may start zeroconf in it (that would send mDNS on real interfaces). ``Zeroconf.__init__`` is
replaced, for every test in this folder, by one that fails loudly. mDNS tests start peers as
subprocesses inside namespaces made by ``tests/net/netns.py``, which check their isolation.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import zeroconf

from p2p_dominoes.net import TransportConfig
from p2p_dominoes.session import Identity


class HygieneViolation(AssertionError):
    """A test tried to start mDNS in the machine's own network namespace."""


@pytest.fixture(autouse=True)
def _no_mdns_in_this_namespace(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    def refuse(self: Any, *args: Any, **kwargs: Any) -> None:
        raise HygieneViolation("zeroconf may not run in the test runner's network namespace")

    monkeypatch.setattr(zeroconf.Zeroconf, "__init__", refuse)
    yield


@pytest.fixture
def alice() -> Identity:
    return Identity.from_private_bytes(b"\x01" * 32)


@pytest.fixture
def bob() -> Identity:
    return Identity.from_private_bytes(b"\x02" * 32)


@pytest.fixture
def carol() -> Identity:
    return Identity.from_private_bytes(b"\x03" * 32)


FAST = TransportConfig(
    handshake_timeout=1.0, heartbeat_interval=0.1, peer_timeout=0.6, connect_timeout=2.0
)
"""Short timeouts so that timeout tests take a fraction of a second."""
