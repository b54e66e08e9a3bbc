"""The chaos suite's figures (kills survived, matches completed, messages lost, time back in
play), gathered across its tests (the `figures` fixture), printed once in pytest's summary (also
without ``-s``, and added up over pytest-xdist workers: `tests/run_figures.py`) and written to
``test-artifacts/chaos-figures.json``."""

from __future__ import annotations

import json
import statistics
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.chaos.peers import PHASES, Kill

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
FIGURES_FILE = ARTIFACTS / "chaos-figures.json"


@dataclass
class Figures:
    """What the chaos tests saw, for the closing note."""

    kills: list[dict[str, Any]] = field(default_factory=list)
    matches_started: int = 0
    matches_completed: int = 0
    messages_checked: int = 0
    messages_lost: int = 0
    outages: list[dict[str, Any]] = field(default_factory=list)
    stalls: list[dict[str, Any]] = field(default_factory=list)
    whole_tables: list[dict[str, Any]] = field(default_factory=list)
    """Tables stopped whole (host and bots, or a `play` peer) and resumed (test_whole_tables)."""
    setup_losses: list[dict[str, Any]] = field(default_factory=list)
    """Seats lost while the genesis was signed, and what became of the table (test_setup_lost)."""

    def data(self) -> dict[str, Any]:
        """This process's part, as JSON-able data (`merged` adds parts up)."""
        return asdict(self)

    @classmethod
    def merged(cls, parts: list[dict[str, Any]]) -> Figures:
        """One process's figures (`asdict`) or several (pytest-xdist workers), added up."""
        found = cls()
        for part in parts:
            for name, value in part.items():
                setattr(found, name, getattr(found, name) + value)
        return found

    def add_kills(self, match: str, kills: list[Kill]) -> None:
        self.kills += [{"match": match, **asdict(kill)} for kill in kills]

    def summary(self) -> dict[str, Any]:
        back = sorted(k["back_in_play_s"] for k in self.kills if k["back_in_play_s"] is not None)
        line = sorted(k["resuming_line_s"] for k in self.kills if k["resuming_line_s"] is not None)
        return {
            "kills": len(self.kills),
            "kills_resumed": sum(1 for k in self.kills if k["resumed"]),
            "kills_survived": sum(1 for k in self.kills if k["survived"]),
            "kills_after_its_log_said_over": sum(1 for k in self.kills if k["finished_at_kill"]),
            "kills_whose_last_message_had_reached_no_one": sum(
                1 for k in self.kills if k["last_reached"] == 0
            ),
            "kills_of_two_at_once": sum(1 for k in self.kills if k["together"] == 2),
            "kills_by_phase": dict(Counter(k["phase"] for k in self.kills)),
            "kills_by_last_message": dict(Counter(k["last_type"] for k in self.kills)),
            "kills_of_the_host": sum(1 for k in self.kills if k["seat"] == 0),
            "matches_started": self.matches_started,
            "matches_completed": self.matches_completed,
            "messages_checked": self.messages_checked,
            "messages_lost": self.messages_lost,
            "back_in_play_s": _spread(back),
            "resuming_line_s": _spread(line),
            "link_outages": self.outages,
            "stalls": self.stalls,
            "whole_tables": self.whole_tables,
            "setup_losses": self.setup_losses,
        }


def _spread(values: list[float]) -> dict[str, float] | None:
    if not values:
        return None
    return {
        "n": len(values),
        "min": round(values[0], 3),
        "median": round(statistics.median(values), 3),
        "p90": round(values[min(len(values) - 1, int(0.9 * len(values)))], 3),
        "max": round(values[-1], 3),
    }


FIGURES_KEY = pytest.StashKey[Figures]()
"""Where the `figures` fixture keeps this process's figures."""


def report(terminalreporter: Any, parts: list[dict[str, Any]]) -> None:
    """Print the run's chaos figures (from every process that gathered some) in pytest's
    summary and write them to `FIGURES_FILE`."""
    found = Figures.merged(parts)
    ARTIFACTS.mkdir(exist_ok=True)
    data = {"summary": found.summary(), "kills": found.kills}
    FIGURES_FILE.write_text(json.dumps(data, indent=2) + "\n")
    summary = found.summary()
    write = terminalreporter.write_line
    terminalreporter.section("chaos figures")
    write(
        f"kills survived: {summary['kills_survived']} of {summary['kills_resumed']} resumed "
        f"({summary['kills']} kills: {summary['kills_of_two_at_once']} in pairs killed at once, "
        f"{summary['kills_of_the_host']} of the host, "
        f"{summary['kills_after_its_log_said_over']} after the peer's log said 'over'; "
        f"{summary['kills_whose_last_message_had_reached_no_one']} before its last message "
        "had reached anyone)"
    )
    write(f"matches completed: {summary['matches_completed']} of {summary['matches_started']}")
    write(
        f"messages lost: {summary['messages_lost']} "
        f"(of {summary['messages_checked']} logged messages checked against the final records)"
    )
    by_phase = summary["kills_by_phase"]
    write("kills by phase: " + ", ".join(f"{p} {by_phase.get(p, 0)}" for p in PHASES))
    write(
        "kills by last logged message: "
        + ", ".join(f"{t} {n}" for t, n in sorted(summary["kills_by_last_message"].items()))
    )
    for label, key in (("back in play", "back_in_play_s"), ("'Resuming' line", "resuming_line_s")):
        spread = summary[key]
        if spread:
            write(
                f"restart → {label}: median {spread['median']} s, p90 {spread['p90']} s, "
                f"max {spread['max']} s (n={spread['n']})"
            )
    for outage in summary["link_outages"]:
        write(f"link outage: {outage}")
    for stall in summary["stalls"]:
        write(f"stall: {stall}")
    for loss in summary["setup_losses"]:
        write(f"lost during the setup: {loss}")
    for whole in summary["whole_tables"]:
        write(
            f"whole table {whole['table']}: stopped by {', '.join(whole['stops']) or 'nothing'}; "
            f"back in play after {', '.join(f'{b} s' for b in whole['back_in_play_s'])} "
            f"(restart to a new message); finished, {whole['records_verified']} records "
            f"verified clean ({whole['seconds']} s)"
        )
    write(f"written to {FIGURES_FILE}")
