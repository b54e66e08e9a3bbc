"""Where mDNS runs on this machine: the addresses LAN peers can dial (`lan_addresses`), and the
interfaces zeroconf binds and the addresses our ads carry (`plan_for`: one given address, or
the host's LAN IPv4 addresses).

Apart from discovery itself because the web page and the command line ask for this machine's
addresses too, without starting zeroconf.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass

import ifaddr
from zeroconf import IPVersion

from p2p_dominoes.net.errors import DiscoveryError


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


def is_loopback(address: str) -> bool:
    """Whether `address` (an IP, v6 with an optional zone) is a loopback address."""
    try:
        return ipaddress.ip_address(address.split("%", 1)[0]).is_loopback
    except ValueError:
        return False


@dataclass(frozen=True)
class Plan:
    """Where mDNS runs: the interfaces zeroconf binds, its IP version, and the addresses our
    records carry."""

    interfaces: list[str]
    ip_version: IPVersion
    advertised: list[str]


def plan_for(interface: str | None) -> Plan:
    """Which interfaces zeroconf binds and which addresses our records carry."""
    if interface is not None:
        try:
            ip = ipaddress.ip_address(interface)
        except ValueError:
            raise DiscoveryError(f"interface must be an IP address, not {interface!r}") from None
        if ip.is_unspecified or ip.is_multicast:
            raise DiscoveryError(f"{interface} cannot be advertised")
        version = IPVersion.V6Only if ip.version == 6 else IPVersion.V4Only
        return Plan([str(ip)], version, [str(ip)])
    advertised = lan_addresses()
    v4 = [a for a in advertised if ipaddress.ip_address(a).version == 4]
    if not v4:
        raise DiscoveryError(
            "no LAN IPv4 address to run mDNS on; give one with --interface ADDRESS "
            "(--interface 127.0.0.1 for play on this machine only)"
        )
    return Plan(v4, IPVersion.V4Only, advertised)
