"""Errors of the transport layer; each carries a human-readable reason that names the fault."""

from __future__ import annotations


class NetError(Exception):
    """Base class of every error raised by ``p2p_dominoes.net``."""


class FrameError(NetError):
    """Bytes from the network that are not a well-formed frame or transport message.

    Raised for a length prefix that is zero or above the limit, an undecodable msgpack payload,
    or a message of the wrong shape. The sender is at fault; the connection must be dropped.
    """


class HandshakeError(NetError):
    """The authenticated handshake did not complete (timeout, bad signature, protocol error)."""


class IdentityMismatch(HandshakeError):
    """The peer proved a key other than the one expected, or a key we refuse to talk to."""


class RefusedByPeer(HandshakeError):
    """The peer refused us during the handshake; ``reason`` is its (unauthenticated) reason."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"refused by peer: {reason}")
        self.reason = reason


class ConnectionClosed(NetError):
    """The connection is over: closed by either side, the peer went silent, or it misbehaved.

    ``reason`` says why in words fit for a log line; ``peer_fault`` is True when the peer broke
    the protocol (garbage, bad authentication tag, oversized frame) rather than leaving.
    """

    def __init__(self, reason: str, *, peer_fault: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.peer_fault = peer_fault
