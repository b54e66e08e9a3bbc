"""The hostile-LAN suite's figures: each attack tried, whether its victims survived, and the
measurements the issue asks for (peak memory under pressure, time to a seat under a slot attack),
printed once in pytest's summary (also without ``-s``, and gathered over pytest-xdist workers:
`tests/run_figures.py`) and written to
``test-artifacts/hostile-figures.json``.

Use the ``attacks`` fixture: ``attacks.tried("rst-flood", survived=True, detail="...")`` once per
attack a test mounts, and ``attacks.figure("peak_rss_mib", 61.2)`` for a measurement. A test
records an attack only after it has checked the outcome, so "survived" is what it asserted.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import pytest

ARTIFACTS = Path(__file__).resolve().parents[3] / "test-artifacts"
FIGURES_FILE = ARTIFACTS / "hostile-figures.json"


@dataclass
class Attacks:
    """What the hostile-LAN tests mounted and measured."""

    attacks: list[dict[str, Any]] = field(default_factory=list)
    figures: dict[str, Any] = field(default_factory=dict)

    def data(self) -> dict[str, Any]:
        """This process's part, as JSON-able data (`merged` adds parts up)."""
        return asdict(self)

    @classmethod
    def merged(cls, parts: list[dict[str, Any]]) -> Attacks:
        """One process's record (`asdict`) or several (pytest-xdist workers), together."""
        found = cls()
        for part in parts:
            found.attacks += part["attacks"]
            found.figures.update(part["figures"])
        return found

    def tried(self, name: str, *, survived: bool, detail: str = "") -> None:
        self.attacks.append({"attack": name, "survived": survived, "detail": detail})

    def figure(self, name: str, value: Any) -> None:
        self.figures[name] = value


ATTACKS_KEY = pytest.StashKey[Attacks]()
"""Where the `attacks` fixture keeps this process's record."""


def report(terminalreporter: Any, parts: list[dict[str, Any]]) -> None:
    """Print the run's attacks and figures in pytest's summary and write `FIGURES_FILE`."""
    found = Attacks.merged(parts)
    ARTIFACTS.mkdir(exist_ok=True)
    FIGURES_FILE.write_text(
        json.dumps({"attacks": found.attacks, "figures": found.figures}, indent=2) + "\n"
    )
    write = terminalreporter.write_line
    terminalreporter.section("hostile-LAN figures")
    survived = sum(1 for a in found.attacks if a["survived"])
    write(f"attacks survived: {survived} of {len(found.attacks)} tried")
    for attack in found.attacks:
        mark = "survived" if attack["survived"] else "FAILED"
        detail = f" — {attack['detail']}" if attack["detail"] else ""
        write(f"  {attack['attack']}: {mark}{detail}")
    for name, value in sorted(found.figures.items()):
        write(f"{name}: {value}")
