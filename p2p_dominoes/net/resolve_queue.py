"""The queues of mDNS names waiting for a resolver (`ResolveQueue`): bounded, each name at most
once, oldest first, each taken no earlier than its due time.

A flood of names on a hostile LAN must not grow memory or starve the resolvers: a full queue
refuses more names (they are found again by the sweep), and a name already waiting is not
queued twice.
"""

from __future__ import annotations

from collections import OrderedDict

import trio


class ResolveQueue:
    """A bounded set of names waiting for a resolver, oldest first, each at most once."""

    def __init__(self, limit: int) -> None:
        self._names: OrderedDict[str, float] = OrderedDict()
        self._limit = limit
        self._lot = trio.lowlevel.ParkingLot()

    def __contains__(self, name: str) -> bool:
        return name in self._names

    def put(self, name: str, due: float = 0.0) -> bool:
        """Queue ``name`` (to be taken at ``due``, trio time); False when full or present."""
        if name in self._names or len(self._names) >= self._limit:
            return False
        self._names[name] = due
        self._lot.unpark()
        return True

    async def take(self) -> str:
        """The oldest queued name, once it is due (waits while the queue is empty)."""
        while not self._names:
            await self._lot.park()
        name, due = self._names.popitem(last=False)
        await trio.sleep_until(due)
        return name
