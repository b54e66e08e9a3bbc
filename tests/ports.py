"""A port for a peer a test starts: free now, and outside the range the kernel hands out.

A port the kernel chose for a socket bound to port 0 and then closed is free, but the kernel may
hand the same number to the next process that binds port 0 (a peer's page server, say) before
the peer the test started listens on it: the test then dials the wrong server. A port below the
kernel's ephemeral range (`/proc/sys/net/ipv4/ip_local_port_range`) is never handed out that
way; one of those that binds now is what a test gives a peer with `--lan-port`."""

from __future__ import annotations

import random
import socket
from pathlib import Path

LOWEST = 20000
"""The bottom of the range tests pick from (well above the ports services use)."""
FIXED = range(47800, 48000)
"""Ports some tests give their peers by number (the browser tests, `play`'s default 47800)."""


def _ephemeral_low() -> int:
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768


def unallocated_port() -> int:
    """A port on 127.0.0.1 that binds now and that the kernel does not give to port-0 binds."""
    high = max(LOWEST + 1000, _ephemeral_low()) - 1
    picker = random.SystemRandom()
    for _ in range(200):
        port = picker.randint(LOWEST, high)
        if port in FIXED:
            continue
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError(f"no free port in {LOWEST}..{high}")
