"""How long a connection waits and how much it queues (`TransportConfig`), in one place: the
connection, the listener and the runtime read the same values."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True)
class TransportConfig:
    """Timeouts and buffer sizes of one connection (seconds, messages, bytes).

    The defaults follow the issue: a vanished peer is noticed within ``peer_timeout`` (5 s),
    since mDNS keeps a crashed peer's record for about 19 minutes. The reader never waits for
    the application (so liveness does not depend on how fast it consumes); up to
    ``receive_queue`` messages and ``receive_bytes`` bytes wait for :meth:`Connection.receive`,
    and one more closes the connection. A write that cannot complete within ``peer_timeout``
    closes it too.

    An inbound connection is a *stranger* until the application calls
    :meth:`Connection.trust` (a seated peer): it has ``accept_timeout`` (at most
    ``handshake_timeout``) to finish the handshake, then a queue of ``stranger_queue`` messages
    and ``stranger_bytes`` bytes, and it is closed unless trusted (or held,
    :meth:`Connection.hold`) within ``trust_timeout``. A held connection keeps the stranger's
    queue until it is trusted.
    """

    handshake_timeout: float = 5.0
    heartbeat_interval: float = 1.0
    peer_timeout: float = 5.0
    connect_timeout: float = 5.0
    receive_queue: int = 1024
    receive_bytes: int = 16 * 1024 * 1024
    accept_timeout: float = 2.5
    stranger_queue: int = 16
    stranger_bytes: int = 512 * 1024
    trust_timeout: float = 20.0

    def __post_init__(self) -> None:
        for name in (
            "handshake_timeout",
            "heartbeat_interval",
            "peer_timeout",
            "connect_timeout",
            "accept_timeout",
            "trust_timeout",
        ):
            value = getattr(self, name)
            if not isinstance(value, int | float) or not value > 0:
                raise ValueError(f"{name} must be a positive number of seconds")
        if self.heartbeat_interval >= self.peer_timeout:
            raise ValueError("heartbeat_interval must be shorter than peer_timeout")
        for name in ("receive_queue", "receive_bytes", "stranger_queue", "stranger_bytes"):
            value = getattr(self, name)
            if type(value) is not int or value < 1:
                raise ValueError(f"{name} must be a positive int")

    @property
    def inbound_handshake_timeout(self) -> float:
        """Seconds an inbound stranger has to complete the handshake."""
        return min(self.handshake_timeout, self.accept_timeout)


DEFAULT_CONFIG: Final = TransportConfig()
"""The transport's defaults (a vanished peer is noticed within five seconds)."""
