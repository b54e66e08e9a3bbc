"""mDNS/DNS-SD discovery of tables with python-zeroconf, bridged into trio by threads.

python-zeroconf runs its own asyncio loop in a thread when no asyncio loop is running (always,
under trio). We use only its synchronous API and threaded ``ServiceBrowser`` (LAN_NOTES
option A): every blocking call goes through ``trio.to_thread.run_sync`` so trio never stalls,
and the browser thread only posts ``(state, name)`` events into a trio channel with
``TrioToken.run_sync_soon``. Shutdown (browser cancel, goodbyes, closing the loop thread) is
shielded so that cancellation cannot leave threads or stale records behind.

What we advertise is data, not game logic: :class:`TableInfo` holds the TXT fields; the peer
runtime decides their values. Presence is *not* taken from mDNS (a crashed peer's record
lingers for ~19 minutes); connections' heartbeats say who is there.
"""

from __future__ import annotations

import ipaddress
import logging
import math
import re
import secrets
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Final

import ifaddr
import trio
from zeroconf import IPVersion, ServiceBrowser, ServiceInfo, ServiceStateChange, Zeroconf

from p2p_dominoes.net._util import unwrap_single_group
from p2p_dominoes.net.connection import normalize_fingerprint
from p2p_dominoes.net.errors import NetError
from p2p_dominoes.session.envelope import PROTOCOL_VERSION

log = logging.getLogger("p2p_dominoes.net.discovery")

SERVICE_TYPE: Final = "_p2p-dominoes._tcp.local."
PHASES: Final = ("lobby", "playing")
TABLE_ID_SIZE: Final = 16
MAX_TXT_NAME_BYTES: Final = 64
MAX_SEATS_ADVERTISED: Final = 16
MAX_INSTANCE_BYTES: Final = 63
RESOLVE_TIMEOUT_MS: Final = 3000

_RULES: Final = re.compile(r"[a-z0-9][a-z0-9_-]{0,31}")
_SEATS: Final = re.compile(r"([0-9]{1,2})/([0-9]{1,2})")
_EVENT_QUEUE: Final = 1024
_TXT_KEYS: Final = frozenset({"v", "tid", "table", "player", "fp", "seats", "rules", "phase"})


class DiscoveryError(NetError):
    """Discovery cannot run here (no usable interface) or an advertisement is invalid."""


def _check_name(value: object, what: str) -> str:
    if type(value) is not str:
        raise ValueError(f"{what} must be a str")
    size = len(value.encode("utf-8"))
    if not 1 <= size <= MAX_TXT_NAME_BYTES:
        raise ValueError(f"{what} must be 1..{MAX_TXT_NAME_BYTES} bytes of UTF-8")
    if any(ord(c) < 0x20 or ord(c) == 0x7F for c in value):
        raise ValueError(f"{what} must not contain control characters")
    return value


def _format_fingerprint(fingerprint: str) -> str:
    text = normalize_fingerprint(fingerprint)
    return "-".join(text[i : i + 4] for i in range(0, len(text), 4))


@dataclass(frozen=True)
class TableInfo:
    """What one peer says about its table in its mDNS TXT record (all fields validated).

    ``player_name`` and ``fingerprint`` are the advertising peer's (the host's, for the host's
    own ad); ``fingerprint`` is the full one, which a dialer pins with ``connect(expect=…)``.
    """

    table_id: bytes
    table_name: str
    player_name: str
    fingerprint: str
    seats_taken: int
    seats_total: int
    rules: str
    phase: str
    version: int = PROTOCOL_VERSION

    def __post_init__(self) -> None:
        if type(self.table_id) is not bytes or len(self.table_id) != TABLE_ID_SIZE:
            raise ValueError(f"table_id must be {TABLE_ID_SIZE} bytes")
        _check_name(self.table_name, "table_name")
        _check_name(self.player_name, "player_name")
        if type(self.fingerprint) is not str:
            raise ValueError("fingerprint must be a str")
        object.__setattr__(self, "fingerprint", _format_fingerprint(self.fingerprint))
        for name in ("seats_taken", "seats_total", "version"):
            if type(getattr(self, name)) is not int:
                raise ValueError(f"{name} must be an int")
        if not 1 <= self.seats_total <= MAX_SEATS_ADVERTISED:
            raise ValueError(f"seats_total must be in 1..{MAX_SEATS_ADVERTISED}")
        if not 0 <= self.seats_taken <= self.seats_total:
            raise ValueError("seats_taken must be in 0..seats_total")
        if type(self.rules) is not str or not _RULES.fullmatch(self.rules):
            raise ValueError(f"rules must match {_RULES.pattern}")
        if self.phase not in PHASES:
            raise ValueError(f"phase must be one of {PHASES}")
        if not 0 <= self.version <= 0xFFFF:
            raise ValueError("version must be in 0..65535")

    @property
    def short_fingerprint(self) -> str:
        """The first two groups of the fingerprint, for list labels."""
        return self.fingerprint[:9]

    def to_txt(self) -> dict[str, str]:
        """The TXT record's key/value pairs (each entry far below the 255-byte limit)."""
        return {
            "v": str(self.version),
            "tid": self.table_id.hex(),
            "table": self.table_name,
            "player": self.player_name,
            "fp": self.fingerprint,
            "seats": f"{self.seats_taken}/{self.seats_total}",
            "rules": self.rules,
            "phase": self.phase,
        }

    @classmethod
    def from_txt(cls, properties: dict[bytes, bytes | None]) -> TableInfo:
        """Parse a TXT record strictly; anything unexpected raises ValueError."""
        text: dict[str, str] = {}
        for raw_key, raw_value in properties.items():
            key = raw_key.decode("ascii", "strict")
            if key not in _TXT_KEYS:
                continue  # unknown keys are allowed, for later versions
            if raw_value is None:
                raise ValueError(f"TXT key {key!r} has no value")
            text[key] = raw_value.decode("utf-8", "strict")
        missing = _TXT_KEYS - text.keys()
        if missing:
            raise ValueError(f"TXT record lacks {sorted(missing)}")
        if not text["v"].isdigit() or len(text["v"]) > 5:
            raise ValueError("TXT v must be a decimal number")
        seats = _SEATS.fullmatch(text["seats"])
        if seats is None:
            raise ValueError("TXT seats must be TAKEN/TOTAL")
        if not re.fullmatch(r"[0-9a-f]{32}", text["tid"]):
            raise ValueError("TXT tid must be 32 lower-case hex digits")
        return cls(
            table_id=bytes.fromhex(text["tid"]),
            table_name=text["table"],
            player_name=text["player"],
            fingerprint=text["fp"],
            seats_taken=int(seats.group(1)),
            seats_total=int(seats.group(2)),
            rules=text["rules"],
            phase=text["phase"],
            version=int(text["v"]),
        )


@dataclass(frozen=True)
class TableAd:
    """A resolved advertisement: the table info plus where the advertising peer listens."""

    instance: str
    info: TableInfo
    addresses: tuple[str, ...]
    port: int

    @property
    def fingerprint(self) -> str:
        """The advertising peer's full fingerprint (pin it when dialing)."""
        return self.info.fingerprint


def instance_name(info: TableInfo) -> str:
    """``"<player> [<short fp>/<table id>]"`` — unique by construction, at most 63 bytes.

    Simultaneous starts with equal names defeat mDNS renaming (LAN_NOTES §1.3-6), so the name
    carries the key and the table instead of relying on conflict resolution.
    """
    suffix = f" [{info.short_fingerprint}/{info.table_id.hex()[:4]}]"
    name = "".join(" " if c == "." or not c.isprintable() else c for c in info.player_name)
    budget = MAX_INSTANCE_BYTES - len(suffix.encode("ascii"))
    name = name.encode("utf-8")[:budget].decode("utf-8", "ignore").strip() or "peer"
    return f"{name}{suffix}"


def _usable(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    return not (ip.is_loopback or ip.is_link_local or ip.is_unspecified or ip.is_multicast)


def lan_addresses() -> list[str]:
    """This host's addresses that LAN peers can dial: no loopback, no link-local; IPv4 first."""
    found: list[ipaddress.IPv4Address | ipaddress.IPv6Address] = []
    for adapter in ifaddr.get_adapters():
        for entry in adapter.ips:
            raw = entry.ip if isinstance(entry.ip, str) else entry.ip[0]
            try:
                ip = ipaddress.ip_address(raw.split("%", 1)[0])
            except ValueError:
                continue
            if _usable(ip) and ip not in found:
                found.append(ip)
    found.sort(key=lambda ip: ip.version)
    return [str(ip) for ip in found]


def _is_loopback(address: str) -> bool:
    try:
        return ipaddress.ip_address(address.split("%", 1)[0]).is_loopback
    except ValueError:
        return False


@dataclass(frozen=True)
class _Plan:
    interfaces: list[str]
    ip_version: IPVersion
    advertised: list[str]


def _plan(interface: str | None) -> _Plan:
    """Which interfaces zeroconf binds and which addresses our records carry."""
    if interface is not None:
        try:
            ip = ipaddress.ip_address(interface)
        except ValueError:
            raise DiscoveryError(f"interface must be an IP address, not {interface!r}") from None
        if ip.is_unspecified or ip.is_multicast:
            raise DiscoveryError(f"{interface} cannot be advertised")
        version = IPVersion.V6Only if ip.version == 6 else IPVersion.V4Only
        return _Plan([str(ip)], version, [str(ip)])
    advertised = lan_addresses()
    v4 = [a for a in advertised if ipaddress.ip_address(a).version == 4]
    if not v4:
        raise DiscoveryError(
            "no LAN IPv4 address to run mDNS on; pass an interface address "
            "(127.0.0.1 for play on this machine only)"
        )
    return _Plan(v4, IPVersion.V4Only, advertised)


class Advertisement:
    """One registered table ad; update it when seats or phase change, withdraw when done."""

    def __init__(self, discovery: Discovery, service: ServiceInfo, info: TableInfo) -> None:
        self._discovery = discovery
        self._service = service
        self._info = info
        self._withdrawn = False

    @property
    def info(self) -> TableInfo:
        """What is advertised now."""
        return self._info

    @property
    def instance(self) -> str:
        """The full DNS-SD service instance name."""
        return str(self._service.name)

    async def update(
        self,
        *,
        seats_taken: int | None = None,
        seats_total: int | None = None,
        phase: str | None = None,
        table_name: str | None = None,
        player_name: str | None = None,
        rules: str | None = None,
    ) -> None:
        """Re-announce with the given fields changed, e.g. ``update(seats_taken=3)``.

        The table id and fingerprint (and so the instance name) never change.
        """
        if self._withdrawn:
            raise DiscoveryError("advertisement was withdrawn")
        now = self._info
        info = replace(
            now,
            seats_taken=now.seats_taken if seats_taken is None else seats_taken,
            seats_total=now.seats_total if seats_total is None else seats_total,
            phase=now.phase if phase is None else phase,
            table_name=now.table_name if table_name is None else table_name,
            player_name=now.player_name if player_name is None else player_name,
            rules=now.rules if rules is None else rules,
        )
        old = self._service
        assert old.port is not None
        service = self._discovery._service_info(info, old.port, str(old.name))
        await trio.to_thread.run_sync(self._discovery._zc.update_service, service)
        self._service, self._info = service, info

    async def withdraw(self) -> None:
        """Send goodbyes for this ad (shielded: completes even when cancelled). Idempotent."""
        if self._withdrawn:
            return
        self._withdrawn = True
        with trio.CancelScope(shield=True):
            await trio.to_thread.run_sync(self._discovery._zc.unregister_service, self._service)
        self._discovery._own_instances.discard(self.instance.lower())


@dataclass
class _BrowseState:
    ads: dict[str, TableAd] = field(default_factory=dict)
    changed: trio.Event = field(default_factory=trio.Event)


class Discovery:
    """One zeroconf instance: advertises this peer's tables and browses everyone else's.

    Use :func:`open_discovery`. :meth:`tables` is the current list (own ads excluded, by
    fingerprint and by instance name); :meth:`wait_for_change` wakes on any change.
    """

    def __init__(self, zc: Zeroconf, plan: _Plan, own_fingerprints: Iterable[str]) -> None:
        self._zc = zc
        self._plan = plan
        self._own_fingerprints = {_format_fingerprint(fp) for fp in own_fingerprints}
        self._own_instances: set[str] = set()
        self._state = _BrowseState()
        self._server = f"p2pd-{secrets.token_hex(6)}.local."

    @property
    def advertised_addresses(self) -> list[str]:
        """The addresses our records carry (only reachable ones)."""
        return list(self._plan.advertised)

    def tables(self) -> list[TableAd]:
        """Resolved ads of other peers, sorted by table name then instance."""
        return sorted(self._state.ads.values(), key=lambda a: (a.info.table_name, a.instance))

    async def wait_for_change(self) -> None:
        """Return after the next change of :meth:`tables`."""
        await self._state.changed.wait()

    def _notify(self) -> None:
        self._state.changed.set()
        self._state.changed = trio.Event()

    def _service_info(self, info: TableInfo, port: int, name: str | None = None) -> ServiceInfo:
        return ServiceInfo(
            SERVICE_TYPE,
            name or f"{instance_name(info)}.{SERVICE_TYPE}",
            port=port,
            properties=info.to_txt(),
            server=self._server,
            parsed_addresses=self._plan.advertised,
        )

    async def advertise(self, info: TableInfo, port: int) -> Advertisement:
        """Register ``info`` for our listener's ``port`` (probing takes ~1.7 s)."""
        if type(port) is not int or not 1 <= port <= 65535:
            raise ValueError("port must be in 1..65535")
        self._own_fingerprints.add(info.fingerprint)
        service = self._service_info(info, port)
        self._own_instances.add(str(service.name).lower())
        self._forget(str(service.name))
        await trio.to_thread.run_sync(
            partial(self._zc.register_service, service, allow_name_change=False)
        )
        return Advertisement(self, service, info)

    def _forget(self, name: str) -> None:
        if self._state.ads.pop(name.lower(), None) is not None:
            self._notify()

    def _accept(self, service: ServiceInfo) -> TableAd | None:
        name = str(service.name)
        if name.lower() in self._own_instances:
            return None
        try:
            info = TableInfo.from_txt(service.properties)
        except (ValueError, UnicodeDecodeError) as exc:
            log.debug("ignoring malformed ad %r: %s", name, exc)
            return None
        if info.fingerprint in self._own_fingerprints:
            return None
        local_only = all(_is_loopback(a) for a in self._plan.advertised)
        addresses = tuple(
            a for a in service.parsed_addresses() if local_only or not _is_loopback(a)
        )
        if not addresses or service.port is None:
            return None
        return TableAd(name, info, addresses, int(service.port))

    async def _resolve(self, name: str) -> None:
        service = await trio.to_thread.run_sync(
            partial(self._zc.get_service_info, SERVICE_TYPE, name, RESOLVE_TIMEOUT_MS),
            abandon_on_cancel=True,
        )
        if service is None:
            log.debug("could not resolve %r", name)
            return
        ad = self._accept(service)
        key = name.lower()
        if ad is None:
            self._forget(name)
        elif self._state.ads.get(key) != ad:
            self._state.ads[key] = ad
            self._notify()

    async def _consume(
        self, events: trio.MemoryReceiveChannel[tuple[ServiceStateChange, str]]
    ) -> None:
        async with trio.open_nursery() as nursery:
            async for state, name in events:
                if not name.lower().endswith(SERVICE_TYPE.lower()):
                    continue
                if state is ServiceStateChange.Removed:
                    self._forget(name)
                else:
                    nursery.start_soon(self._resolve, name)


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
    ads carry every non-loopback, non-link-local address. ``own_fingerprints`` are ignored
    when browsing (our own ads are ignored in any case).
    """
    plan = _plan(interface)
    zc: Zeroconf = await trio.to_thread.run_sync(
        partial(Zeroconf, interfaces=plan.interfaces, ip_version=plan.ip_version, use_asyncio=False)
    )
    discovery = Discovery(zc, plan, own_fingerprints)
    browser: ServiceBrowser | None = None
    send, receive = trio.open_memory_channel[tuple[ServiceStateChange, str]](_EVENT_QUEUE)
    token = trio.lowlevel.current_trio_token()

    def deliver(item: tuple[ServiceStateChange, str]) -> None:  # on the trio thread
        try:
            send.send_nowait(item)
        except (trio.WouldBlock, trio.ClosedResourceError, trio.BrokenResourceError):
            log.debug("dropped discovery event %r", item)

    def on_change(
        zeroconf: Zeroconf, service_type: str, name: str, state_change: ServiceStateChange
    ) -> None:  # on the ServiceBrowser thread
        with suppress(trio.RunFinishedError):
            token.run_sync_soon(deliver, (state_change, name))

    try:
        with unwrap_single_group():
            async with trio.open_nursery() as nursery:
                if browse:
                    nursery.start_soon(discovery._consume, receive)
                    browser = await trio.to_thread.run_sync(
                        partial(ServiceBrowser, zc, SERVICE_TYPE, handlers=[on_change])
                    )
                try:
                    yield discovery
                finally:
                    nursery.cancel_scope.cancel()
    finally:
        with trio.CancelScope(shield=True):
            send.close()
            if browser is not None:
                await trio.to_thread.run_sync(browser.cancel)
            await trio.to_thread.run_sync(zc.close)


async def browse_tables(
    timeout: float,
    *,
    interface: str | None = None,
    own_fingerprints: Iterable[str] = (),
) -> list[TableAd]:
    """Browse for ``timeout`` seconds and return the tables seen (the ``tables`` command)."""
    if not timeout > 0 or math.isinf(timeout):
        raise ValueError("timeout must be a positive, finite number of seconds")
    async with open_discovery(interface=interface, own_fingerprints=own_fingerprints) as disco:
        await trio.sleep(timeout)
        return disco.tables()
