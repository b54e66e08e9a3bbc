"""mDNS/DNS-SD discovery of tables with python-zeroconf, bridged into trio by threads.

python-zeroconf runs its own asyncio loop in a thread when no asyncio loop is running (always,
under trio). We use only its synchronous API and threaded ``ServiceBrowser`` (LAN_NOTES
option A): every blocking call goes through ``trio.to_thread.run_sync`` so trio never stalls,
and the browser thread only posts ``(state, name)`` events to trio with
``TrioToken.run_sync_soon``. Shutdown (the signed "closed" record, goodbyes, closing the loop
thread) is shielded so that cancellation cannot leave threads or stale records behind.

The LAN is hostile: names that are not ours exactly are ignored before any zeroconf API sees
them; only ads signed by the key their fingerprint names are listed (``ad_record``), an update
or a close counts only when signed with a newer sequence number, and a bare goodbye only makes
us ask again. Everything is bounded (pending names, kept and listed tables, threads), and no
failure in a callback or task ends the process: it is logged, per claimed source, and skipped.
Presence is *not* taken from mDNS (a crashed peer's record lingers for ~19 minutes);
connections' heartbeats say who is there.

Here: `Discovery` (advertising and browsing on one zeroconf), `open_discovery` and
`browse_tables`. Beside it: the ads this peer registers (`advertisement.py`), where mDNS runs
(`mdns_interfaces.py`), the resolvers' queues (`resolve_queue.py`), the signed records
(`ad_record.py`) and the cache of verified ads (`ad_cache.py`).
"""

from __future__ import annotations

import logging
import math
import secrets
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager, suppress
from functools import partial
from typing import Final

import trio
from zeroconf import Error as ZeroconfError
from zeroconf import (
    NonUniqueNameException,
    ServiceBrowser,
    ServiceInfo,
    ServiceStateChange,
    Zeroconf,
)

from p2p_dominoes.net._util import unwrap_single_group
from p2p_dominoes.net.ad_cache import (
    MAX_ADS_PER_SOURCE,
    MAX_TABLES_KEPT,
    MAX_TABLES_LISTED,
    AdCache,
    Offer,
    TableAd,
)
from p2p_dominoes.net.ad_record import (
    MAX_INSTANCE_BYTES,
    MAX_SEATS_ADVERTISED,
    MAX_TXT_NAME_BYTES,
    PHASES,
    SERVICE_TYPE,
    TABLE_ID_SIZE,
    InvalidAd,
    SignedAd,
    TableInfo,
    format_fingerprint,
    instance_label,
    instance_name,
    signed_addresses,
    txt_properties,
)
from p2p_dominoes.net.advertisement import SHUTDOWN_BUDGET, Advertisement, next_seq
from p2p_dominoes.net.errors import DiscoveryError
from p2p_dominoes.net.mdns_interfaces import Plan, is_loopback, plan_for
from p2p_dominoes.net.resolve_queue import ResolveQueue
from p2p_dominoes.net.strangers import StrangerLog
from p2p_dominoes.session.identity import Identity
from p2p_dominoes.words import phrase

__all__ = [
    "MAX_ADS_PER_SOURCE",
    "MAX_INSTANCE_BYTES",
    "MAX_SEATS_ADVERTISED",
    "MAX_TABLES_KEPT",
    "MAX_TABLES_LISTED",
    "MAX_TXT_NAME_BYTES",
    "PHASES",
    "SERVICE_TYPE",
    "TABLE_ID_SIZE",
    "Discovery",
    "TableAd",
    "TableInfo",
    "browse_tables",
    "instance_name",
    "open_discovery",
]

log = logging.getLogger("p2p_dominoes.net.discovery")

RESOLVE_TIMEOUT_MS: Final = 3000
REGISTER_ATTEMPTS: Final = 4
"""Names tried when responders claim ours; the last one is announced without probing."""

_FAST_RESOLVE_MS: Final = 400
_FAST_WORKERS: Final = 6
_SLOW_WORKERS: Final = 2
_RECHECK_WORKERS: Final = 2
_RECHECK_DELAY: Final = 1.5
_MAX_PENDING: Final = 2048
_MAX_REMEMBERED: Final = 4096
_RETRY_REJECTED: Final = 30.0
_SWEEP_INTERVAL: Final = 5.0
_TYPE_PTR: Final = 12
_TYPE_TXT: Final = 16
_TYPE_SRV: Final = 33
_MAX_CANDIDATES: Final = 8
_CLASS_IN: Final = 1
_UNKNOWN_SOURCE: Final = "mDNS"


def _claimed_source(addresses: list[str]) -> str:
    """How the log names an mDNS sender: zeroconf does not say which host sent a record, so
    by the address its records claim (rate-limited per claim, never taken as proof)."""
    return f"mDNS claiming {addresses[0]}" if addresses else _UNKNOWN_SOURCE


class Discovery:
    """One zeroconf instance: advertises this peer's tables and browses everyone else's.

    Use :func:`open_discovery`. :meth:`tables` is the current list of verified ads (own ads
    excluded, by fingerprint and by instance name); :meth:`wait_for_change` wakes on any change.
    """

    def __init__(self, zc: Zeroconf, plan: Plan, own_fingerprints: Iterable[str]) -> None:
        self._zc = zc
        self._plan = plan
        self._own_fingerprints = {format_fingerprint(fp) for fp in own_fingerprints}
        self._own_instances: set[str] = set()
        self._adverts: list[Advertisement] = []
        self._server = f"p2pd-{secrets.token_hex(6)}.local."
        self._cache = AdCache()
        self._rejected: OrderedDict[str, float] = OrderedDict()
        self._changed = trio.Event()
        self._fast = ResolveQueue(_MAX_PENDING)
        self._slow = ResolveQueue(_MAX_PENDING // 4)
        self._recheck = ResolveQueue(_MAX_PENDING // 4)
        self._strangers = StrangerLog(log)

    @property
    def advertised_addresses(self) -> list[str]:
        """The addresses our records carry (only reachable ones, as many as the ad signs)."""
        return signed_addresses(self._plan.advertised)

    def tables(self, limit: int | None = MAX_TABLES_LISTED) -> list[TableAd]:
        """Verified ads of other peers (at most ``limit``; None: all kept), sorted by table
        name then instance. When there are more, the first ad of every source address is shown
        before the second of any, believed tables and tables in the lobby first
        (``ad_cache``)."""
        return self._cache.tables(limit)

    def named(self, name: str) -> list[TableAd]:
        """Kept tables in the lobby called ``name`` (any case), the preferred first."""
        return self._cache.named(name)

    def seen_before_the_rest(self, tables: list[TableAd]) -> TableAd | None:
        """Of ``tables``, the believed one seen well before every other, if any (a table that
        was there before a flood of its namesakes)."""
        return self._cache.seen_before_the_rest(tables)

    async def wait_for_change(self) -> None:
        """Return after the next change of :meth:`tables`."""
        await self._changed.wait()

    def _notify(self) -> None:
        self._changed.set()
        self._changed = trio.Event()

    @property
    def zc(self) -> Zeroconf:
        """The zeroconf instance this discovery runs (its ads are registered with it)."""
        return self._zc

    def withdrawn(self, advert: Advertisement) -> None:
        """`advert` was withdrawn: its name is no longer ours, nor is it withdrawn at the end."""
        self._own_instances.discard(advert.instance)
        with suppress(ValueError):
            self._adverts.remove(advert)

    def service_info(
        self, identity: Identity, info: TableInfo, port: int, label: str, seq: int
    ) -> ServiceInfo:
        """The DNS-SD record of `info` for our listener's `port`, signed by `identity` with
        sequence number `seq`, carrying the addresses we advertise."""
        addresses = self.advertised_addresses
        properties = SignedAd.txt(
            identity, info, instance=label, port=port, seq=seq, addresses=addresses
        )
        return ServiceInfo(
            SERVICE_TYPE,
            f"{label}.{SERVICE_TYPE}",
            port=port,
            properties=properties,
            server=self._server,
            parsed_addresses=addresses,
        )

    async def advertise(self, info: TableInfo, port: int, identity: Identity) -> Advertisement:
        """Register ``info``, signed by ``identity``, for our listener's ``port``.

        Probing takes ~1.7 s. When another responder answers the probe for our name (a peer
        with the same name, or a hostile one), a fresh random suffix is tried; the last
        attempt is announced without probing (the name is cosmetic: ads are keyed by key).
        """
        if type(port) is not int or not 1 <= port <= 65535:
            raise ValueError("port must be in 1..65535")
        if identity.public.fingerprint != info.fingerprint:
            raise ValueError("the ad's fingerprint is not the identity's")
        if not self.advertised_addresses:
            raise DiscoveryError(phrase("net.why.no_address_to_advertise"))
        self._own_fingerprints.add(info.fingerprint)
        seq = next_seq(0)
        for attempt in range(REGISTER_ATTEMPTS):
            label = instance_name(info, secrets.token_hex(3) if attempt else "")
            service = self.service_info(identity, info, port, label, seq)
            name = str(service.name)
            self._own_instances.add(name)
            self._forget_name(name)
            probe = attempt < REGISTER_ATTEMPTS - 1
            try:
                await trio.to_thread.run_sync(
                    partial(
                        self._zc.register_service,
                        service,
                        allow_name_change=False,
                        cooperating_responders=not probe,
                    )
                )
            except NonUniqueNameException:
                self._own_instances.discard(name)
                log.warning("another responder claims the mDNS name %r; trying another", label)
                continue
            except (ZeroconfError, RuntimeError) as exc:
                self._own_instances.discard(name)
                raise DiscoveryError(phrase("net.why.cannot_register", error=exc)) from None
            advert = Advertisement(self, identity, service, info, seq, label)
            self._adverts.append(advert)
            return advert
        raise DiscoveryError(phrase("net.why.names_claimed"))  # pragma: no cover

    # -- browsing ---------------------------------------------------------------------------

    def _on_event(self, state: ServiceStateChange, name: str) -> None:
        """A browser event (on the trio thread): queue the name for a resolver, or a recheck."""
        try:
            if instance_label(name) is None:
                self._strangers.warn(
                    _UNKNOWN_SOURCE, f"ignored an ad whose name is not ours: {name!r:.120}"
                )
                return
            if name in self._own_instances:
                return
            if state is ServiceStateChange.Removed:
                if self._cache.has_instance(name):  # believed only if the host no longer answers
                    self._recheck.put(name, trio.current_time() + _RECHECK_DELAY)
                return
            self._rejected.pop(name, None)
            if not self._fast.put(name):
                log.debug("resolver queue full or has %r", name)
        except Exception as exc:
            self._strangers.warn(_UNKNOWN_SOURCE, f"discovery event failed: {exc!r:.200}")

    def _sweep(self) -> None:
        """Queue every cached instance of our type not yet known (events may be dropped)."""
        now = trio.current_time()
        records = self._zc.cache.get_all_by_details(SERVICE_TYPE, _TYPE_PTR, _CLASS_IN)
        for record in records:
            name = getattr(record, "alias", None)
            if (
                not isinstance(name, str)
                or self._cache.has_instance(name)
                or name in self._own_instances
            ):
                continue
            if instance_label(name) is None or self._rejected.get(name, 0.0) > now:
                continue
            if not self._fast.put(name):
                break

    async def _lookup(self, name: str, timeout_ms: int) -> ServiceInfo | None:
        try:
            service: ServiceInfo | None = await trio.to_thread.run_sync(
                partial(self._zc.get_service_info, SERVICE_TYPE, name, timeout_ms),
                abandon_on_cancel=True,
            )
        except Exception as exc:
            self._strangers.warn(_UNKNOWN_SOURCE, f"could not resolve {name!r:.120}: {exc!r:.120}")
            return None
        return service

    def _reject(self, name: str) -> None:
        self._rejected[name] = trio.current_time() + _RETRY_REJECTED
        self._rejected.move_to_end(name)
        while len(self._rejected) > _MAX_REMEMBERED:
            self._rejected.popitem(last=False)

    def _consider(self, name: str, service: ServiceInfo) -> None:
        """Believe a resolved record only if it is signed and newer than what we have."""
        label = instance_label(name)
        if label is None or name in self._own_instances:
            return
        claimed = list(service.parsed_addresses())
        source = _claimed_source(claimed)
        try:
            port = service.port
            ad = SignedAd.verify(label, port if port is not None else 0, service.properties)
        except InvalidAd as exc:
            found = self._cached_candidate(name, label)
            if found is None:
                self._strangers.warn(source, f"ad {name!r:.100} not believed: {exc}")
                self._reject(name)
                return
            self._strangers.warn(source, f"spoofed record beside a signed ad {name!r:.100}")
            ad = found
        if ad.info.fingerprint in self._own_fingerprints:
            return
        if ad.info.phase == "closed":
            if self._cache.close((ad.info.fingerprint, ad.info.table_id), ad.seq):
                self._notify()
            return
        local_only = all(is_loopback(a) for a in self._plan.advertised)
        addresses = tuple(a for a in ad.addresses if local_only or not is_loopback(a))
        if not addresses:
            self._reject(name)
            return
        table = TableAd(
            name, ad.info, addresses, ad.port, ad.seq, bool(set(addresses) & set(claimed))
        )
        outcome = self._cache.offer(table, trio.current_time())
        if outcome.changed:
            self._notify()
        elif outcome is Offer.REPLAYED:
            self._strangers.warn(source, f"replayed an older ad of {name!r:.100}")
        elif outcome in (Offer.FULL, Offer.SOURCE_FULL):
            self._strangers.warn(
                f"mDNS ads signed for {table.source}",
                f"table list full for that address or in all; {self._cache.dropped} ads dropped",
            )

    def _cached_candidate(self, name: str, label: str) -> SignedAd | None:
        """The newest validly signed ad among every SRV × TXT record cached for ``name``.

        A spoofer can put its own (cache-flush) TXT or SRV records beside the host's; zeroconf
        resolves to the last one received, so the host's signed one is looked for among all.
        """
        cache = self._zc.cache
        texts = cache.get_all_by_details(name, _TYPE_TXT, _CLASS_IN)[:_MAX_CANDIDATES]
        services = cache.get_all_by_details(name, _TYPE_SRV, _CLASS_IN)[:_MAX_CANDIDATES]
        best: SignedAd | None = None
        for text in texts:
            properties = txt_properties(getattr(text, "text", b""))
            for service in services:
                port = getattr(service, "port", 0)
                try:
                    ad = SignedAd.verify(label, port, properties)
                except InvalidAd:
                    continue
                if best is None or ad.seq > best.seq:
                    best = ad
        return best

    def _forget_name(self, name: str) -> None:
        if self._cache.forget_instance(name):
            self._notify()

    async def _resolver(
        self, queue: ResolveQueue, timeout_ms: int, then: Callable[[str], None]
    ) -> None:
        """Resolve queued names forever; ``then(name)`` when nothing answered in time."""
        while True:
            name = await queue.take()
            try:
                service = await self._lookup(name, timeout_ms)
                if service is None:
                    then(name)
                else:
                    self._consider(name, service)
            except Exception as exc:
                self._strangers.warn(_UNKNOWN_SOURCE, f"ad {name!r:.100} failed: {exc!r:.200}")

    def _to_slow(self, name: str) -> None:
        """Not in the cache and no quick answer: ask again with the full timeout."""
        self._slow.put(name)

    def _unanswered(self, name: str) -> None:
        if not self._cache.has_instance(name):
            self._reject(name)

    def _recheck_unanswered(self, name: str) -> None:
        """A goodbye and then no answer: the host is gone (or never was)."""
        self._forget_name(name)

    async def _sweeper(self) -> None:
        while True:
            await trio.sleep(_SWEEP_INTERVAL)
            try:
                self._sweep()
            except Exception as exc:
                log.warning("discovery sweep failed: %r", exc)

    async def _browse(self, nursery: trio.Nursery) -> None:
        for _ in range(_FAST_WORKERS):
            nursery.start_soon(self._resolver, self._fast, _FAST_RESOLVE_MS, self._to_slow)
        for _ in range(_SLOW_WORKERS):
            nursery.start_soon(self._resolver, self._slow, RESOLVE_TIMEOUT_MS, self._unanswered)
        for _ in range(_RECHECK_WORKERS):
            nursery.start_soon(
                self._resolver, self._recheck, RESOLVE_TIMEOUT_MS, self._recheck_unanswered
            )
        nursery.start_soon(self._sweeper)


@asynccontextmanager
async def open_discovery(
    *,
    interface: str | None = None,
    browse: bool = True,
    own_fingerprints: Iterable[str] = (),
) -> AsyncIterator[Discovery]:
    """Start zeroconf (and a browser) for the block; shut both down, shielded, after it.

    ``interface`` limits mDNS to one address (and advertises only it; 127.0.0.1 is allowed
    then, for play on one machine). Without it mDNS runs on the host's LAN IPv4 addresses and
    ads carry the non-loopback, non-link-local addresses that fit the signed record.
    ``own_fingerprints`` are ignored when browsing (our own ads are ignored in any case).
    Ads still registered when the block ends are withdrawn (signed "closed", then goodbyes).
    """
    plan = plan_for(interface)
    zc: Zeroconf = await trio.to_thread.run_sync(
        partial(Zeroconf, interfaces=plan.interfaces, ip_version=plan.ip_version, use_asyncio=False)
    )
    discovery = Discovery(zc, plan, own_fingerprints)
    browser: ServiceBrowser | None = None
    token = trio.lowlevel.current_trio_token()

    def on_change(
        zeroconf: Zeroconf, service_type: str, name: str, state_change: ServiceStateChange
    ) -> None:  # on the ServiceBrowser thread: hand over, never raise
        with suppress(trio.RunFinishedError, RuntimeError):
            token.run_sync_soon(discovery._on_event, state_change, name)

    try:
        with unwrap_single_group():
            async with trio.open_nursery() as nursery:
                if browse:
                    await discovery._browse(nursery)
                    browser = await trio.to_thread.run_sync(
                        partial(ServiceBrowser, zc, SERVICE_TYPE, handlers=[on_change])
                    )
                try:
                    yield discovery
                finally:
                    nursery.cancel_scope.cancel()
    finally:
        with trio.CancelScope(shield=True) as shutdown:
            shutdown.deadline = trio.current_time() + SHUTDOWN_BUDGET
            for advert in list(discovery._adverts):
                await advert.withdraw()
            if browser is not None:
                await trio.to_thread.run_sync(browser.cancel, abandon_on_cancel=True)
            await trio.to_thread.run_sync(zc.close, abandon_on_cancel=True)
        if shutdown.cancelled_caught:
            log.warning("mDNS shutdown took longer than %g s; left it behind", SHUTDOWN_BUDGET)


async def browse_tables(
    timeout: float,
    *,
    interface: str | None = None,
    own_fingerprints: Iterable[str] = (),
    limit: int | None = MAX_TABLES_LISTED,
) -> list[TableAd]:
    """Browse for ``timeout`` seconds and return the verified tables seen (at most ``limit``;
    None: every one kept, for finding a table by name)."""
    if not timeout > 0 or math.isinf(timeout):
        raise ValueError("timeout must be a positive, finite number of seconds")
    async with open_discovery(interface=interface, own_fingerprints=own_fingerprints) as disco:
        await trio.sleep(timeout)
        return disco.tables(limit)
