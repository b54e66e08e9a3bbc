"""Network namespaces for tests: a fake LAN of "hosts" behind a bridge, or a loopback-only box.

Network hygiene is the point of this module: tests that send multicast (mDNS) or talk to other
"hosts" do so only inside namespaces made here, which have no route to anything outside:

* :func:`bridged_lan` makes ``N`` peer namespaces, each with one veth ``eth0`` whose other end
  is a port of bridge ``br0`` in a separate switch namespace. The veths are created directly in
  those namespaces, so the root namespace (and every real NIC) gets nothing. Peers have
  ``10.213.0.<i>/24`` and ``fd00:d0:1::<i>/64``, no default route, multicast snooping off on
  the bridge so multicast floods to every port.
* :func:`unshare_argv` wraps a command so that it runs in a fresh ``unshare -n`` namespace with
  only ``lo`` (brought up): loopback mDNS there cannot reach any real interface.

Everything made is removed on exit, also on failure: processes still running inside our
namespaces are killed by PID (they can only be ours: the namespaces are fresh), then the
namespaces are deleted. Needs root (CAP_SYS_ADMIN/CAP_NET_ADMIN), ``ip`` and ``unshare``.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

SUBNET_V4 = "10.213.0"
SUBNET_V6 = "fd00:d0:1::"


def namespace_support() -> str | None:
    """None when this process can make namespaces; otherwise the reason it cannot."""
    if os.geteuid() != 0:
        return "needs root for network namespaces"
    for tool in ("ip", "unshare"):
        if shutil.which(tool) is None:
            return f"needs the {tool!r} command"
    return None


HOST_NETNS_ENV = "P2PD_TEST_HOST_NETNS"
"""Environment variable carrying the test runner's network namespace to its child peers."""


def netns_id() -> str:
    """This process's network namespace, e.g. ``net:[4026531833]``."""
    return os.readlink("/proc/self/ns/net")


def isolated_env() -> dict[str, str]:
    """The environment for peers started by a test: names the namespace they must not be in."""
    return {**os.environ, HOST_NETNS_ENV: netns_id()}


def isolation_problem() -> str | None:
    """None when this process is safely inside a test namespace; else what is wrong.

    Checks that it runs in a namespace other than the test runner's (named by
    :func:`isolated_env`), and that every interface address is loopback, link-local or in the
    fake LAN's subnets, so multicast sent here cannot reach a real network.
    """
    import ipaddress

    import ifaddr

    host = os.environ.get(HOST_NETNS_ENV)
    if not host:
        return f"{HOST_NETNS_ENV} is not set: start peers through tests/net/netns.py"
    if netns_id() == host:
        return "this is the test runner's own network namespace"
    allowed = (ipaddress.ip_network(f"{SUBNET_V4}.0/24"), ipaddress.ip_network(f"{SUBNET_V6}/64"))
    for adapter in ifaddr.get_adapters():
        for entry in adapter.ips:
            raw = entry.ip if isinstance(entry.ip, str) else entry.ip[0]
            ip = ipaddress.ip_address(raw.split("%", 1)[0])
            if ip.is_loopback or ip.is_link_local or any(ip in net for net in allowed):
                continue
            return f"interface {adapter.nice_name} has a real address {ip}"
    return None


def _ip(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["ip", *args], check=check, capture_output=True, text=True, timeout=20)


def _namespace_pids(name: str) -> list[int]:
    result = _ip("netns", "pids", name, check=False)
    return [int(p) for p in result.stdout.split() if p.isdigit()]


def remove_namespace(name: str) -> None:
    """Kill what runs inside namespace ``name`` (by PID) and delete it; quiet if absent."""
    for _ in range(20):
        pids = _namespace_pids(name)
        if not pids:
            break
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.05)
    _ip("netns", "del", name, check=False)


@dataclass(frozen=True)
class Lan:
    """A bridged fake LAN: ``namespaces[i]`` has address ``v4[i]`` / ``v6[i]`` on ``eth0``."""

    switch: str
    namespaces: tuple[str, ...]
    v4: tuple[str, ...]
    v6: tuple[str, ...]

    def exec_argv(self, index: int, argv: Sequence[str]) -> list[str]:
        """``argv`` run inside peer namespace ``index`` (``ip netns exec`` execs: same PID)."""
        return ["ip", "netns", "exec", self.namespaces[index], *argv]

    def set_link(self, index: int, up: bool) -> None:
        """Take peer ``index``'s ``eth0`` down (its connections go silent: a dropped Wi-Fi) or
        bring it back up (with its multicast route, which going down removed)."""
        ns = self.namespaces[index]
        _ip("-n", ns, "link", "set", "eth0", "up" if up else "down")
        if up:
            _ip("-n", ns, "route", "replace", "224.0.0.0/4", "dev", "eth0")

    def block_multicast(self) -> None:
        """Stop the bridge flooding multicast, like a Wi-Fi that drops mDNS (LAN_NOTES §2.5)."""
        for i in range(len(self.namespaces)):
            subprocess.run(
                [
                    "bridge",
                    "-n",
                    self.switch,
                    "link",
                    "set",
                    "dev",
                    f"p{i + 1}",
                    "mcast_flood",
                    "off",
                ],
                check=True,
                capture_output=True,
                timeout=20,
            )


def _create_lan(prefix: str, n: int) -> Lan:
    switch = f"{prefix}-sw"
    names = tuple(f"{prefix}-p{i}" for i in range(1, n + 1))
    _ip("netns", "add", switch)
    _ip("-n", switch, "link", "set", "lo", "up")
    _ip("-n", switch, "link", "add", "br0", "type", "bridge", "mcast_snooping", "0")
    _ip("-n", switch, "link", "set", "br0", "up")
    for i, ns in enumerate(names, start=1):
        _ip("netns", "add", ns)
        _ip(
            "link",
            "add",
            "eth0",
            "netns",
            ns,
            "type",
            "veth",
            "peer",
            "name",
            f"p{i}",
            "netns",
            switch,
        )
        _ip("-n", switch, "link", "set", f"p{i}", "master", "br0")
        _ip("-n", switch, "link", "set", f"p{i}", "up")
        subprocess.run(
            [
                "ip",
                "netns",
                "exec",
                ns,
                "sysctl",
                "-qw",
                "net.ipv6.conf.all.accept_dad=0",
                "net.ipv6.conf.default.accept_dad=0",
                "net.ipv6.conf.eth0.accept_dad=0",
            ],
            check=True,
            capture_output=True,
            timeout=20,
        )
        _ip("-n", ns, "link", "set", "lo", "up")
        _ip("-n", ns, "link", "set", "eth0", "multicast", "on")
        _ip("-n", ns, "addr", "add", f"{SUBNET_V4}.{i}/24", "dev", "eth0")
        _ip("-n", ns, "-6", "addr", "add", f"{SUBNET_V6}{i}/64", "dev", "eth0", "nodad")
        _ip("-n", ns, "link", "set", "eth0", "up")
        _ip("-n", ns, "route", "add", "224.0.0.0/4", "dev", "eth0")
    return Lan(
        switch,
        names,
        tuple(f"{SUBNET_V4}.{i}" for i in range(1, n + 1)),
        tuple(f"{SUBNET_V6}{i}" for i in range(1, n + 1)),
    )


@contextlib.contextmanager
def bridged_lan(n: int, *, prefix: str | None = None) -> Iterator[Lan]:
    """Create ``n`` peer namespaces on one bridge for the block; remove all of it after."""
    reason = namespace_support()
    if reason is not None:
        raise RuntimeError(reason)
    prefix = prefix or f"p2pd{os.getpid() % 100000}"
    switch = f"{prefix}-sw"
    names = [switch, *(f"{prefix}-p{i}" for i in range(1, n + 1))]
    for name in names:  # leftovers of an earlier, killed run with the same PID
        remove_namespace(name)
    try:
        yield _create_lan(prefix, n)
    finally:
        for name in names:
            remove_namespace(name)


def unshare_argv(argv: Sequence[str]) -> list[str]:
    """``argv`` run in a new network namespace that has only ``lo``, which is brought up."""
    return ["unshare", "--net", "--", "sh", "-c", 'ip link set lo up && exec "$0" "$@"', *argv]


def python_argv(module: str, *args: str) -> list[str]:
    """This interpreter running ``module`` (from the repository root, see :data:`REPO_ROOT`)."""
    return [sys.executable, "-m", module, *args]


REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
