"""Run inside a fresh ``unshare -n`` namespace: the wildcard, dual-stack listener on the default
port, reached over IPv4 and IPv6 loopback, with a second listener falling back to a free port.

(The wildcard bind is done here rather than in the test runner so that no test listens on the
machine's real interfaces.) Prints one JSON report.
"""

from __future__ import annotations

import json
import sys

import trio

from p2p_dominoes.net import DEFAULT_PORT, Connection, Data, connect, open_listener
from p2p_dominoes.session import Identity
from tests.net.netns import isolation_problem


async def main() -> dict[str, object]:
    server, client = Identity.generate(), Identity.generate()
    report: dict[str, object] = {}

    async def handler(conn: Connection) -> None:
        message = await conn.receive()
        assert isinstance(message, Data)
        await conn.send(message.payload + b" via " + conn.remote_address.encode())

    async with await open_listener() as listener, await open_listener() as second:
        report.update(
            port=listener.port,
            dual_stack=listener.dual_stack,
            host=listener.host,
            second_port=second.port,
        )
        async with trio.open_nursery() as nursery:
            await nursery.start(listener.serve, server, handler)
            for host in ("127.0.0.1", "::1"):
                async with connect(host, listener.port, client, expect=server.public) as conn:
                    await conn.send(host.encode())
                    reply = await conn.receive()
                    assert isinstance(reply, Data)
                    report[host] = reply.payload.decode()
            nursery.cancel_scope.cancel()
    report["default_port"] = DEFAULT_PORT
    return report


if __name__ == "__main__":
    problem = isolation_problem()
    if problem is not None:
        print(f"refusing: {problem}", file=sys.stderr)
        sys.exit(3)
    print(json.dumps(trio.run(main)))
