"""The LAN benchmark's code path: its arithmetic on made-up timings, then one real short run.

No timing is asserted: the run only has to produce every figure (the goals are reported).
"""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from p2p_dominoes.benchmarks import lan
from p2p_dominoes.cli import main

MS = 1_000_000


def _line(event: str, t_ms: float, **fields: Any) -> dict[str, Any]:
    return {"event": event, "t": int(t_ms * MS), **fields}


def test_latency_is_from_the_choice_to_the_last_peer_applying_it() -> None:
    host = [
        _line("main", 100),
        _line("seated", 900),
        _line("hand-start", 1000, hand=1),
        _line("tiles", 1500, hand=1),
        _line("acted", 2000, i=10, seat=0),
        _line("applied", 2001, i=10, type="play", seat=0),
        _line("applied", 2100, i=11, type="pass", seat=1),
        _line("hand-end", 3000, hand=1),
    ]
    bot = [
        _line("main", 600),
        _line("seated", 950),
        _line("hand-start", 1010, hand=1),
        _line("tiles", 1400, hand=1),
        _line("applied", 2004, i=10, type="play", seat=0),
        _line("acted", 2090, i=11, seat=1),
        _line("applied", 2091, i=11, type="pass", seat=1),
        _line("hand-end", 3020, hand=1),
    ]
    figures = lan.analyse({"host": host, "bot-1": bot}, launched_ns=0, players=2, hands=1)
    assert figures.ok
    assert figures.action_ms == pytest.approx([4.0, 10.0])
    assert figures.action_types == {"play": 1, "pass": 1}
    assert figures.hand_s == pytest.approx([2.02])
    assert figures.hand_setup_s == pytest.approx([0.5])
    assert figures.steps_s["last bot process ready"] == pytest.approx(0.6)
    assert figures.first_tiles_s == pytest.approx(1.4)
    assert figures.steps_s["every peer holds tiles"] == pytest.approx(1.5)
    assert lan.percentile([4.0, 10.0], 50) == 4.0 and lan.percentile([4.0, 10.0], 95) == 10.0
    assert math.isnan(lan.percentile([], 50))


def test_every_kind_of_action_message_counts_a_play3_as_a_play() -> None:
    """Since protocol v3 a play is a `play3` message: it counts as a play, and a message that
    is no action (a draw's share) is not counted."""
    kinds = ["play3", "draw", "draw_share", "skip", "play"]
    timings = {
        name: [_line("applied", 10 * i + 1, i=i, type=kind, seat=0) for i, kind in enumerate(kinds)]
        for name in ("host", "bot-1")
    }
    timings["host"] += [_line("acted", 10 * i, i=i, seat=0) for i in range(len(kinds))]
    figures = lan.analyse(timings, launched_ns=0, players=2, hands=1)
    assert figures.ok
    assert figures.action_types == {"play": 2, "draw": 1, "skip": 1}
    assert len(figures.action_ms) == 4


def test_a_short_real_run_prints_every_figure(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "lan", "--players", "2", "--hands", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["ok"] and out["players"] == 2 and out["actions"] > 0
    assert out["action_types"]["play"] > 0  # every hand has plays (v3's `play3` among them)
    assert set(out["action_latency_ms"]) == {"p50", "p95", "max"}
    assert len(out["hand_wall_s"]) == 1
    assert {"host process ready", "every peer seated", "first peer holds tiles"} <= set(
        out["start_s"]
    )
    assert set(out["goals"]) >= {"p50_met", "first_tiles_met"}
