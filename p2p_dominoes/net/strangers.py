"""Who is talking to us before we know them: sources (an IPv4 address or an IPv6 /64) and a log
that names a misbehaving stranger at most once per source per minute.

A host that owns an IPv6 prefix can use as many addresses as it likes, so every limit that is
"per source" treats a /64 as one source. The log is bounded too: a flood from many sources costs
a fixed amount of memory and at most one line per source per interval.
"""

from __future__ import annotations

import ipaddress
import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Final

from p2p_dominoes.peer_text import peer_text

STRANGER_LOG_INTERVAL: Final = 60.0
"""Seconds between two log lines about the same source."""
_MAX_REMEMBERED: Final = 4096


def source_of(address: str) -> str:
    """The source an address belongs to: the IPv4 address itself, or an IPv6 address's /64.

    Takes a bare host or ``host:port`` / ``[v6]:port``; IPv4-mapped IPv6 addresses count as
    their IPv4 address; anything unparsable is its own source (cleaned for display).
    """
    host = address
    if host.startswith("["):
        host = host[1:].split("]", 1)[0]
    elif host.count(":") == 1:
        host = host.split(":", 1)[0]
    host = host.split("%", 1)[0]
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return peer_text(address, 64)
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((int(ip) >> 64 << 64, 64)))
    return str(ip)


class SourceMemory:
    """When each source was last named, and how many lines about it were held back since."""

    def __init__(self) -> None:
        self.last: OrderedDict[str, float] = OrderedDict()
        self.suppressed: dict[str, int] = {}

    def clear(self) -> None:
        self.last.clear()
        self.suppressed.clear()


_PROCESS_MEMORY: Final = SourceMemory()
"""What every StrangerLog of this process shares, so a source is named once a minute in all."""


class StrangerLog:
    """Warn about a stranger's misbehaviour, at most once per source per ``interval`` seconds.

    Every log of the process shares one memory (the listener, connections, discovery and the
    page all meet the same stranger); tests give their own ``memory`` with their own ``clock``.
    Lines name the address as given (cleaned), so a reader can block it; the rate limit is per
    :func:`source_of`.
    """

    def __init__(
        self,
        logger: logging.Logger,
        *,
        interval: float = STRANGER_LOG_INTERVAL,
        clock: Callable[[], float] = time.monotonic,
        memory: SourceMemory = _PROCESS_MEMORY,
    ) -> None:
        self._logger = logger
        self._interval = interval
        self._clock = clock
        self._last = memory.last
        self._suppressed = memory.suppressed

    def warn(self, address: str, what: str) -> bool:
        """Log ``stranger at ADDRESS: WHAT`` unless its source was named lately; True if logged."""
        source = source_of(address)
        now = self._clock()
        last = self._last.get(source)
        if last is not None and now - last < self._interval:
            self._suppressed[source] = self._suppressed.get(source, 0) + 1
            return False
        self._last[source] = now
        self._last.move_to_end(source)
        while len(self._last) > _MAX_REMEMBERED:
            old, _ = self._last.popitem(last=False)
            self._suppressed.pop(old, None)
        more = self._suppressed.pop(source, 0)
        suffix = f" (and {more} more since the last report)" if more else ""
        self._logger.warning(
            "stranger at %s: %s%s", peer_text(address, 64), peer_text(what, 200), suffix
        )
        return True


class SourceRateLimit:
    """A token bucket per source: at most ``burst`` at once, refilled at ``rate`` per second.

    Used for new connections: an honest peer opens a handful, a flood is cut to ``rate`` per
    second per source (an IPv6 /64 is one source). Memory is bounded: past ``remember`` sources
    the least recently seen is forgotten (it comes back with a full bucket, which the
    concurrency caps still bound).
    """

    def __init__(
        self,
        *,
        rate: float,
        burst: float,
        remember: int = _MAX_REMEMBERED,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if not rate > 0 or not burst >= 1 or remember < 1:
            raise ValueError("rate must be positive, burst at least 1, remember at least 1")
        self._rate = rate
        self._burst = burst
        self._remember = remember
        self._clock = clock
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def allow(self, address: str) -> bool:
        """Take one token from the source of ``address``; False when its bucket is empty."""
        source = source_of(address)
        now = self._clock()
        tokens, stamp = self._buckets.get(source, (self._burst, now))
        tokens = min(self._burst, tokens + (now - stamp) * self._rate)
        allowed = tokens >= 1
        if allowed:
            tokens -= 1
        self._buckets[source] = (tokens, now)
        self._buckets.move_to_end(source)
        while len(self._buckets) > self._remember:
            self._buckets.popitem(last=False)
        return allowed


class StrangerTally:
    """Lines about many strangers, bounded in all: each source at most once per ``interval``
    (a :class:`StrangerLog`), and of those only the first ``first`` in an interval; the rest are
    counted and said in one line, ``N more …, from M sources``, when the next one comes after
    the interval. Used where every stranger with a fresh key would otherwise be one line (a
    resumed table's listener: "not seated at this table")."""

    def __init__(
        self,
        logger: logging.Logger,
        what: str,
        *,
        first: int = 5,
        interval: float = STRANGER_LOG_INTERVAL,
        clock: Callable[[], float] = time.monotonic,
        memory: SourceMemory = _PROCESS_MEMORY,
    ) -> None:
        self._logger = logger
        self._what = what
        self._first = first
        self._interval = interval
        self._clock = clock
        self._log = StrangerLog(logger, interval=interval, clock=clock, memory=memory)
        self._since = clock()
        self._named = 0
        self._more = 0
        self._sources: set[str] = set()

    def warn(self, address: str, detail: str = "") -> bool:
        """One stranger at ``address`` (``detail``: say, its fingerprint); True if a line was
        logged about it."""
        now = self._clock()
        if now - self._since >= self._interval:
            if self._more:
                self._logger.warning(
                    "%d more strangers %s, from %d sources, in the last %g s",
                    self._more,
                    self._what,
                    len(self._sources),
                    now - self._since,
                )
            self._since, self._named, self._more = now, 0, 0
            self._sources.clear()
        if self._named >= self._first:
            self._more += 1
            if len(self._sources) < _MAX_REMEMBERED:
                self._sources.add(source_of(address))
            return False
        text = f"{self._what}: {detail}" if detail else self._what
        logged = self._log.warn(address, text)
        self._named += logged
        return logged
