"""Figures that suites gather over a run (chaos, hostile LAN, fuzz counts), printed once in
the run's summary: under pytest-xdist each worker hands its part to the controller, which adds
the parts up before printing (and writing the artifacts)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Final

import pytest

from tests.chaos import figures as chaos
from tests.fuzz import counts as fuzz
from tests.net.hostile import figures as hostile

Gathered = Callable[[pytest.Config], "dict[str, Any] | None"]
Report = Callable[[Any, "list[dict[str, Any]]"], None]


def _stashed(key: pytest.StashKey[Any]) -> Gathered:
    def gathered(config: pytest.Config) -> dict[str, Any] | None:
        found = config.stash.get(key, None)
        return None if found is None else found.data()

    return gathered


SUITES: Final[dict[str, tuple[Gathered, Report]]] = {
    "chaos": (_stashed(chaos.FIGURES_KEY), chaos.report),
    "hostile": (_stashed(hostile.ATTACKS_KEY), hostile.report),
    "fuzz": (lambda config: fuzz.gathered(), fuzz.report),
}
"""Each suite: this process's part (None: it gathered nothing), and how the parts print."""

_FROM_WORKERS = pytest.StashKey[dict[str, list[dict[str, Any]]]]()
_LOST = pytest.StashKey[int]()
_PREFIX: Final = "figures:"


def hand_to_controller(config: pytest.Config) -> None:
    """In a pytest-xdist worker: put this worker's parts where the controller reads them."""
    output = getattr(config, "workeroutput", None)
    if output is None:
        return
    for name, (gathered, _) in SUITES.items():
        part = gathered(config)
        if part is not None:
            output[_PREFIX + name] = json.dumps(part)


def take_from_worker(config: pytest.Config, output: dict[str, Any], crashed: bool) -> None:
    """In the controller: keep a finished worker's parts (a crashed worker's are lost)."""
    if crashed:
        config.stash[_LOST] = config.stash.get(_LOST, 0) + 1
    kept = config.stash.setdefault(_FROM_WORKERS, {})
    for key, value in output.items():
        if key.startswith(_PREFIX):
            kept.setdefault(key.removeprefix(_PREFIX), []).append(json.loads(value))


def print_figures(terminalreporter: Any, config: pytest.Config) -> None:
    """Print each suite's figures from every part (none in a worker: its controller prints)."""
    if hasattr(config, "workeroutput"):
        return
    kept = config.stash.get(_FROM_WORKERS, {})
    lost = config.stash.get(_LOST, 0)
    if lost:
        terminalreporter.write_line(
            f"figures incomplete: {lost} pytest-xdist worker(s) crashed and took theirs along"
        )
    for name, (gathered, report) in SUITES.items():
        part = gathered(config)
        parts = kept.get(name, []) + ([part] if part is not None else [])
        if parts:
            report(terminalreporter, parts)
