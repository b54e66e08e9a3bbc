"""Addresses as peers write and dial them: `HOST:PORT`, a remote address's host, loopback,
and the address a joiner on the LAN dials to reach this host."""

from __future__ import annotations

import ipaddress

from p2p_dominoes.net.peer_options import PeerOptions


def split_host_port(text: str) -> tuple[str, int]:
    """`HOST:PORT` or `[V6]:PORT` → (host, port); ValueError with a clear message otherwise."""
    host, sep, port = text.rpartition(":")
    if not sep or not host or not port.isdigit() or not 1 <= int(port) <= 65535:
        raise ValueError(f"{text!r} is not HOST:PORT")
    return host.strip("[]"), int(port)


def bare_host(address: str) -> str:
    """The host part of a `host:port` / `[v6]:port` remote address."""
    try:
        return split_host_port(address)[0]
    except ValueError:
        return address


def is_loopback(host: str) -> bool:
    """Whether `host` (an IP address, perhaps with a `%zone`) is a loopback address."""
    try:
        return ipaddress.ip_address(host.split("%", 1)[0]).is_loopback
    except ValueError:
        return False


def dial_host(options: PeerOptions) -> str:
    """The address joiners dial to reach us: the interface we listen on, else our first LAN
    address (127.0.0.1 without one)."""
    if options.interface:
        return f"[{options.interface}]" if ":" in options.interface else options.interface
    from p2p_dominoes.net.mdns_interfaces import lan_addresses

    addresses = lan_addresses()
    return addresses[0] if addresses else "127.0.0.1"
