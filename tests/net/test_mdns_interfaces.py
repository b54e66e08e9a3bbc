"""Where mDNS runs (net/mdns_interfaces.py): this machine's LAN addresses and the plan of
interfaces zeroconf binds and addresses our ads carry."""

from __future__ import annotations

from p2p_dominoes.net import lan_addresses
from p2p_dominoes.net.mdns_interfaces import plan_for


def test_lan_addresses_exclude_loopback_and_link_local() -> None:
    for address in lan_addresses():
        assert not address.startswith(("127.", "169.254.", "fe80:")) and address != "::1"


def test_loopback_interface_plan_advertises_only_it() -> None:
    plan = plan_for("127.0.0.1")
    assert plan.interfaces == ["127.0.0.1"] and plan.advertised == ["127.0.0.1"]
