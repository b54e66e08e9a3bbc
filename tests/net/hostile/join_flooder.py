"""A join-request flood: many source addresses ask a host for a seat, each under fresh keys.

Run as ``python -m tests.net.hostile.join_flooder HOST PORT MODE STATS SOURCE…``: one task per
SOURCE (a local address: 127.0.x.y, or an address of an IPv6 /64 added to the test namespace's
loopback) dials HOST:PORT from that address again and again, each time with a new identity
and the name "bob" (the honest joiner's name), and:

- MODE ``guess``: sends a `join` with no join code or a random wrong one (turn about), waits for
  the answer, and dials again at once;
- MODE ``push``: sends a `join` carrying the right code (read from the environment variable
  ``FLOOD_CODE``, hex: an insider), then pushes 60 KiB messages as fast as the host takes them
  until the host closes the connection, and dials again.

Every half second the counts (dials, refusal codes, closes, bytes pushed) go to the JSON file
STATS. Runs until killed.
"""

from __future__ import annotations

import contextvars
import json
import os
import secrets
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import trio

from p2p_dominoes.net import ConnectionClosed, HandshakeError, NetError, connect
from p2p_dominoes.net.lobby import Join, Refuse, decode_lobby, encode_lobby
from p2p_dominoes.session import Identity

_SOURCE: contextvars.ContextVar[str] = contextvars.ContextVar("source")
_PUSH: bytes = bytes([0x02]) + secrets.token_bytes(60 * 1024)


def _write_atomically(path: Path, text: str) -> None:
    partial = path.with_name(path.name + ".partial")
    partial.write_text(text)
    os.replace(partial, path)


async def _answer(host: Any) -> str:
    """The host's answer to our join: a refusal code, or "closed"."""
    while True:
        message = await host.receive()
        payload = getattr(message, "payload", b"")
        if payload[:1] == b"\x02":
            lobby = decode_lobby(payload[1:])
            if isinstance(lobby, Refuse):
                return lobby.code


async def _flood(host: str, port: int, source: str, mode: str, counts: Counter[str]) -> None:
    _SOURCE.set(source)
    code = bytes.fromhex(os.environ.get("FLOOD_CODE", "")) or None
    turn = 0
    while True:
        turn += 1
        if mode == "push":
            given = code
        else:
            given = None if turn % 2 else secrets.token_bytes(3)
            if given == code:
                continue
        join = Join("bob", 9, host, secrets.token_bytes(32), None, given)
        try:
            async with connect(host, port, Identity.generate(), expect=None) as link:
                counts["dials"] += 1
                await link.send(encode_lobby(join))
                if mode == "push":
                    while True:
                        await link.send(_PUSH)
                        counts["pushed_bytes"] += len(_PUSH)
                else:
                    counts[await _answer(link)] += 1
        except ConnectionClosed:
            counts["closed"] += 1
        except (HandshakeError, NetError, OSError):
            counts["dial_failed"] += 1
            await trio.sleep(0.05)


async def _report(stats: Path, counts: Counter[str]) -> None:
    while True:
        _write_atomically(stats, json.dumps(counts))
        await trio.sleep(0.5)


async def main(host: str, port: int, mode: str, stats: Path, sources: list[str]) -> None:
    open_tcp_stream = trio.open_tcp_stream

    async def from_source(*args: Any, **kwargs: Any) -> trio.SocketStream:
        return await open_tcp_stream(*args, local_address=_SOURCE.get(), **kwargs)

    trio.open_tcp_stream = from_source  # type: ignore[assignment]  # each task its own source
    counts: Counter[str] = Counter()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(_report, stats, counts)
        for source in sources:
            nursery.start_soon(_flood, host, port, source, mode, counts)


if __name__ == "__main__":
    trio.run(main, sys.argv[1], int(sys.argv[2]), sys.argv[3], Path(sys.argv[4]), sys.argv[5:])
