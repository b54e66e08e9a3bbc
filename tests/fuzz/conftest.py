"""Print how many fuzz cases each target ran, and how long it took, at the end of the run."""

from __future__ import annotations

import pytest

from tests.fuzz.counts import CASES, DETAILS, SECONDS


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if not CASES:
        return
    terminalreporter.write_sep("-", "fuzz cases run")
    for target in sorted(CASES):
        terminalreporter.write_line(
            f"{target:<34} {CASES[target]:>9,} cases  {SECONDS[target]:7.1f} s"
        )
    total, seconds = sum(CASES.values()), sum(SECONDS.values())
    terminalreporter.write_line(f"{'total':<34} {total:>9,} cases  {seconds:7.1f} s")
    for detail in sorted(DETAILS):
        terminalreporter.write_line(f"  {detail}: {DETAILS[detail]:,}")
