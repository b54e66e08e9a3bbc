"""Errors of the transport layer; each carries a human-readable reason that names the fault.

Reasons that quote a peer (its ``bye``) are cleaned with :func:`peer_text` before they are
stored, so that printing an error never passes a peer's control characters to a terminal.
"""

from __future__ import annotations

from typing import Final

from p2p_dominoes.peer_text import peer_text
from p2p_dominoes.words import Phrase, phrase

_REASON_CHARS: Final = 256
_CLOSED_REASON_CHARS: Final = 400


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


class OwnIdentity(IdentityMismatch):
    """The peer proved our own key: we dialled ourselves, or a second peer shares our data
    folder (and so our identity)."""


class RefusedByPeer(HandshakeError):
    """The peer refused us during the handshake; ``reason`` is its (unauthenticated) reason.

    ``reason`` is cleaned for display; ``code`` is the bye's machine-readable code, if any.
    Decide on retries by type (:class:`PeerBusy`) or ``code``, never by the reason's words.
    """

    def __init__(self, reason: str, *, code: str | None = None) -> None:
        self.reason = peer_text(reason, _REASON_CHARS)
        self.code = code
        super().__init__(phrase("net.why.refused_by_peer", reason=self.reason))


class PeerBusy(RefusedByPeer):
    """The peer refused us for now (too many connections): dial again later, with backoff."""


class TurnedAway(HandshakeError):
    """We refused an inbound peer for now (a limit was reached); it is told ``busy``."""


class ConnectionClosed(NetError):
    """The connection is over: closed by either side, the peer went silent, or it misbehaved.

    ``reason`` says why in words fit for a log line (a peer's bye reason in it is cleaned);
    ``peer_fault`` is True when the peer broke the protocol (garbage, bad authentication tag,
    oversized frame) rather than leaving.
    """

    def __init__(self, reason: str, *, peer_fault: bool = False) -> None:
        cleaned = peer_text(reason, _CLOSED_REASON_CHARS)
        if isinstance(reason, Phrase) and cleaned == reason:
            cleaned = reason  # our own words, kept to be read in the player's language
        super().__init__(cleaned)
        self.reason = cleaned
        self.peer_fault = peer_fault


class DiscoveryError(NetError):
    """Discovery cannot run here (no usable interface) or an advertisement is invalid."""
