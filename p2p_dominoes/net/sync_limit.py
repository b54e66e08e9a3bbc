"""Limits on a seated peer's catch-up requests (PROTOCOL.md §10.10), so that it cannot make the
others work for nothing.

A catch-up request costs its sender 32 bytes and its receiver a search of the transcript plus
the encryption and sending of every message after the given head (all of them, for a head the
receiver does not know). Unlimited, a seated peer asking 300 times after each message kept a
host busy for seconds of CPU per hand (issue 23). Per link, therefore:

* **one outstanding**: while a request waits to be answered, a newer one replaces it (the
  latest head is what the peer holds now; nothing an honest peer needs is lost);
* **a few a second**: a token bucket (``SYNC_BURST`` at once, then ``SYNC_PER_SECOND``); a
  request beyond it is kept as the one deferred head and answered when a token is back;
* **bounded answers**: at most ``MAX_SYNC_ANSWER_BYTES`` per answer, in order; the peer asks
  again from its new head for the rest.

An honest peer asks at most once a second per link (after ``CATCH_UP_AFTER`` of silence, on a
new link and at the end), so it never meets these limits and the wire is unchanged. Pure: the
time is passed in.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

SYNC_BURST: Final = 4
SYNC_PER_SECOND: Final = 2.0
MAX_SYNC_ANSWER_BYTES: Final = 2 * 1024 * 1024
"""Bytes of messages one catch-up answer carries (a whole match is far smaller)."""


class SyncGate:
    """One link's catch-up requests: which to answer now, which later, and how many were not."""

    def __init__(self, now: float) -> None:
        self._tokens = float(SYNC_BURST)
        self._at = now
        self._outstanding = False
        self._deferred: bytes | None = None
        self.excess = 0
        """Requests that were replaced or deferred (a flooding peer's count)."""

    def ask(self, head: bytes, now: float) -> bytes | None:
        """A request for what follows ``head`` arrived: the head to answer now (and the caller
        then answers it and calls :meth:`answered`), or None when it is deferred."""
        if self._outstanding or not self._take(now):
            if self._deferred is not None or self._outstanding:
                self.excess += 1
            self._deferred = head
            return None
        self._outstanding = True
        return head

    def answered(self) -> None:
        """The outstanding request was answered (its messages are queued for the peer)."""
        self._outstanding = False

    def due(self, now: float) -> bytes | None:
        """The deferred head, if there is one and it may be answered now (then it is the
        outstanding one: call :meth:`answered` after answering)."""
        if self._deferred is None or self._outstanding or not self._take(now):
            return None
        head, self._deferred = self._deferred, None
        self._outstanding = True
        return head

    def _take(self, now: float) -> bool:
        elapsed = max(0.0, now - self._at)
        self._tokens = min(float(SYNC_BURST), self._tokens + elapsed * SYNC_PER_SECOND)
        self._at = now
        if self._tokens < 1.0:
            return False
        self._tokens -= 1.0
        return True


def bounded_answer(messages: Iterable[bytes], limit: int = MAX_SYNC_ANSWER_BYTES) -> list[bytes]:
    """The first of ``messages`` (in order) whose sizes add up to at most ``limit`` bytes; the
    first message always goes, so that an answer is never empty while there is something."""
    chosen: list[bytes] = []
    size = 0
    for data in messages:
        size += len(data)
        if chosen and size > limit:
            break
        chosen.append(data)
    return chosen
