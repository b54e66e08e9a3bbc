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
from p2p_dominoes.net import runtime

PER_MESSAGE = 300
_original_post = runtime._post
_sent = [0]


def _post(link: Any, item: Any) -> None:
    _original_post(link, item)
    if isinstance(item, bytes) and item[:1] == bytes([runtime.CHANNEL_SESSION]):
        for _ in range(PER_MESSAGE):
            _original_post(link, ("sync", os.urandom(32)))
            _sent[0] += 1


if __name__ == "__main__":
    runtime._post = _post  # type: ignore[assignment]
    status = cli.main(["join", *sys.argv[1:]])
    print(f"flooding: {_sent[0]} catch-up requests queued", file=sys.stderr)
    sys.exit(status)
