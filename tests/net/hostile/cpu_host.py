"""`p2p-dominoes host ARGS…` that prints the CPU seconds its process used (every thread) on
standard error when it ends: ``host cpu seconds: 1.23``. For the hostile-LAN figures."""

from __future__ import annotations

import sys
import time

from p2p_dominoes import cli

if __name__ == "__main__":
    try:
        status = cli.main(["host", *sys.argv[1:]])
    finally:
        print(f"host cpu seconds: {time.process_time():.3f}", file=sys.stderr, flush=True)
    sys.exit(status)
