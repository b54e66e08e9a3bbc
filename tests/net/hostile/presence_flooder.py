"""A real `join` process whose presence messages (channel 0x03, PROTOCOL.md §14) are hostile:
when it first tells a link its page state, it sends that link every malformed kind there is,
then a flood of well-formed ones, then the real one. Everything else it does honestly.

Run as ``python -m tests.net.hostile.presence_flooder ARGS…`` with ``p2p-dominoes join``'s
arguments.
"""

from __future__ import annotations

import sys
from typing import Any

import msgpack  # type: ignore[import-untyped]

from p2p_dominoes import cli
from p2p_dominoes.net.page_presence import CHANNEL_PRESENCE, encode_presence
from p2p_dominoes.net.table_run import Link

FLOOD = 500
"""Well-formed presence messages sent at once to each link (the receiver takes a few)."""


def _packed(body: object) -> bytes:
    return bytes([CHANNEL_PRESENCE]) + msgpack.packb(body, use_bin_type=True)


MALFORMED = (
    bytes([CHANNEL_PRESENCE]),  # empty
    bytes([CHANNEL_PRESENCE]) + b"\xc1",  # a byte msgpack never uses
    bytes([CHANNEL_PRESENCE]) + b"\x92\xa4page",  # cut short
    bytes([CHANNEL_PRESENCE]) + b"\xff" * 4096,  # far too long
    bytes([CHANNEL_PRESENCE]) + b"\x91" * 15,  # nested arrays
    encode_presence("open") + b"\x00",  # a trailing byte
    _packed(["page", "gone"]),  # an unknown state
    _packed(["page", 1]),
    _packed(["page", "open", "extra"]),
    _packed(["seat", "open"]),
    _packed({"page": "open"}),
    _packed(["page", b"open"]),
    _packed("page"),
    bytes([0x07]) + b"an unknown channel",
)

_original_post = Link.post
_attacked: set[int] = set()


def _post(link: Any, item: Any) -> None:
    presence = isinstance(item, bytes) and item[:1] == bytes([CHANNEL_PRESENCE])
    if presence and id(link) not in _attacked:
        _attacked.add(id(link))
        for bad in MALFORMED:
            _original_post(link, bad)
        for n in range(FLOOD):
            _original_post(link, encode_presence("closed" if n % 2 else "open"))
        print(f"flooding: seat {link.seat} got the presence attack", file=sys.stderr)
    _original_post(link, item)


if __name__ == "__main__":
    Link.post = _post  # type: ignore[method-assign]
    sys.exit(cli.main(["join", *sys.argv[1:]]))
