"""The session benchmark's code path on one small hand (coverage only: no timing assertions)."""

from __future__ import annotations

import json

import pytest

from p2p_dominoes.benchmarks import session
from p2p_dominoes.cli import main
from p2p_dominoes.session import PROTOCOL_VERSION


def test_meter_splits_nested_time_into_exclusive_parts() -> None:
    ticks = iter([0.0, 1.0, 3.0, 6.0])  # outer starts, inner starts, inner ends, outer ends
    meter = session.Meter(clock=lambda: next(ticks))
    meter.push()
    meter.push()
    meter.pop("inner")
    meter.pop("outer")
    assert meter.exclusive == {"inner": 2.0, "outer": 4.0}
    assert meter.inclusive == {"outer": 6.0}
    assert meter.calls == {"outer": 1}


def test_one_two_seat_hand_is_measured_in_every_phase() -> None:
    figures = session.measure(seats=2, hands=1)
    assert figures.clean and figures.hands == 1
    phases = figures.phases()
    assert set(phases) == {"setup", "turns", "end of hand", "total"}
    assert all(seconds > 0 for seconds in phases.values())
    assert figures.meter.exclusive[session.AUDIT] > 0  # the private hooks are still in place
    assert figures.meter.exclusive[session.MAKE + "shuffle"] > 0
    assert figures.counts["shuffle"] == 2


def test_the_cli_prints_json_with_the_promised_keys(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "session", "--players", "2", "--hands", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    entry = out["seats"]["2"]
    assert entry["hands"] == 1 and entry["clean"]
    assert set(entry["cpu_per_hand_s"]) == {"setup", "turns", "end of hand", "total"}
    assert "shuffle" in entry["per_type_cpu_per_hand_s"]
    assert entry["protocol_version"] == PROTOCOL_VERSION
    assert out["seats_v2"]["2"]["protocol_version"] == 2
    assert out["seats_v2"]["2"]["clean"] and out["seats_v2"]["2"]["hands"] == 1
    assert "goal" not in out  # the goal is stated for 4 seats only


def test_the_text_report_has_the_breakdowns(capsys: pytest.CaptureFixture[str]) -> None:
    assert session.run_session_bench([2], hands=1, as_json=False) == 0
    out = capsys.readouterr().out
    assert "Per message type" in out and "audit" in out
