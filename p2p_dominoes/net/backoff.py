"""Delays between dial attempts: exponential, capped and jittered.

A peer dials addresses it was told about (the host announces where each seat listens). A failing
address must cost few attempts, since a malicious host could point every joiner at a victim: the
delay doubles up to a cap, so a failing address is dialed a handful of times a minute at most.
Jitter keeps peers that failed together from dialing again in step.
"""

from __future__ import annotations

import secrets
from typing import Final

_JITTER_STEPS: Final = 1000


class Backoff:
    """The next delay is the current one scaled into ``[1 - jitter, 1] ×`` it; then it doubles.

    ``first`` is the delay after the first failure, ``cap`` the largest one; :meth:`reset`
    starts over (after a connection that lasted).
    """

    def __init__(self, *, first: float, cap: float, jitter: float = 0.5) -> None:
        if not 0 < first <= cap or not 0 <= jitter < 1:
            raise ValueError("need 0 < first <= cap and 0 <= jitter < 1")
        self.first = first
        self.cap = cap
        self.jitter = jitter
        self._current = first

    def next(self) -> float:
        """Seconds to wait before the next attempt (and grow the delay for the one after)."""
        share = secrets.randbelow(_JITTER_STEPS + 1) / _JITTER_STEPS
        delay = self._current * (1 - self.jitter * share)
        self._current = min(self.cap, self._current * 2)
        return delay

    def slowest(self) -> float:
        """Jump to the cap (a refusal that will not change soon) and return a capped delay."""
        self._current = self.cap
        return self.next()

    def reset(self) -> None:
        """Start again from ``first``."""
        self._current = self.first
