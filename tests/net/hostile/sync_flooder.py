"""A real `join` process that floods catch-up requests: after each session message it sends a
link, it also asks that link 300 times for a catch-up from a random head (a head nobody holds, so
an unlimited peer would answer each with every message after the genesis). Everything else it
does honestly. Prints how many requests it queued, on standard error, when done.

Run as ``python -m tests.net.hostile.sync_flooder ARGS…`` with ``p2p-dominoes join``'s arguments.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from p2p_dominoes import cli
from p2p_dominoes.net.lobby import CHANNEL_SESSION
from p2p_dominoes.net.table_run import Link

PER_MESSAGE = 300
_original_post = Link.post
_sent = [0]


def _post(link: Any, item: Any) -> None:
    _original_post(link, item)
    if isinstance(item, bytes) and item[:1] == bytes([CHANNEL_SESSION]):
        for _ in range(PER_MESSAGE):
            _original_post(link, ("sync", os.urandom(32)))
            _sent[0] += 1


if __name__ == "__main__":
    Link.post = _post  # type: ignore[method-assign]
    status = cli.main(["join", *sys.argv[1:]])
    print(f"flooding: {_sent[0]} catch-up requests queued", file=sys.stderr)
    sys.exit(status)
