"""A hostile mDNS responder for the hostile-LAN tests: spoofed names, probe conflicts, goodbyes,
tampered and replayed TXT records, and floods of fake tables.

Run only inside a network namespace made by a test (``tests/net/netns.py``): it refuses to
start in the machine's own network namespace, so its multicast never reaches a real network.
Packets are built with python-zeroconf's record classes and sent with a plain UDP socket bound
to port 5353 of the namespace's address. Prints one JSON line of counts when done (also on SIGTERM).

Modes (``--mode``, may be repeated; all run together for ``--duration`` seconds):

* ``names``: ads whose instance names are ours except for letter case, over 256 bytes long,
  with control characters, or whose type differs in case.
* ``probe``: answers every probe for an instance of our type with a conflicting PTR and SRV.
* ``goodbye``: learns the real tables' records from their announcements and answers, then
  sends TTL-0 goodbyes for them (PTR, SRV, TXT, A) every ``--period`` seconds.
* ``tamper``: re-sends a real table's TXT record, cache-flush, with a field changed (the
  signature kept), and an older real TXT record once a newer one was seen (a replay).
* ``flood``: ``--fakes`` fake tables: a third validly signed by fresh keys, a third unsigned,
  a third claiming the real host's fingerprint (learnt from its ad) with a wrong key.
* ``namesakes``: ``--fakes`` fake tables, every one validly signed by a fresh key for this
  address and named like the real table (learnt from its ad; "Kitchen" until then).
* ``spoof-address``: cache-flush records saying the real table is at this address: A records
  for the real host's server name (learnt from its SRV record), and SRV records with the real
  port naming a server of ours, so its signed address is contradicted; sent every period and
  right after every answer that carries an A record.
"""

from __future__ import annotations

import argparse
import json
import secrets
import signal
import socket
import sys
import time
from dataclasses import replace
from typing import Any

from zeroconf._dns import DNSAddress, DNSPointer, DNSQuestion, DNSService, DNSText
from zeroconf._protocol.incoming import DNSIncoming
from zeroconf._protocol.outgoing import DNSOutgoing
from zeroconf.const import (
    _CLASS_IN,
    _CLASS_UNIQUE,
    _FLAGS_AA,
    _FLAGS_QR_QUERY,
    _FLAGS_QR_RESPONSE,
    _TYPE_A,
    _TYPE_PTR,
    _TYPE_SRV,
    _TYPE_TXT,
)

from p2p_dominoes.net.ad_record import SERVICE_TYPE, SignedAd, TableInfo
from p2p_dominoes.session import Identity
from tests.net.netns import isolation_problem

GROUP = ("224.0.0.251", 5353)
_OWN_SERVERS = ("flood-", "namesake-", "prober-", "evil-", "spoofed-host")
TTL = 4500


def _socket(address: str) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM, socket.IPPROTO_UDP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind(("", 5353))
    membership = socket.inet_aton(GROUP[0]) + socket.inet_aton(address)
    sock.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP, membership)
    sock.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_IF, socket.inet_aton(address))
    sock.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_TTL, 255)
    sock.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_LOOP, 0)
    sock.setblocking(False)
    return sock


def _packet(records: list[Any], *, ttl_zero: bool = False) -> list[bytes]:
    out = DNSOutgoing(_FLAGS_QR_RESPONSE | _FLAGS_AA, multicast=True, id_=secrets.randbelow(65536))
    for record in records:
        out.add_answer_at_time(record, 0.0)
    return out.packets()


def _ad_records(
    name: str, port: int, txt: bytes, server: str, address: str, *, type_: str = SERVICE_TYPE
) -> list[Any]:
    return [
        DNSPointer(type_, _TYPE_PTR, _CLASS_IN, TTL, name),
        DNSService(name, _TYPE_SRV, _CLASS_IN | _CLASS_UNIQUE, 120, 0, 0, port, server),
        DNSText(name, _TYPE_TXT, _CLASS_IN | _CLASS_UNIQUE, TTL, txt),
        DNSAddress(server, _TYPE_A, _CLASS_IN | _CLASS_UNIQUE, 120, socket.inet_aton(address)),
    ]


def _txt_bytes(properties: dict[bytes, bytes]) -> bytes:
    entries = [k + b"=" + v for k, v in properties.items()]
    return b"".join(bytes((len(e),)) + e for e in entries)


def _parse_txt(text: bytes) -> dict[bytes, bytes]:
    found: dict[bytes, bytes] = {}
    pos = 0
    while pos < len(text):
        length = text[pos]
        key, _, value = text[pos + 1 : pos + 1 + length].partition(b"=")
        found.setdefault(key, value)
        pos += 1 + length
    return found


def _info(name: str, fingerprint: str, number: int) -> TableInfo:
    return TableInfo(
        table_id=secrets.token_bytes(16),
        table_name=name,
        player_name=f"mallory{number}",
        fingerprint=fingerprint,
        seats_taken=1,
        seats_total=4,
        rules="draw",
        phase="lobby",
    )


def _names_attack(address: str) -> list[bytes]:
    """Ads with names that are ours except for case, length or characters."""
    server = f"evil-{secrets.token_hex(3)}.local."
    txt = _txt_bytes({b"v": b"1"})
    bad_names = [
        "Evil._P2P-Dominoes._tcp.local.",
        "Evil._p2p-dominoes._TCP.local.",
        "Evil._p2p-dominoes._tcp.LOCAL.",
        ".".join(["x" * 60] * 5) + "._p2p-dominoes._tcp.local.",  # 330 bytes in 5 labels
        ".".join(["é" * 30] * 4) + "._P2P-dominoes._tcp.local.",
        "bell\x07\x1b]0;pwned\x07._p2p-dominoes._tcp.local.",
        "a.b._p2p-dominoes._tcp.local.",
        "._p2p-dominoes._tcp.local.",
    ]
    packets: list[bytes] = []
    for name in bad_names:
        packets += _packet(_ad_records(name, 9, txt, server, address))
    # The browser's type in another case, pointing at a name of ours in another case.
    packets += _packet(
        _ad_records(
            "Case._P2P-DOMINOES._tcp.local.",
            9,
            txt,
            server,
            address,
            type_="_P2P-DOMINOES._tcp.local.",
        )
    )
    return packets


def _flood(
    address: str, count: int, victim_fp: str | None, victim_txt: bytes | None
) -> list[bytes]:
    packets: list[bytes] = []
    server = f"flood-{secrets.token_hex(3)}.local."
    for number in range(count):
        kind = number % 3
        identity = Identity.generate()
        if kind == 0:  # a valid ad by a fresh key
            info = _info(f"Fake {number}", identity.public.fingerprint, number)
            label = _label(number, info)
            props = SignedAd.txt(
                identity, info, instance=label, port=40000, seq=1, addresses=[address]
            )
        elif kind == 1 or victim_fp is None:  # unsigned, old-style
            info = _info(f"Unsigned {number}", identity.public.fingerprint, number)
            label = _label(number, info)
            props = {k.encode(): v.encode() for k, v in info.to_txt().items()}
        else:  # claims the real host's fingerprint, signed by another key
            info = _info(f"Kitchen {number}", identity.public.fingerprint, number)
            if victim_txt is not None:
                tid = bytes.fromhex(_parse_txt(victim_txt)[b"tid"].decode())
                info = replace(info, table_id=tid)
            label = _label(number, replace(info, fingerprint=victim_fp))
            props = SignedAd.txt(
                identity, info, instance=label, port=40000, seq=1, addresses=[address]
            )
            props[b"fp"] = victim_fp.encode()
            if victim_txt is not None and number % 2 == 0:  # the victim's own pk and sig
                real = _parse_txt(victim_txt)
                props[b"pk"], props[b"sig"] = real[b"pk"], real[b"sig"]
        name = f"{label}.{SERVICE_TYPE}"
        packets += _packet(_ad_records(name, 40000, _txt_bytes(props), server, address))
    return packets


def _namesakes(address: str, count: int, name: str) -> list[bytes]:
    """``count`` validly signed tables called ``name``, each by a fresh key, all from here."""
    packets: list[bytes] = []
    server = f"namesake-{secrets.token_hex(3)}.local."
    for number in range(count):
        identity = Identity.generate()
        info = _info(name, identity.public.fingerprint, number)
        label = f"{name} [{info.short_fingerprint}/{info.table_id.hex()[:4]}]"
        props = SignedAd.txt(identity, info, instance=label, port=40000, seq=1, addresses=[address])
        full = f"{label}.{SERVICE_TYPE}"
        packets += _packet(_ad_records(full, 40000, _txt_bytes(props), server, address))
    return packets


def _label(number: int, info: TableInfo) -> str:
    """A fake's instance name, shaped like ours (``[short fp/table id]``)."""
    return f"fake {number} [{info.short_fingerprint}/{info.table_id.hex()[:4]}]"


class _Learnt:
    """What the attacker has overheard about the real tables."""

    def __init__(self) -> None:
        self.records: dict[tuple[str, int], Any] = {}
        self.txts: dict[str, list[bytes]] = {}
        self.fingerprint: str | None = None
        self.txt: bytes | None = None
        self.replays = 0

    def learn(self, msg: DNSIncoming) -> None:
        for record in msg.answers():
            name = record.name
            if isinstance(record, DNSPointer) and name.lower() == SERVICE_TYPE:
                self.records[(record.alias, _TYPE_PTR)] = record
            elif isinstance(record, DNSService) and name.endswith("." + SERVICE_TYPE):
                self.records[(name, _TYPE_SRV)] = record
            elif isinstance(record, DNSText) and name.endswith("." + SERVICE_TYPE):
                self.records[(name, _TYPE_TXT)] = record
                history = self.txts.setdefault(name, [])
                if record.text not in history:
                    history.append(record.text)
                props = _parse_txt(record.text)
                if b"fp" in props and b"sig" in props:
                    self.fingerprint = props[b"fp"].decode()
                    self.txt = record.text
            elif record.type == _TYPE_A:
                self.records[(name, _TYPE_A)] = record

    def table_name(self) -> str | None:
        """The real table's name, once its signed TXT record was overheard."""
        if self.txt is None:
            return None
        return _parse_txt(self.txt).get(b"table", b"").decode("utf-8", "replace") or None

    def spoofed_addresses(self, address: str) -> list[bytes]:
        """Cache-flush records saying the real tables are at ``address``: A records for their
        hosts' server names, and SRV records (same port, so the signature still verifies)
        naming a server of ours whose A record is ``address``."""
        ours = "spoofed-host.local."
        packed = socket.inet_aton(address)
        unique = _CLASS_IN | _CLASS_UNIQUE
        records: list[Any] = [DNSAddress(ours, _TYPE_A, unique, 120, packed)]
        for (name, type_), r in sorted(self.records.items(), key=lambda item: item[0]):
            if type_ != _TYPE_SRV or r.server.startswith(_OWN_SERVERS):
                continue
            records.append(DNSAddress(r.server, _TYPE_A, unique, 120, packed))
            records.append(DNSService(name, _TYPE_SRV, unique, 120, 0, 0, r.port, ours))
        return _packet(records) if len(records) > 1 else []

    def goodbyes(self) -> list[bytes]:
        records: list[Any] = []
        for (name, type_), r in self.records.items():
            if type_ == _TYPE_PTR:
                records.append(DNSPointer(SERVICE_TYPE, _TYPE_PTR, _CLASS_IN, 0, name))
            elif type_ == _TYPE_SRV:
                records.append(
                    DNSService(
                        name, _TYPE_SRV, _CLASS_IN, 0, r.priority, r.weight, r.port, r.server
                    )
                )
            elif type_ == _TYPE_TXT:
                records.append(DNSText(name, _TYPE_TXT, _CLASS_IN, 0, r.text))
            else:
                records.append(DNSAddress(name, _TYPE_A, _CLASS_IN, 0, r.address))
        return _packet(records) if records else []

    def tampered(self) -> list[bytes]:
        records: list[Any] = []
        for name, history in self.txts.items():
            props = _parse_txt(history[-1])
            if b"sig" not in props:
                continue
            props[b"seats"] = b"0/4"  # the signature no longer covers what is said
            props[b"phase"] = b"closed"
            records.append(
                DNSText(name, _TYPE_TXT, _CLASS_IN | _CLASS_UNIQUE, TTL, _txt_bytes(props))
            )
            if len(history) > 1:  # an older, validly signed record: a replay
                records.append(DNSText(name, _TYPE_TXT, _CLASS_IN | _CLASS_UNIQUE, TTL, history[0]))
                self.replays += 1
        return _packet(records) if records else []


def _is_probe_for_us(msg: DNSIncoming) -> list[str]:
    """The instance names a probe claims: PTR records of our type in its authority section."""
    if not msg.is_query() or not msg.num_authorities:
        return []
    return [
        r.alias
        for r in msg.answers()
        if isinstance(r, DNSPointer) and r.name.lower() == SERVICE_TYPE.lower()
    ]


def run(args: argparse.Namespace) -> dict[str, Any]:
    sock = _socket(args.address)
    learnt = _Learnt()
    counts: dict[str, Any] = {mode: 0 for mode in args.mode}
    counts["packets"] = 0
    deadline = time.monotonic() + args.duration
    next_burst = time.monotonic()
    flood: list[bytes] = []
    aimed = False
    namesakes: list[bytes] = []
    named_after: str | None = None
    server = f"prober-{secrets.token_hex(3)}.local."

    def send(packets: list[bytes]) -> None:
        for data in packets:
            try:
                sock.sendto(data, GROUP)
                counts["packets"] += 1
            except BlockingIOError:
                time.sleep(0.002)

    stopped: list[int] = []
    signal.signal(signal.SIGTERM, lambda number, frame: stopped.append(number))
    while time.monotonic() < deadline and not stopped:
        try:
            data, _ = sock.recvfrom(9000)
        except BlockingIOError:
            data = b""
        if data:
            msg = DNSIncoming(data)
            if msg.valid:
                if not msg.is_query():
                    learnt.learn(msg)
                    if "spoof-address" in args.mode and any(
                        r.type == _TYPE_A for r in msg.answers()
                    ):  # right behind the host's own A record: the last one received wins
                        packets = learnt.spoofed_addresses(args.address)
                        send(packets)
                        counts["spoof-address"] += bool(packets)
                elif "probe" in args.mode:
                    for name in _is_probe_for_us(msg):
                        records = [
                            DNSPointer(SERVICE_TYPE, _TYPE_PTR, _CLASS_IN, TTL, name),
                            DNSService(
                                name, _TYPE_SRV, _CLASS_IN | _CLASS_UNIQUE, 120, 0, 0, 9, server
                            ),
                        ]
                        send(_packet(records))
                        counts["probe"] += 1
            continue
        now = time.monotonic()
        if now >= next_burst:
            next_burst = now + args.period
            if {"goodbye", "tamper", "flood", "namesakes", "spoof-address"} & set(
                args.mode
            ):  # overhear the real tables
                query = DNSOutgoing(_FLAGS_QR_QUERY, multicast=True)
                query.add_question(DNSQuestion(SERVICE_TYPE, _TYPE_PTR, _CLASS_IN))
                send(query.packets())
            if "names" in args.mode:
                send(_names_attack(args.address))
                counts["names"] += 1
            if "goodbye" in args.mode:
                packets = learnt.goodbyes()
                send(packets)
                counts["goodbye"] += bool(packets)
            if "tamper" in args.mode:
                packets = learnt.tampered()
                send(packets)
                counts["tamper"] += bool(packets)
            if "flood" in args.mode:
                if not flood or (learnt.txt is not None and not aimed):
                    flood = _flood(args.address, args.fakes, learnt.fingerprint, learnt.txt)
                    aimed = learnt.txt is not None
                send(flood)
                counts["flood"] += 1
            if "spoof-address" in args.mode:
                packets = learnt.spoofed_addresses(args.address)
                send(packets)
                counts["spoof-address"] += bool(packets)
            if "namesakes" in args.mode:
                name = learnt.table_name()
                if not namesakes or (name is not None and name != named_after):
                    named_after = name
                    namesakes = _namesakes(args.address, args.fakes, name or "Kitchen")
                send(namesakes)
                counts["namesakes"] += 1
                counts["namesakes_named"] = named_after or ""
        time.sleep(0.005)
    counts["learnt_fingerprint"] = learnt.fingerprint is not None
    counts["replay"] = learnt.replays
    return counts


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--address", required=True, help="this namespace's IPv4 address")
    parser.add_argument(
        "--mode",
        action="append",
        required=True,
        choices=["names", "probe", "goodbye", "tamper", "flood", "namesakes", "spoof-address"],
    )
    parser.add_argument("--duration", type=float, default=30.0)
    parser.add_argument("--period", type=float, default=1.0)
    parser.add_argument("--fakes", type=int, default=300)
    args = parser.parse_args()
    problem = isolation_problem()
    if problem is not None:
        print(f"refusing to run outside a test namespace: {problem}", file=sys.stderr)
        return 3
    print(json.dumps(run(args)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
