#!/usr/bin/env python3
"""The test ladder: lint, then types, then the fast tier, then the rest; it stops at the first
step that fails, so a lint error shows in seconds rather than after the whole suite.

    python scripts/ladder.py          # every step (what CI runs)
    python scripts/ladder.py --fast   # lint, types and the fast tier only (about a minute)

The fast tier is the pure layers' tests (`pytest -m fast`; `tests/conftest.py` names its folders);
the rest runs in two pytest-xdist workers that take the slow tests first, one at a time. Each
step's time is printed as it ends; the exit status is the failing step's. Hypothesis runs with
the `gate` profile (`tests/conftest.py`): the same examples on every run, so the gate never fails
on an example nobody chose; a plain `pytest` explores new ones.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
PYTEST = [PYTHON, "-m", "pytest", "-n", "2", "--hypothesis-profile", "gate"]

STEPS: list[tuple[str, list[str]]] = [
    (
        "lint (ruff)",
        [PYTHON, "-m", "ruff", "check", "p2p_dominoes", "tests", "scripts", "setup.py"],
    ),
    ("types (mypy --strict)", [PYTHON, "-m", "mypy"]),
    ("the fast tier", [*PYTEST, "-q", "-m", "fast"]),
    ("the rest", [*PYTEST, "--maxschedchunk", "1", "-m", "not fast"]),
]
FAST_STEPS = 3


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fast", action="store_true", help="lint, types and the fast tier only")
    args = parser.parse_args()
    steps = STEPS[:FAST_STEPS] if args.fast else STEPS
    started = time.monotonic()
    for number, (name, argv) in enumerate(steps, 1):
        print(f"== ladder {number}/{len(steps)}: {name}", flush=True)
        begun = time.monotonic()
        status = subprocess.run(argv, cwd=ROOT, check=False).returncode
        took = time.monotonic() - begun
        if status != 0:
            print(f"== ladder: {name} failed (exit {status}) after {took:.0f} s", flush=True)
            return status
        print(f"== ladder: {name} passed in {took:.0f} s", flush=True)
    print(f"== ladder: all {len(steps)} steps passed in {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
