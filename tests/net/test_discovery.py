"""Discovery: TXT records and names (pure), then real mDNS between network namespaces.

Hygiene: the mDNS tests run peers as subprocesses inside namespaces that the test creates (a
bridge of three, or a loopback-only ``unshare -n`` box); the peers refuse to run anywhere else
(``tests/net/netns.py:isolation_problem``), and in this process zeroconf cannot start at all
(``conftest.py``).
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

from p2p_dominoes.net import (
    SERVICE_TYPE,
    TableInfo,
    instance_name,
    lan_addresses,
    open_discovery,
)
from p2p_dominoes.net.discovery import _plan
from p2p_dominoes.session import Identity
from tests.net.conftest import HygieneViolation
from tests.net.netns import (
    REPO_ROOT,
    bridged_lan,
    isolated_env,
    namespace_support,
    python_argv,
    unshare_argv,
)

FP = Identity.from_private_bytes(b"\x01" * 32).public.fingerprint


def _info(**changes: Any) -> TableInfo:
    fields: dict[str, Any] = {
        "table_id": bytes(range(16)),
        "table_name": "Kitchen",
        "player_name": "Ана",
        "fingerprint": FP,
        "seats_taken": 1,
        "seats_total": 4,
        "rules": "draw",
        "phase": "lobby",
    }
    fields.update(changes)
    return TableInfo(**fields)


def _txt(info: TableInfo) -> dict[bytes, bytes | None]:
    return {k.encode(): v.encode() for k, v in info.to_txt().items()}


def test_txt_round_trip_and_keys() -> None:
    info = _info()
    txt = info.to_txt()
    assert txt == {
        "v": "1",
        "tid": "000102030405060708090a0b0c0d0e0f",
        "table": "Kitchen",
        "player": "Ана",
        "fp": FP,
        "seats": "1/4",
        "rules": "draw",
        "phase": "lobby",
    }
    assert TableInfo.from_txt(_txt(info)) == info
    assert all(len(k) + 1 + len(v.encode()) <= 255 for k, v in txt.items())


def test_fingerprint_is_normalised() -> None:
    assert _info(fingerprint=FP.replace("-", "").lower()).fingerprint == FP


@pytest.mark.parametrize(
    "changes",
    [
        {"table_id": b"short"},
        {"table_name": ""},
        {"player_name": "x" * 65},
        {"player_name": "bad\nname"},
        {"fingerprint": FP[:9]},
        {"seats_taken": 5},
        {"seats_total": 0},
        {"seats_taken": True},
        {"rules": "Draw Rules"},
        {"phase": "over"},
    ],
)
def test_invalid_table_info_is_refused(changes: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        _info(**changes)


@pytest.mark.parametrize(
    "mutate",
    [
        lambda t: t.pop(b"fp"),
        lambda t: t.update({b"seats": b"2of4"}),
        lambda t: t.update({b"seats": b"5/4"}),
        lambda t: t.update({b"tid": b"00"}),
        lambda t: t.update({b"v": b"one"}),
        lambda t: t.update({b"table": None}),
        lambda t: t.update({b"player": b"\xff"}),
        lambda t: t.update({b"phase": b"PLAYING"}),
    ],
)
def test_malformed_txt_is_refused(mutate: Any) -> None:
    txt = _txt(_info())
    mutate(txt)
    with pytest.raises(ValueError):
        TableInfo.from_txt(txt)


def test_unknown_txt_keys_are_ignored() -> None:
    txt = _txt(_info())
    txt[b"future"] = b"1"
    assert TableInfo.from_txt(txt) == _info()


def test_instance_names_are_unique_by_construction_and_fit() -> None:
    name = instance_name(_info())
    assert name == "Ана [" + FP[:9] + "/0001]"
    other = Identity.from_private_bytes(b"\x02" * 32).public.fingerprint
    assert instance_name(_info(fingerprint=other)) != name
    long = instance_name(_info(player_name="é" * 32))
    assert len(long.encode()) <= 63 and long.endswith(f"[{FP[:9]}/0001]")
    assert "." not in instance_name(_info(player_name="a.b.c"))


def test_lan_addresses_exclude_loopback_and_link_local() -> None:
    for address in lan_addresses():
        assert not address.startswith(("127.", "169.254.", "fe80:")) and address != "::1"


def test_loopback_interface_plan_advertises_only_it() -> None:
    plan = _plan("127.0.0.1")
    assert plan.interfaces == ["127.0.0.1"] and plan.advertised == ["127.0.0.1"]


async def test_guard_stops_mdns_in_the_runners_namespace() -> None:
    with pytest.raises(HygieneViolation):
        async with open_discovery(interface="127.0.0.1"):
            pass


def _reports(procs: list[subprocess.Popen[str]], timeout: float) -> list[dict[str, Any]]:
    reports = []
    for proc in procs:
        out, err = proc.communicate(timeout=timeout)
        assert out, f"peer printed nothing (rc {proc.returncode}): {err[-2000:]}"
        report = json.loads(out)
        report["rc"] = proc.returncode
        report["stderr"] = err[-2000:]
        reports.append(report)
    return reports


def _check_full_mesh(reports: list[dict[str, Any]], total: int) -> None:
    everyone = {r["fingerprint"] for r in reports}
    assert len(everyone) == total
    for r in reports:
        others = sorted(everyone - {r["fingerprint"]})
        assert r["rc"] == 0 and r["ok"], r
        assert r["seen"] == others  # own ad ignored, every other one resolved
        assert sorted(r["inbound"]) == others  # accepted from every other peer
        assert r["updated_seen"] == others  # the TXT update (seats) reached everyone
        assert len(r["dialed"]) == total - 1
        assert all(reply.endswith("got hello from " + r["name"]) for reply in r["dialed"].values())
        assert r["instance"].endswith("." + SERVICE_TYPE)
        assert r["fingerprint"][:9] in r["instance"]
        # zeroconf's loop and browser threads ran, and are gone after shutdown (only trio's
        # idle worker-thread cache remains).
        assert any(t.startswith("zeroconf-ServiceBrowser") for t in r["threads_during"])
        assert all(t == "MainThread" or t.startswith("Trio thread") for t in r["threads_after"])


_ECHO_ONCE = """
import socket, sys
s = socket.create_server((sys.argv[1], 47999))
print("listening", flush=True)
c, _ = s.accept()
c.sendall(c.recv(100) + b" back")
"""
_SAY_HELLO = """
import socket, sys
c = socket.create_connection((sys.argv[1], 47999), timeout=10)
c.sendall(b"hello")
print(c.recv(100).decode())
"""

needs_namespaces = pytest.mark.skipif(
    namespace_support() is not None, reason=str(namespace_support())
)


@pytest.mark.netns
@needs_namespaces
def test_three_hosts_discover_each_other_over_a_bridge() -> None:
    with bridged_lan(3) as lan:
        procs = []
        for i in range(3):
            args = ["--name", f"p{i + 1}", "--seed", str(i + 1), "--peers", "3"]
            if i == 0:
                args += ["--interface", lan.v4[0]]  # --interface; the others use every address
            procs.append(
                subprocess.Popen(
                    lan.exec_argv(i, python_argv("tests.net.discovery_peer", *args)),
                    cwd=REPO_ROOT,
                    env=isolated_env(),
                    text=True,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                )
            )
        reports = _reports(procs, timeout=60)
    _check_full_mesh(reports, 3)
    by_name = {r["name"]: r for r in reports}
    assert by_name["p1"]["advertised_addresses"] == [lan.v4[0]]
    assert by_name["p2"]["advertised_addresses"] == [lan.v4[1], lan.v6[1]]
    assert by_name["p2"]["ad_addresses"]["p1"] == [lan.v4[0]]
    assert by_name["p1"]["ad_addresses"]["p3"] == [lan.v4[2], lan.v6[2]]
    assert all(r["port"] == 47800 for r in reports)  # default port, one host per namespace


@pytest.mark.netns
@needs_namespaces
def test_three_peers_on_loopback_in_a_private_namespace() -> None:
    result = subprocess.run(
        unshare_argv(python_argv("tests.net.discovery_peer", "--spawn", "3")),
        cwd=REPO_ROOT,
        env=isolated_env(),
        capture_output=True,
        text=True,
        timeout=90,
    )
    assert result.returncode == 0, result.stderr
    entries = json.loads(result.stdout)
    reports = [dict(e["report"], rc=e["rc"]) for e in entries]
    _check_full_mesh(reports, 3)
    for r in reports:
        assert r["advertised_addresses"] == ["127.0.0.1"]
        assert all(a == ["127.0.0.1"] for a in r["ad_addresses"].values())
    assert sorted(r["port"] == 47800 for r in reports) == [False, False, True]  # fallback


@pytest.mark.netns
@needs_namespaces
def test_no_discovery_when_the_bridge_drops_multicast() -> None:
    with bridged_lan(2) as lan:
        lan.block_multicast()
        procs = [
            subprocess.Popen(
                lan.exec_argv(
                    i,
                    python_argv(
                        "tests.net.discovery_peer",
                        "--name",
                        f"p{i + 1}",
                        "--seed",
                        str(i + 1),
                        "--peers",
                        "2",
                        "--timeout",
                        "3",
                        "--linger",
                        "0",
                    ),
                ),
                cwd=REPO_ROOT,
                env=isolated_env(),
                text=True,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
            )
            for i in range(2)
        ]
        reports = _reports(procs, timeout=40)
        # Unicast still flows: the manual fallback (--connect) has a path.
        server = subprocess.Popen(
            lan.exec_argv(1, [sys.executable, "-c", _ECHO_ONCE, lan.v4[1]]),
            stdout=subprocess.PIPE,
            text=True,
        )
        assert server.stdout is not None and server.stdout.readline() == "listening\n"
        client = subprocess.run(
            lan.exec_argv(0, [sys.executable, "-c", _SAY_HELLO, lan.v4[1]]),
            capture_output=True,
            text=True,
            timeout=20,
        )
        server.wait(timeout=10)
    assert client.stdout == "hello back\n"
    assert [r["rc"] for r in reports] == [1, 1]
    assert [r["seen"] for r in reports] == [[], []]
