"""The browser's memory of verified table ads: bounded per source and in all, so a flood cannot
empty it.

Pure (no trio, no zeroconf, no clock of its own: the time an ad is offered is passed in), so
every rule here is unit-tested without a network. ``discovery`` verifies each ad's signature and
hands it over; this module decides what is kept and what is listed.

The rules (issue 23, ``docs/threat-model.md`` "mDNS"):

* A table's *source* is the first address its host signed. No source keeps more than
  :data:`MAX_ADS_PER_SOURCE` ads, and when the whole cache is full the ad evicted comes from the
  most crowded source (its least preferred one), so one address sending 1,000 validly signed
  fake tables keeps at most a handful and cannot push out a table from any other address.
* A table whose A/AAAA records once carried an address it signed is *believed*; spoofed address
  records that contradict it later do not make it unbelieved (it is dialled at its signed
  address in any case, and the connection pins the key that signed the ad).
* The list shows, in turn, the first ad of every source, then the second, …; within one turn
  believed tables first, then tables in the lobby, then the ones seen earliest. An ad arriving
  when the cache is full from sources as crowded as its own is dropped: the tables seen before a
  flood stay.
"""

from __future__ import annotations

import enum
from collections import OrderedDict
from dataclasses import dataclass, replace
from typing import Final

from p2p_dominoes.net.ad_record import TableInfo

__all__ = [
    "BEFORE_FLOOD_SECONDS",
    "MAX_ADS_PER_SOURCE",
    "MAX_TABLES_KEPT",
    "MAX_TABLES_LISTED",
    "AdCache",
    "Offer",
    "TableAd",
]

MAX_TABLES_LISTED: Final = 32
"""Tables :meth:`AdCache.tables` returns by default (the lobby, ``tables``)."""
MAX_TABLES_KEPT: Final = 256
"""Verified ads remembered (``join TABLE`` searches all of them); the rest are dropped."""
MAX_ADS_PER_SOURCE: Final = 8
"""Ads kept from one source address (a host runs one or two tables; a flood gets this many)."""
BEFORE_FLOOD_SECONDS: Final = 2.0
"""How much earlier than every other table of its name a believed table must have been seen
for ``join NAME`` to take it as the one meant (it was there before the others came)."""
_MAX_CLOSED: Final = 4096

Key = tuple[str, bytes]
"""(host fingerprint, table id): one table, whatever its instance name."""


@dataclass(frozen=True)
class TableAd:
    """A verified advertisement: the table info plus where the advertising peer listens.

    ``addresses`` are the ones the advertiser signed; ``confirmed`` says the A/AAAA records
    received for it carry one of them too, now or at any time before for the same signed
    addresses (a *believed* table: confirmed ads are preferred when the list is full).
    """

    instance: str
    info: TableInfo
    addresses: tuple[str, ...]
    port: int
    seq: int = 0
    confirmed: bool = True

    @property
    def fingerprint(self) -> str:
        """The advertising peer's full fingerprint (pin it when dialing)."""
        return self.info.fingerprint

    @property
    def key(self) -> Key:
        """Which table this is (an update of it has the same key)."""
        return (self.info.fingerprint, self.info.table_id)

    @property
    def source(self) -> str:
        """The address the cache counts this ad against (the first one signed)."""
        return self.addresses[0]


class Offer(enum.Enum):
    """What :meth:`AdCache.offer` did with an ad."""

    ADDED = "added"
    UPDATED = "updated"
    SAME = "same"
    REPLAYED = "replayed"
    """Older than the ad kept for that table: ignored (and worth a warning)."""
    CLOSED = "closed"
    """The table was closed by a signed record at least as new: ignored."""
    SOURCE_FULL = "source_full"
    FULL = "full"

    @property
    def changed(self) -> bool:
        """Whether the list may look different now."""
        return self in (Offer.ADDED, Offer.UPDATED)


@dataclass
class _Entry:
    ad: TableAd
    order: int
    """When it was first kept (lower: earlier)."""
    seen_at: float
    believed: bool

    def preference(self) -> tuple[int, int, int]:
        """Lower is kept and shown first among one source's ads."""
        return (0 if self.believed else 1, 0 if self.ad.info.phase == "lobby" else 1, self.order)


class AdCache:
    """Verified ads by table, bounded per source and in all (see the module's rules)."""

    def __init__(
        self, *, kept: int = MAX_TABLES_KEPT, per_source: int = MAX_ADS_PER_SOURCE
    ) -> None:
        if kept < 1 or per_source < 1:
            raise ValueError("the cache must keep at least one ad, and one per source")
        self._limit = kept
        self._per_source = per_source
        self._entries: dict[Key, _Entry] = {}
        self._by_name: dict[str, Key] = {}
        self._by_source: dict[str, set[Key]] = {}
        self._closed: OrderedDict[Key, int] = OrderedDict()
        self._order = 0
        self.dropped = 0
        """Ads not kept because their source or the whole cache was full."""

    def __len__(self) -> int:
        return len(self._entries)

    def has_instance(self, name: str) -> bool:
        """Whether an ad kept now came under the instance name ``name``."""
        return name in self._by_name

    def offer(self, ad: TableAd, now: float) -> Offer:
        """Keep ``ad`` (a verified, not closed, ad of another peer) if the rules allow.

        ``now`` is any monotonic clock's reading (only differences are used).
        """
        key = ad.key
        if self._closed.get(key, 0) >= ad.seq:
            return Offer.CLOSED
        entry = self._entries.get(key)
        if entry is not None:
            return self._update(entry, ad)
        if len(self._by_source.get(ad.source, ())) >= self._per_source and not self._evict_for(
            ad, self._by_source[ad.source]
        ):
            self.dropped += 1
            return Offer.SOURCE_FULL
        if len(self._entries) >= self._limit and not self._make_room(ad):
            self.dropped += 1
            return Offer.FULL
        self._order += 1
        self._entries[key] = _Entry(ad, self._order, now, ad.confirmed)
        self._by_name[ad.instance] = key
        self._by_source.setdefault(ad.source, set()).add(key)
        return Offer.ADDED

    def _update(self, entry: _Entry, ad: TableAd) -> Offer:
        if entry.ad.seq > ad.seq:
            return Offer.REPLAYED
        moved = ad.addresses != entry.ad.addresses
        believed = ad.confirmed or (entry.believed and not moved)
        shown = replace(ad, confirmed=believed)
        if shown == entry.ad:
            return Offer.SAME
        self._unindex(entry)
        entry.ad, entry.believed = shown, believed
        self._index(entry)
        return Offer.UPDATED

    def close(self, key: Key, seq: int) -> bool:
        """A signed "closed" record with ``seq``: forget the table, and refuse its ads up to
        ``seq`` from now on. True when a kept table was dropped."""
        if self._closed.get(key, 0) < seq:
            self._closed[key] = seq
            self._closed.move_to_end(key)
        while len(self._closed) > _MAX_CLOSED:
            self._closed.popitem(last=False)
        entry = self._entries.get(key)
        if entry is None or entry.ad.seq > seq:
            return False
        self._remove(key)
        return True

    def forget_instance(self, name: str) -> bool:
        """Drop the table kept under instance ``name`` (its host is gone). True if one was."""
        key = self._by_name.get(name)
        if key is None:
            return False
        self._remove(key)
        return True

    def tables(self, limit: int | None = MAX_TABLES_LISTED) -> list[TableAd]:
        """The kept ads to show (at most ``limit``; None: all), sorted by table name then
        instance; when there are more, the first of every source come first (module rules)."""
        ranked = self._ranked()
        chosen = ranked if limit is None else ranked[: max(0, limit)]
        return sorted((e.ad for e in chosen), key=lambda a: (a.info.table_name, a.instance))

    def named(self, name: str) -> list[TableAd]:
        """Tables in the lobby called ``name`` (any case), the preferred first: believed, then
        seen earliest."""
        wanted = name.strip().casefold()
        found = [
            e
            for e in self._entries.values()
            if e.ad.info.phase == "lobby" and e.ad.info.table_name.casefold() == wanted
        ]
        found.sort(key=lambda e: (0 if e.believed else 1, e.order))
        return [e.ad for e in found]

    def seen_before_the_rest(self, tables: list[TableAd]) -> TableAd | None:
        """Of several tables, the one that was believed and seen at least
        :data:`BEFORE_FLOOD_SECONDS` before every other (None when no such one)."""
        entries = [self._entries[t.key] for t in tables if t.key in self._entries]
        if len(entries) < 2:
            return None
        entries.sort(key=lambda e: e.seen_at)
        first, second = entries[0], entries[1]
        if first.believed and second.seen_at - first.seen_at >= BEFORE_FLOOD_SECONDS:
            return first.ad
        return None

    # -- inside ------------------------------------------------------------------------------

    def _ranked(self) -> list[_Entry]:
        """Every entry, round by round: the n-th preferred of each source in round n."""
        rounds: list[tuple[int, tuple[int, int, int], _Entry]] = []
        for keys in self._by_source.values():
            entries = sorted((self._entries[k] for k in keys), key=_Entry.preference)
            rounds += [(n, e.preference(), e) for n, e in enumerate(entries)]
        rounds.sort(key=lambda item: (item[0], item[1]))
        return [e for _, _, e in rounds]

    def _evict_for(self, ad: TableAd, keys: set[Key]) -> bool:
        """Room in ``ad``'s full source: only a believed ad displaces one that is not (the
        newest of them); otherwise the ads seen first stay."""
        if not ad.confirmed:
            return False
        doubtful = [self._entries[k] for k in keys if not self._entries[k].believed]
        if not doubtful:
            return False
        self._remove(max(doubtful, key=lambda e: e.order).ad.key)
        return True

    def _make_room(self, ad: TableAd) -> bool:
        """The cache is full: evict the least preferred ad of the most crowded source, unless
        ``ad``'s own source would be at least as crowded (then ``ad`` is the one dropped)."""
        crowded = max(self._by_source, key=lambda s: len(self._by_source[s]))
        most = len(self._by_source[crowded])
        if len(self._by_source.get(ad.source, ())) + 1 >= most:
            return False
        worst = max((self._entries[k] for k in self._by_source[crowded]), key=_Entry.preference)
        self._remove(worst.ad.key)
        return True

    def _index(self, entry: _Entry) -> None:
        self._by_name[entry.ad.instance] = entry.ad.key
        self._by_source.setdefault(entry.ad.source, set()).add(entry.ad.key)

    def _unindex(self, entry: _Entry) -> None:
        key = entry.ad.key
        if self._by_name.get(entry.ad.instance) == key:
            del self._by_name[entry.ad.instance]
        keys = self._by_source.get(entry.ad.source)
        if keys is not None:
            keys.discard(key)
            if not keys:
                del self._by_source[entry.ad.source]

    def _remove(self, key: Key) -> None:
        entry = self._entries.pop(key, None)
        if entry is not None:
            self._unindex(entry)
