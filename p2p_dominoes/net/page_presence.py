"""The advisory page-presence message (channel 0x03, PROTOCOL.md §14): whether a seat's person has
the page open, has closed it, or plays without one (the terminal, a bot).

It is unsigned and changes no game state: it only lets the others show that seat "away — page
closed" sooner than the stall timeout would. It rides on the seat's authenticated connection, so
a peer can only speak for its own seat (and may lie about it). A receiver checks it strictly,
keeps one value per seat, and takes at most a few per second from each connection.
"""

from __future__ import annotations

from typing import Final, Literal

import msgpack  # type: ignore[import-untyped]

CHANNEL_PRESENCE: Final = 0x03
"""The transport payload's channel byte (0x01 session envelopes, 0x02 lobby, net/lobby.py)."""

PageState = Literal["open", "closed", "none"]
"""`open`: a tab shows the table; `closed`: the last tab went away; `none`: no page at all."""
PAGE_STATES: Final[tuple[PageState, ...]] = ("open", "closed", "none")

MAX_PRESENCE_BYTES: Final = 16
"""The longest presence payload (after the channel byte); the longest valid one has 13."""
PRESENCE_BURST: Final = 4
"""Presence messages a connection may send at once before the rate limit applies."""
PRESENCE_PER_SECOND: Final = 1.0
"""Presence messages a connection earns per second after its burst; the rest are dropped."""


class PresenceError(Exception):
    """A presence payload that is not exactly `["page", state]`."""


def encode_presence(state: PageState) -> bytes:
    """The transport payload (channel byte included) saying our page's state."""
    packed: bytes = msgpack.packb(["page", state], use_bin_type=True)
    return bytes([CHANNEL_PRESENCE]) + packed


def decode_presence(payload: bytes) -> PageState:
    """The state in a presence payload (after the channel byte); PresenceError otherwise."""
    if len(payload) > MAX_PRESENCE_BYTES:
        raise PresenceError(f"{len(payload)} bytes, at most {MAX_PRESENCE_BYTES}")
    try:
        body = msgpack.unpackb(
            payload,
            raw=False,
            strict_map_key=True,
            max_map_len=0,
            max_ext_len=0,
            max_array_len=2,
            max_str_len=MAX_PRESENCE_BYTES,
            max_bin_len=0,
            use_list=True,
        )
    except (ValueError, msgpack.UnpackException, TypeError) as exc:
        raise PresenceError(f"not msgpack: {type(exc).__name__}") from None
    if not isinstance(body, list) or len(body) != 2 or body[0] != "page":
        raise PresenceError("not a [page, state] array")
    for state in PAGE_STATES:
        if body[1] == state:
            return state
    raise PresenceError("an unknown page state")


class PresenceLimit:
    """A token bucket per connection: PRESENCE_BURST at once, then PRESENCE_PER_SECOND."""

    def __init__(self, now: float) -> None:
        self._tokens = float(PRESENCE_BURST)
        self._at = now

    def allow(self, now: float) -> bool:
        """Whether a presence message arriving at `now` is taken (False: dropped)."""
        elapsed = max(0.0, now - self._at)
        self._tokens = min(float(PRESENCE_BURST), self._tokens + elapsed * PRESENCE_PER_SECOND)
        self._at = now
        if self._tokens < 1.0:
            return False
        self._tokens -= 1.0
        return True
