"""A test peer: advertise a table, find the others over mDNS, connect to each, report as JSON.

Run only inside a network namespace made by a test (``tests/net/netns.py``): it refuses to
start in the machine's own network namespace, so it can never send multicast on a real
interface. ``--spawn N`` starts N peers bound to 127.0.0.1 as child processes (used inside an
``unshare -n`` namespace) and prints their reports as one JSON list.

Each peer: listens (default port, or a free one), advertises ``seats 1/N``, waits until it has
resolved the N-1 other peers, dials each one pinned to its advertised fingerprint and swaps a
message, waits until each other peer has dialled it too, then updates its ad to ``N/N`` and
waits to see every other ad updated. It lingers a little so late peers can finish, then exits
0, or 1 on timeout (the report says what was missing).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import threading
import time
from typing import Any

import trio

from p2p_dominoes.net import (
    DEFAULT_PORT,
    Connection,
    TableAd,
    TableInfo,
    connect,
    open_discovery,
    open_listener,
)
from p2p_dominoes.session import Identity
from tests.net.netns import isolation_problem

TABLE_ID = bytes(range(16))


async def _peer(args: argparse.Namespace) -> dict[str, Any]:
    identity = Identity.from_private_bytes(bytes([args.seed]) * 32)
    me = identity.public.fingerprint
    report: dict[str, Any] = {
        "name": args.name,
        "fingerprint": me,
        "seen": [],
        "dialed": {},
        "inbound": [],
        "updated_seen": [],
        "ok": False,
    }
    inbound: set[str] = set()
    inbound_changed = trio.Event()
    others = args.peers - 1
    started = time.monotonic()

    async def handler(conn: Connection) -> None:
        nonlocal inbound_changed
        message = await conn.receive()
        await conn.send(args.name.encode() + b" got " + getattr(message, "payload", b""))
        inbound.add(conn.peer.fingerprint)
        inbound_changed.set()
        inbound_changed = trio.Event()
        async for _ in conn:
            pass

    interface = args.interface or None
    async with await open_listener(interface=interface, port=DEFAULT_PORT) as listener:
        report["port"] = listener.port
        async with trio.open_nursery() as nursery:
            await nursery.start(listener.serve, identity, handler)
            async with open_discovery(interface=interface) as disco:
                report["advertised_addresses"] = disco.advertised_addresses
                info = TableInfo(
                    table_id=TABLE_ID,
                    table_name="Test table",
                    player_name=args.name,
                    fingerprint=me,
                    seats_taken=1,
                    seats_total=args.peers,
                    rules="draw",
                    phase="lobby",
                )
                ad = await disco.advertise(info, listener.port, identity)
                report["instance"] = ad.instance
                with trio.move_on_after(args.timeout):

                    def others_seen() -> list[TableAd]:
                        return [t for t in disco.tables() if t.info.table_id == TABLE_ID]

                    while len({t.fingerprint for t in others_seen()}) < others:
                        await disco.wait_for_change()
                    report["seen"] = sorted({t.fingerprint for t in others_seen()})
                    report["resolved_at"] = round(time.monotonic() - started, 2)
                    report["ad_addresses"] = {
                        t.info.player_name: t.addresses for t in others_seen()
                    }
                    for t in others_seen():
                        async with connect(
                            list(t.addresses), t.port, identity, expect=t.fingerprint
                        ) as conn:
                            await conn.send(b"hello from " + args.name.encode())
                            reply = await conn.receive()
                            report["dialed"][t.info.player_name] = getattr(
                                reply, "payload", b""
                            ).decode()
                    while len(inbound) < others:
                        await inbound_changed.wait()
                    report["inbound"] = sorted(inbound)
                    await ad.update(seats_taken=args.peers)
                    while True:
                        full = {
                            t.fingerprint for t in others_seen() if t.info.seats_taken == args.peers
                        }
                        if len(full) >= others:
                            break
                        await disco.wait_for_change()
                    report["updated_seen"] = sorted(full)
                    report["threads_during"] = sorted(t.name for t in threading.enumerate())
                    report["ok"] = True
                    report["done_at"] = round(time.monotonic() - started, 2)
                    await trio.sleep(args.linger)
            report["threads_after"] = sorted(t.name for t in threading.enumerate())
            nursery.cancel_scope.cancel()
    return report


def _spawn(args: argparse.Namespace) -> int:
    """Start ``args.spawn`` peers bound to 127.0.0.1 and print their reports as a JSON list."""
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tests.net.discovery_peer",
                "--name",
                f"lo{i}",
                "--seed",
                str(i),
                "--peers",
                str(args.spawn),
                "--interface",
                "127.0.0.1",
                "--timeout",
                str(args.timeout),
            ],
            stdout=subprocess.PIPE,
            text=True,
        )
        for i in range(1, args.spawn + 1)
    ]
    reports = []
    for proc in procs:
        out, _ = proc.communicate(timeout=args.timeout + 30)
        reports.append({"rc": proc.returncode, "report": json.loads(out) if out else None})
    print(json.dumps(reports))
    return 0


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--name", default="peer")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--peers", type=int, default=3)
    parser.add_argument("--interface", default="")
    parser.add_argument("--timeout", type=float, default=20.0)
    parser.add_argument("--linger", type=float, default=2.0)
    parser.add_argument("--spawn", type=int, default=0)
    args = parser.parse_args()
    problem = isolation_problem()
    if problem is not None:
        print(f"refusing to run outside a test namespace: {problem}", file=sys.stderr)
        return 3
    if args.spawn:
        return _spawn(args)
    report = trio.run(_peer, args)
    print(json.dumps(report))
    return 0 if report["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
