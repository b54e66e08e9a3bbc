"""A long-running browser for the hostile-LAN tests: what a lobby would list, second by second.

Runs ``open_discovery`` like the web lobby does and prints one JSON line per half second: the
tables listed (name, host, fingerprint, seats, phase) and the bytes of the table list a page
push would carry (``ui.web.lobby_rows.table_rows``). Run only inside a network namespace made
by a test (``tests/net/netns.py``); it refuses to start anywhere else.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import trio

from p2p_dominoes.net import open_discovery
from p2p_dominoes.ui.web.lobby_rows import table_rows
from tests.net.netns import isolation_problem


async def _watch(args: argparse.Namespace) -> None:
    started = time.monotonic()
    async with open_discovery(interface=args.interface) as disco:
        while time.monotonic() - started < args.duration:
            tables = disco.tables()
            rows = table_rows(tables)
            line = {
                "t": round(time.monotonic() - started, 2),
                "tables": [
                    [t.info.table_name, t.info.player_name, t.fingerprint, t.info.phase, t.seq]
                    for t in tables
                ],
                "kept": len(disco.tables(limit=None)),
                "doubtful": [t.fingerprint for t in tables if not t.confirmed],
                "push_bytes": len(json.dumps(rows, ensure_ascii=False).encode()),
            }
            print(json.dumps(line), flush=True)
            await trio.sleep(0.5)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--interface", required=True)
    parser.add_argument("--duration", type=float, default=30.0)
    args = parser.parse_args()
    problem = isolation_problem()
    if problem is not None:
        print(f"refusing to run outside a test namespace: {problem}", file=sys.stderr)
        return 3
    trio.run(_watch, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
