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
from dataclasses import replace
from typing import Any

import pytest
import trio
import trio.testing
from zeroconf import ServiceStateChange

from p2p_dominoes.net import (
    AD_SIGNATURE_DOMAIN,
    MAX_ADS_PER_SOURCE,
    MAX_TABLES_KEPT,
    MAX_TABLES_LISTED,
    SERVICE_TYPE,
    Discovery,
    InvalidAd,
    SignedAd,
    TableAd,
    TableInfo,
    instance_name,
    open_discovery,
)
from p2p_dominoes.net.ad_record import instance_label, signed_bytes, txt_properties
from p2p_dominoes.net.finding import _choose, _listing
from p2p_dominoes.net.mdns_interfaces import plan_for
from p2p_dominoes.session import PROTOCOL_VERSION, Identity
from p2p_dominoes.ui.web.lobby_rows import LOBBY_TABLES_BYTES, table_rows
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
        "v": str(PROTOCOL_VERSION),  # the session protocol version (PROTOCOL.md §12.8)
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


# -- signed advertisements (pure) -------------------------------------------------------------

HOST = Identity.from_private_bytes(b"\x01" * 32)
OTHER = Identity.from_private_bytes(b"\x02" * 32)
LABEL = "Ана [" + FP[:9] + "/0001]"


def _signed(
    identity: Identity = HOST,
    *,
    info: TableInfo | None = None,
    seq: int = 5,
    label: str = LABEL,
    port: int = 47800,
    addresses: tuple[str, ...] = ("10.213.0.1",),
) -> dict[bytes, bytes | None]:
    props = SignedAd.txt(
        identity, info or _info(), instance=label, port=port, seq=seq, addresses=addresses
    )
    return dict(props)


def test_a_signed_ad_verifies_and_says_what_was_signed() -> None:
    props = _signed()
    ad = SignedAd.verify(LABEL, 47800, props)
    assert ad.info == _info() and ad.key == HOST.public and ad.seq == 5
    assert ad.addresses == ("10.213.0.1",) and ad.port == 47800
    assert all(len(k) + 1 + len(v or b"") <= 255 for k, v in props.items())
    record = b"".join(
        bytes((len(k) + 1 + len(v or b""),)) + k + b"=" + (v or b"") for k, v in props.items()
    )
    assert len(record) < 400  # small: one packet with the SRV and A records
    assert txt_properties(record) == props
    assert signed_bytes(LABEL, 47800, props).startswith(AD_SIGNATURE_DOMAIN)


@pytest.mark.parametrize(
    ("key", "value"),
    [
        (b"table", b"Other"),
        (b"player", b"Mallory"),
        (b"seats", b"2/4"),
        (b"rules", b"block"),
        (b"phase", b"closed"),
        (b"tid", b"ff" * 16),
        (b"seq", b"6"),
        (b"addr", b"10.213.0.66"),
        (b"v", str(PROTOCOL_VERSION + 1).encode()),
        (b"extra", b"1"),  # unknown keys are signed too
    ],
)
def test_a_tampered_field_breaks_the_signature(key: bytes, value: bytes) -> None:
    props = _signed()
    props[key] = value
    with pytest.raises(InvalidAd, match="bad signature"):
        SignedAd.verify(LABEL, 47800, props)


def test_the_instance_name_and_the_port_are_signed() -> None:
    props = _signed()
    with pytest.raises(InvalidAd, match="bad signature"):
        SignedAd.verify("Ана [" + FP[:9] + "/0002]", 47800, props)
    with pytest.raises(InvalidAd, match="bad signature"):
        SignedAd.verify(LABEL, 47801, props)


def test_the_instance_name_must_carry_the_key_and_the_table() -> None:
    # A valid signature by Mallory's own key, under the host's instance name.
    info = _info(fingerprint=OTHER.public.fingerprint)
    with pytest.raises(InvalidAd, match="short fingerprint"):
        SignedAd.verify(LABEL, 47800, _signed(OTHER, info=info))
    label = "Ана [" + FP[:9] + "/ffff]"
    with pytest.raises(InvalidAd, match="table id"):
        SignedAd.verify(label, 47800, _signed(label=label))
    renamed = "Ана [" + FP[:9] + "/0001-a1b2c3]"  # the suffix after a probe conflict
    assert SignedAd.verify(renamed, 47800, _signed(label=renamed)).seq == 5


def test_a_key_that_is_not_the_fingerprints_is_refused() -> None:
    # Mallory signs an ad that claims the host's fingerprint with her own key …
    forged = _signed(OTHER, info=_info(fingerprint=OTHER.public.fingerprint))
    forged[b"fp"] = FP.encode()
    with pytest.raises(InvalidAd, match="pk does not match"):
        SignedAd.verify(LABEL, 47800, forged)
    # … or carries the host's key with her signature.
    forged[b"pk"] = _signed()[b"pk"]
    with pytest.raises(InvalidAd, match="bad signature"):
        SignedAd.verify(LABEL, 47800, forged)
    with pytest.raises(ValueError, match="not this identity"):
        _signed(OTHER)


@pytest.mark.parametrize("missing", [b"pk", b"sig", b"seq", b"addr"])
def test_an_unsigned_ad_is_refused(missing: bytes) -> None:
    props = _signed()
    del props[missing]
    with pytest.raises(InvalidAd):
        SignedAd.verify(LABEL, 47800, props)


@pytest.mark.parametrize(
    ("key", "value"),
    [
        (b"pk", b"A" * 43),  # not a valid point
        (b"pk", b"AAAA"),
        (b"sig", b"!" * 86),
        (b"seq", b"0"),
        (b"seq", b"01"),
        (b"seq", b"9" * 17),
        (b"addr", b"not-an-ip"),
        (b"addr", b""),
        (b"table", b"x" * 250),  # within 255 bytes but over the 64-byte name limit
        (b"player", b"y" * 260),  # over the 255-byte TXT entry limit
    ],
)
def test_malformed_signed_fields_are_refused(key: bytes, value: bytes) -> None:
    props = _signed()
    props[key] = value
    with pytest.raises(InvalidAd):
        SignedAd.verify(LABEL, 47800, props)


@pytest.mark.parametrize(
    "name",
    [
        "Evil._P2P-Dominoes._tcp.local.",
        "Evil._p2p-dominoes._TCP.local.",
        "Evil._p2p-dominoes._tcp.LOCAL.",
        "x" * 64 + "._p2p-dominoes._tcp.local.",
        ".".join(["x" * 60] * 5) + "._p2p-dominoes._tcp.local.",
        "a.b._p2p-dominoes._tcp.local.",
        "._p2p-dominoes._tcp.local.",
        "_p2p-dominoes._tcp.local.",
        "bell\x07._p2p-dominoes._tcp.local.",
        "rtl\u202eevil._p2p-dominoes._tcp.local.",
        " padded._p2p-dominoes._tcp.local.",
        "Evil._http._tcp.local.",
    ],
)
def test_names_that_are_not_ours_exactly_are_ignored(name: str) -> None:
    assert instance_label(name) is None


def test_our_own_instance_names_are_ours() -> None:
    for info in (_info(), _info(player_name="é" * 32), _info(player_name="a.b\u202ec\u200bd")):
        for suffix in ("", "a1b2c3"):
            label = instance_name(info, suffix)
            assert instance_label(f"{label}.{SERVICE_TYPE}") == label
            assert len(label.encode()) <= 63


# -- what a browser believes (the browse state, without zeroconf) ------------------------------


class _Cache:
    def __init__(self) -> None:
        self.records: dict[tuple[str, int], list[Any]] = {}

    def get_all_by_details(self, name: str, type_: int, class_: int) -> list[Any]:
        return list(self.records.get((name.lower(), type_), []))


class _Zeroconf:
    def __init__(self) -> None:
        self.cache = _Cache()


class _Service:
    """What zeroconf's resolved ServiceInfo offers the browser."""

    def __init__(self, props: dict[bytes, bytes | None], port: int, address: str) -> None:
        self.properties = props
        self.port = port
        self._address = address

    def parsed_addresses(self) -> list[str]:
        return [self._address]


def _browser() -> Discovery:
    return Discovery(_Zeroconf(), plan_for("10.213.0.9"), ())  # type: ignore[arg-type]


def _offer(
    disco: Discovery,
    props: dict[bytes, bytes | None],
    *,
    label: str = LABEL,
    port: int = 47800,
    address: str = "10.213.0.1",
) -> None:
    disco._consider(f"{label}.{SERVICE_TYPE}", _Service(props, port, address))  # type: ignore[arg-type]


async def test_a_browser_lists_signed_ads_only_and_refuses_replays() -> None:
    disco = _browser()
    unsigned = {k.encode(): v.encode() for k, v in _info().to_txt().items()}
    _offer(disco, dict(unsigned))
    assert disco.tables() == []
    _offer(disco, _signed(seq=5))
    (ad,) = disco.tables()
    assert ad.seq == 5 and ad.addresses == ("10.213.0.1",) and ad.confirmed
    _offer(disco, _signed(info=_info(seats_taken=2), seq=7))
    assert [t.info.seats_taken for t in disco.tables()] == [2]
    _offer(disco, _signed(info=_info(seats_taken=3), seq=6))  # an older record, replayed
    assert [t.info.seats_taken for t in disco.tables()] == [2]
    tampered = _signed(seq=8)
    tampered[b"phase"] = b"closed"
    _offer(disco, tampered)  # a bare, unsigned "close"
    assert [t.seq for t in disco.tables()] == [7]


async def test_a_signed_close_removes_the_table_for_good() -> None:
    disco = _browser()
    _offer(disco, _signed(seq=5))
    _offer(disco, _signed(info=_info(phase="closed"), seq=6))
    assert disco.tables() == []
    _offer(disco, _signed(seq=5))  # the old lobby record, replayed after the close
    assert disco.tables() == []


async def test_a_spoofed_record_beside_the_hosts_does_not_hide_it() -> None:
    disco = _browser()
    good = _signed(seq=5)
    text = b"".join(
        bytes((len(k) + 1 + len(v or b""),)) + k + b"=" + (v or b"") for k, v in good.items()
    )
    name = f"{LABEL}.{SERVICE_TYPE}".lower()
    cache: Any = disco._zc.cache
    cache.records[(name, 16)] = [type("T", (), {"text": text})()]
    cache.records[(name, 33)] = [
        type("S", (), {"port": 9})(),
        type("S", (), {"port": 47800})(),
    ]
    spoofed = dict(good)
    spoofed[b"seats"] = b"4/4"
    _offer(disco, spoofed, port=9)  # zeroconf resolved to the attacker's TXT and SRV
    assert [(t.info.seats_taken, t.port) for t in disco.tables()] == [(1, 47800)]


async def test_a_flood_is_capped_and_does_not_push_out_other_hosts() -> None:
    disco = _browser()
    sources = 20
    for number in range(MAX_TABLES_KEPT + 40):
        identity = Identity.from_private_bytes(number.to_bytes(2, "big") * 16)
        fp = identity.public.fingerprint
        info = _info(fingerprint=fp, table_name=f"Fake {number}", table_id=bytes(16))
        label = f"fake {number} [{fp[:9]}/0000]"
        source = f"10.213.1.{number % sources}"  # each address signs its own
        _offer(
            disco,
            _signed(identity, info=info, label=label, addresses=(source,)),
            label=label,
            address=source,
        )
    assert len(disco.tables()) == MAX_TABLES_LISTED
    assert len(disco.tables(limit=None)) == sources * MAX_ADS_PER_SOURCE
    # The real host comes last, from its own address, its A records spoofed by the attacker.
    _offer(disco, _signed(seq=5), address="10.213.1.0")
    assert "Kitchen" in [t.info.table_name for t in disco.tables()]
    assert len(disco.tables()) == MAX_TABLES_LISTED


async def test_a_believed_table_stays_listed_at_its_signed_address_under_spoofed_records() -> None:
    disco = _browser()
    _offer(disco, _signed(seq=5))  # its A record carries its signed address: believed
    _offer(disco, _signed(seq=6), address="10.213.0.66")  # then spoofed A records
    for number in range(1000):
        identity = Identity.from_private_bytes(number.to_bytes(2, "big") * 16)
        fp = identity.public.fingerprint
        info = _info(fingerprint=fp, table_id=number.to_bytes(16, "big"))
        label = f"Kitchen [{fp[:9]}/0000]"
        props = _signed(identity, info=info, label=label, addresses=("10.213.0.66",))
        _offer(disco, props, label=label, address="10.213.0.66")
    real = [t for t in disco.tables() if t.fingerprint == FP]
    assert [(t.seq, t.addresses, t.confirmed) for t in real] == [(6, ("10.213.0.1",), True)]
    assert len(disco.tables(limit=None)) == 1 + MAX_ADS_PER_SOURCE
    named = disco.named("Kitchen")
    assert named[0].fingerprint == FP and len(named) == 1 + MAX_ADS_PER_SOURCE


def _ad(number: int, name: str = "Kitchen", phase: str = "lobby") -> TableAd:
    fp = Identity.from_private_bytes(bytes([number + 1]) * 32).public.fingerprint
    info = _info(fingerprint=fp, table_name=name, table_id=bytes([number]) * 16, phase=phase)
    return TableAd(f"x{number}.{SERVICE_TYPE}", info, ("10.213.0.1",), 47800, 1)


def test_join_by_name_refuses_an_ambiguous_name_and_takes_a_fingerprint() -> None:
    tables = [_ad(1), _ad(2), _ad(3, "Hall")]
    assert _choose(tables, "hall") == (tables[2], "")
    ambiguous = _choose(tables, "Kitchen")
    assert isinstance(ambiguous, str) and "several tables match “Kitchen”" in ambiguous
    assert tables[0].info.short_fingerprint in ambiguous
    assert tables[1].info.short_fingerprint in ambiguous
    assert "p2p-dominoes join FINGERPRINT" in ambiguous
    assert _choose(tables, tables[1].fingerprint[:9]) == (tables[1], "")
    assert _choose(tables, tables[1].fingerprint[:9].lower().replace("-", "")) == (tables[1], "")
    assert _choose(tables, "0101") == (tables[0], "")  # a table id prefix
    assert _choose([_ad(4, phase="playing")], None) is None


def test_join_by_name_takes_the_table_seen_before_its_namesakes_and_says_so() -> None:
    tables = [_ad(1), _ad(2), _ad(3)]
    chosen = _choose(tables, "kitchen", lambda found: found[1])
    assert isinstance(chosen, tuple) and chosen[0] == tables[1]
    note = chosen[1]
    assert "3 tables are called “kitchen”" in note and "join FINGERPRINT" in note
    assert tables[0].info.short_fingerprint in note and tables[2].info.short_fingerprint in note
    # A fingerprint prefix several share is never settled by age.
    prefix = _choose(tables, "0", lambda found: found[0])
    assert isinstance(prefix, str)


def test_the_lobby_push_is_bounded_and_cleaned() -> None:
    name = "\u202e" + "é" * 30
    tables = [_ad(n % 250, name=name) for n in range(MAX_TABLES_KEPT)]
    rows = table_rows(tables)
    assert len(rows) <= MAX_TABLES_LISTED
    size = len(json.dumps(rows, ensure_ascii=False).encode())
    assert size <= LOBBY_TABLES_BYTES
    assert all("\u202e" not in r["table"] for r in rows)


async def test_a_bug_in_one_browser_event_is_logged_and_the_next_event_is_heard(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """An unexpected exception inside zeroconf's callback stays there: named once, then on."""
    disco = _browser()
    name = f"{LABEL}.{SERVICE_TYPE}"
    calls = []

    def buggy_label(text: str) -> str | None:
        calls.append(text)
        if len(calls) == 1:
            raise RuntimeError("a bug in the application")
        return instance_label(text)

    monkeypatch.setattr("p2p_dominoes.net.discovery.instance_label", buggy_label)
    with caplog.at_level("WARNING", logger="p2p_dominoes.net.discovery"):
        disco._on_event(ServiceStateChange.Added, name)  # raises inside: must not escape
    assert "discovery event failed: RuntimeError('a bug in the application')" in caplog.text
    assert name not in disco._fast
    disco._on_event(ServiceStateChange.Added, name)
    assert name in disco._fast


async def test_a_bug_while_resolving_one_ad_leaves_the_resolver_serving_the_next(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    disco = _browser()
    first, second = (f"{label}.{SERVICE_TYPE}" for label in (LABEL + "x", LABEL))
    resolved = []

    async def lookup(name: str, timeout_ms: int) -> Any:
        resolved.append(name)
        if name == first:
            raise RuntimeError("a bug in the application")
        return _Service(_signed(), 47800, "10.213.0.1")

    monkeypatch.setattr(disco, "_lookup", lookup)
    with caplog.at_level("WARNING", logger="p2p_dominoes.net.discovery"):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(disco._resolver, disco._fast, 10, disco._to_slow)
            assert disco._fast.put(first) and disco._fast.put(second)
            with trio.fail_after(5):
                while len(resolved) < 2:
                    await trio.sleep(0.01)
            await trio.testing.wait_all_tasks_blocked()
            nursery.cancel_scope.cancel()
    assert "failed: RuntimeError('a bug in the application')" in caplog.text
    assert resolved == [first, second]
    assert disco.tables(), "the second ad was still considered"


def test_namesakes_are_listed_lone_address_first() -> None:
    crowd = [replace(_ad(n), addresses=("10.213.0.66",)) for n in range(1, 10)]
    real = replace(_ad(0), addresses=("10.213.0.1",))
    ambiguous = _choose([*crowd, real], "Kitchen")
    assert isinstance(ambiguous, str)
    assert ambiguous.index(real.info.short_fingerprint) < ambiguous.index(
        crowd[0].info.short_fingerprint
    )


def test_table_names_are_quoted_so_one_cannot_pose_as_another_entry() -> None:
    from p2p_dominoes.commands.lan import _table_line

    posing = _ad(1, name="Kitchen (AAAA-AAAA), Kitchen")
    line = _choose([posing, _ad(2)], posing.fingerprint[:4])
    assert line == (posing, "")
    ambiguous = _choose([_ad(1), _ad(2)], "kitchen")
    assert isinstance(ambiguous, str) and "“Kitchen” (" in ambiguous
    listed = _listing([posing])
    assert listed == f"“Kitchen (AAAA-AAAA), Kitchen” ({posing.info.short_fingerprint})"
    row: dict[str, object] = {
        "table": "Kitchen” host “Ann",
        "host": "Mallory",
        "fingerprint": posing.fingerprint,
        "seats": "1/4",
        "rules": "draw",
        "phase": "lobby",
        "addresses": ["10.213.0.1"],
        "port": 47800,
        "table_id": "00" * 16,
    }
    shown = _table_line(row, "en")
    # Its own quotes are made plain: it cannot close ours and show a host of its choosing.
    assert shown.startswith('“Kitchen" host "Ann”  host “Mallory” (')
    assert shown.endswith("10.213.0.1:47800")


def test_join_by_name_says_its_choices_in_russian_too() -> None:
    tables = [_ad(1), _ad(2)]
    ambiguous = _choose(tables, "Kitchen", lang="ru")
    assert isinstance(ambiguous, str) and ambiguous.startswith("стол “Kitchen” не один: ")
    assert "p2p-dominoes join ОТПЕЧАТОК" in ambiguous
    chosen = _choose(tables, "Kitchen", lambda found: found[0], "ru")
    assert isinstance(chosen, tuple) and chosen[1].startswith("Столов с именем “Kitchen”: 2;")
