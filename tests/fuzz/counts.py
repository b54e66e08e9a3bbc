"""Counting fuzz cases per target, for the summary line at the end of the run (conftest.py).

The issue asks how many fuzz cases a run makes; hypothesis only reports examples, and most
targets here run many cases per example (a fast mutation loop seeded by hypothesis), so each
test adds its own count and time here.
"""

from __future__ import annotations

import os
import time
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

CASES: defaultdict[str, int] = defaultdict(int)
SECONDS: defaultdict[str, float] = defaultdict(float)
DETAILS: defaultdict[str, int] = defaultdict(int)
"""Counts of interest that are not cases of their own (e.g. how many mutants still decoded)."""

SCALE = float(os.environ.get("P2PD_FUZZ_SCALE", "1"))
"""Multiplies every case budget: 0.1 for a quick local run, 10 for a nightly one."""


def scaled(cases: int) -> int:
    """``cases`` times ``P2PD_FUZZ_SCALE``, at least 1."""
    return max(1, round(cases * SCALE))


@contextmanager
def timed(target: str) -> Iterator[None]:
    """Add the time spent in the block to ``target``'s total."""
    start = time.perf_counter()
    try:
        yield
    finally:
        SECONDS[target] += time.perf_counter() - start


def gathered() -> dict[str, Any] | None:
    """This process's counts, for the summary (None: it ran no fuzz target)."""
    if not CASES:
        return None
    return {"cases": dict(CASES), "seconds": dict(SECONDS), "details": dict(DETAILS)}


def report(terminalreporter: Any, parts: list[dict[str, Any]]) -> None:
    """Print how many fuzz cases each target ran, and how long it took, added up over every
    process that ran some (pytest-xdist workers)."""
    cases: defaultdict[str, int] = defaultdict(int)
    seconds: defaultdict[str, float] = defaultdict(float)
    details: defaultdict[str, int] = defaultdict(int)
    for part in parts:
        for into, name in ((cases, "cases"), (seconds, "seconds"), (details, "details")):
            for key, value in part[name].items():
                into[key] += value
    terminalreporter.write_sep("-", "fuzz cases run")
    for target in sorted(cases):
        terminalreporter.write_line(
            f"{target:<34} {cases[target]:>9,} cases  {seconds[target]:7.1f} s"
        )
    total, spent = sum(cases.values()), sum(seconds.values())
    terminalreporter.write_line(f"{'total':<34} {total:>9,} cases  {spent:7.1f} s")
    for detail in sorted(details):
        terminalreporter.write_line(f"  {detail}: {details[detail]:,}")
