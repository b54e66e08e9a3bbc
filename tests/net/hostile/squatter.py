"""A seat squatter: many fresh keys from one source address ask a host for a seat, again and again.

Run as ``python -m tests.net.hostile.squatter PORT SOURCE KEYS STATS``: KEYS tasks each dial the
host on 127.0.0.1 from the local address SOURCE (another loopback address, so that each squatter
process is its own source), complete the handshake with a new identity, send a `join` and hold
the connection until refused; then do it again with another new key. After each answer the
counts of refusal codes go to the JSON file STATS. Runs until killed.
"""

from __future__ import annotations

import functools
import json
import os
import secrets
import sys
from collections import Counter
from pathlib import Path

import trio

from p2p_dominoes.net import ConnectionClosed, HandshakeError, NetError, connect
from p2p_dominoes.net.lobby import Join, Refuse, decode_lobby, encode_lobby
from p2p_dominoes.session import Identity


def _write_atomically(path: Path, text: str) -> None:
    # The test kills this process at any moment: a plain write_text could leave an empty file.
    partial = path.with_name(path.name + ".partial")
    partial.write_text(text)
    os.replace(partial, path)


async def _squat(port: int, name: str, counts: Counter[str], stats: Path) -> None:
    while True:
        try:
            async with connect("127.0.0.1", port, Identity.generate(), expect=None) as host:
                counts["asked"] += 1
                await host.send(encode_lobby(Join(name, 9, "127.0.0.1", secrets.token_bytes(32))))
                while True:
                    message = await host.receive()
                    payload = getattr(message, "payload", b"")
                    if payload[:1] == b"\x02":
                        lobby = decode_lobby(payload[1:])
                        if isinstance(lobby, Refuse):
                            counts[lobby.code] += 1
                            break
        except (ConnectionClosed, HandshakeError, NetError, OSError):
            counts["dropped"] += 1
        _write_atomically(stats, json.dumps(counts))
        await trio.sleep(0.3)


async def main(port: int, source: str, keys: int, stats: Path) -> None:
    # Every connection of this process comes from `source`.
    open_tcp_stream = trio.open_tcp_stream
    trio.open_tcp_stream = functools.partial(open_tcp_stream, local_address=source)
    counts: Counter[str] = Counter()
    async with trio.open_nursery() as nursery:
        for n in range(keys):
            nursery.start_soon(_squat, port, f"squat-{source}-{n}", counts, stats)


if __name__ == "__main__":
    trio.run(main, int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), Path(sys.argv[4]))
