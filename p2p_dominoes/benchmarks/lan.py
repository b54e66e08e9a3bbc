"""`p2p-dominoes bench lan`: latency of play over real TCP on 127.0.0.1, one process per peer.

It runs `p2p-dominoes demo --players N --hands H --timing FILE` (the host and its N−1 bot peers
are separate OS processes that talk over loopback TCP, with a record, as a user's demo does) and
reads every peer's timing file (`net/timing.py`: JSON lines stamped with `time.monotonic_ns()`,
which is one clock for all processes on a Linux machine). Figures:

- **action latency**: for every play, draw and pass, from the moment the acting peer's player
  chose it to the moment the *last* peer had it in its transcript (p50, p95, max);
- **hand wall time**: from the first peer starting a hand to the last peer ending it (the audit
  included), per hand, and the setup part of it (start of the hand to every peer holding tiles);
- **start to first tiles**: from launching `demo` to the first peer (and to every peer) holding
  its tiles of hand 1, with the steps on the way (host process ready, bots ready, everyone
  seated).

The goals (the issue): p50 action latency under 10 ms; start to first tiles under 3 s. Timings
are printed, never asserted.
"""

from __future__ import annotations

import json
import math
import platform
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from p2p_dominoes.net.timing import read_timing
from p2p_dominoes.words import line, plural

GOAL_P50_MS: Final = 10.0
GOAL_FIRST_TILES_S: Final = 3.0
ACTIONS: Final = {"play": "play", "play3": "play", "draw": "draw", "pass": "pass", "skip": "skip"}
"""The messages that carry a seat's action, by type name, and the kind each counts as (a play
is `play3` since protocol v3, `play` before)."""


@dataclass
class LanFigures:
    """What one benchmark run measured (milliseconds unless the name says seconds)."""

    players: int
    hands: int
    ok: bool
    action_ms: list[float] = field(default_factory=list)
    action_types: dict[str, int] = field(default_factory=dict)
    hand_s: list[float] = field(default_factory=list)
    hand_setup_s: list[float] = field(default_factory=list)
    steps_s: dict[str, float] = field(default_factory=dict)
    """From launching `demo` to: host main, host listening, last bot main, all seated, tiles."""
    demo_s: float = 0.0

    def percentile(self, q: float) -> float:
        return percentile(self.action_ms, q)

    @property
    def first_tiles_s(self) -> float:
        return self.steps_s.get("first peer holds tiles", float("nan"))

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "hands": self.hands,
            "ok": self.ok,
            "actions": len(self.action_ms),
            "action_types": self.action_types,
            "action_latency_ms": {
                "p50": round(self.percentile(50), 3),
                "p95": round(self.percentile(95), 3),
                "max": round(max(self.action_ms, default=float("nan")), 3),
            },
            "hand_wall_s": [round(h, 3) for h in self.hand_s],
            "hand_setup_s": [round(h, 3) for h in self.hand_setup_s],
            "start_s": {k: round(v, 3) for k, v in self.steps_s.items()},
            "demo_total_s": round(self.demo_s, 3),
            "goals": {
                "p50_under_ms": GOAL_P50_MS,
                "p50_met": self.percentile(50) < GOAL_P50_MS,
                "first_tiles_under_s": GOAL_FIRST_TILES_S,
                "first_tiles_met": self.first_tiles_s < GOAL_FIRST_TILES_S,
            },
        }


def percentile(values: list[float], q: float) -> float:
    """The `q`-th percentile (nearest rank) of `values`; NaN when there are none."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(1, min(len(ordered), math.ceil(q / 100 * len(ordered))))
    return ordered[rank - 1]


def analyse(
    timings: dict[str, list[dict[str, Any]]], launched_ns: int, players: int, hands: int
) -> LanFigures:
    """Figures from every peer's timing lines (`timings[name]`), `launched_ns` = demo launch."""
    figures = LanFigures(players, hands, ok=len(timings) == players)
    acted: dict[int, int] = {}
    applied: dict[int, dict[str, int]] = defaultdict(dict)
    types: dict[int, str] = {}
    starts: dict[int, list[int]] = defaultdict(list)
    ends: dict[int, list[int]] = defaultdict(list)
    tiles: dict[int, list[int]] = defaultdict(list)
    firsts: dict[str, dict[str, int]] = defaultdict(dict)
    for name, lines in timings.items():
        for record in lines:
            event, t = record["event"], int(record["t"])
            firsts[name].setdefault(event, t)
            if event == "acted":
                acted[int(record["i"])] = t
            elif event == "applied":
                applied[int(record["i"])][name] = t
                types[int(record["i"])] = str(record["type"])
            elif event == "hand-start":
                starts[int(record["hand"])].append(t)
            elif event == "hand-end":
                ends[int(record["hand"])].append(t)
            elif event == "tiles":
                tiles[int(record["hand"])].append(t)
    counts: dict[str, int] = defaultdict(int)
    for index, t0 in sorted(acted.items()):
        seen = applied.get(index, {})
        kind = ACTIONS.get(types.get(index, ""))
        if kind is not None and len(seen) == len(timings):
            figures.action_ms.append((max(seen.values()) - t0) / 1e6)
            counts[kind] += 1
        elif kind is not None:
            figures.ok = False  # a peer never applied an action
    figures.action_types = dict(counts)
    for number in sorted(starts):
        if len(ends.get(number, ())) == len(timings):
            figures.hand_s.append((max(ends[number]) - min(starts[number])) / 1e9)
        if len(tiles.get(number, ())) == len(timings):
            figures.hand_setup_s.append((max(tiles[number]) - min(starts[number])) / 1e9)

    def since(t: int) -> float:
        return (t - launched_ns) / 1e9

    host = firsts.get("host", {})
    bots = [f for n, f in firsts.items() if n != "host"]
    steps: dict[str, float] = {}
    for label, event in (("host process ready", "main"), ("host listening", "listening")):
        if event in host:
            steps[label] = since(host[event])
    if bots and all("main" in b for b in bots):
        steps["last bot process ready"] = since(max(b["main"] for b in bots))
    if all("seated" in f for f in firsts.values()):
        steps["every peer seated"] = since(max(f["seated"] for f in firsts.values()))
    first_hand = tiles.get(min(tiles, default=1), [])
    if first_hand:
        steps["first peer holds tiles"] = since(min(first_hand))
        if len(first_hand) == len(timings):
            steps["every peer holds tiles"] = since(max(first_hand))
    figures.steps_s = steps
    return figures


def measure(players: int, hands: int) -> LanFigures:
    """Run the demo with timing files in a temporary directory, and analyse them."""
    with tempfile.TemporaryDirectory(prefix="p2p-dominoes-bench-lan-") as tmp:
        directory = Path(tmp)
        timing = directory / "peer.jsonl"
        command = [
            sys.executable,
            "-m",
            "p2p_dominoes",
            "demo",
            "--players",
            str(players),
            "--hands",
            str(hands),
            "--record",
            str(directory / "demo.p2pd"),
            "--timing",
            str(timing),
        ]
        launched = time.monotonic_ns()
        result = subprocess.run(  # noqa: S603 - our own interpreter and module
            command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False
        )
        elapsed = (time.monotonic_ns() - launched) / 1e9
        timings = {"host": read_timing(timing)} if timing.exists() else {}
        for path in sorted(directory.glob("peer.jsonl.*")):
            timings[path.name.removeprefix("peer.jsonl.")] = read_timing(path)
    figures = analyse(timings, launched, players, hands)
    figures.demo_s = elapsed
    if result.returncode != 0:
        figures.ok = False
        sys.stderr.write(result.stderr.decode("utf-8", "replace"))
    return figures


STEP_WORDS: Final = {
    "host process ready": "bench.lan.step.host_ready",
    "host listening": "bench.lan.step.host_listening",
    "last bot process ready": "bench.lan.step.bots_ready",
    "every peer seated": "bench.lan.step.seated",
    "first peer holds tiles": "bench.lan.step.first_tiles",
    "every peer holds tiles": "bench.lan.step.every_tiles",
}
"""The words of each step from the launch the text shows (the JSON keeps the names above)."""


def _print_text(f: LanFigures, lang: str = "en") -> None:
    print(
        line(
            "bench.lan.title",
            lang,
            players=f.players,
            hands=f.hands,
            python=platform.python_version(),
        )
    )
    kinds = ", ".join(f"{n} {k}" for k, n in sorted(f.action_types.items()))
    print("\n" + plural("bench.lan.actions", len(f.action_ms), lang, kinds=kinds))
    latency = line(
        "bench.lan.latency",
        lang,
        p50=f"{f.percentile(50):.2f}",
        p95=f"{f.percentile(95):.2f}",
        max=f"{max(f.action_ms, default=float('nan')):.2f}",
    )
    print(f"  {latency}")
    print("\n" + plural("bench.lan.whole_hand", f.players, lang))
    for number, (wall, setup) in enumerate(zip(f.hand_s, f.hand_setup_s, strict=False), 1):
        hand = line("bench.lan.hand", lang, n=number, wall=f"{wall:.3f}", setup=f"{setup:.3f}")
        print(f"  {hand}")
    print("\n" + line("bench.lan.from_launch", lang, players=f.players))
    seconds = line("bench.seconds", lang)
    for label, took in f.steps_s.items():
        print(f"  {line(STEP_WORDS[label], lang):<26}{took:7.3f} {seconds}")
    print(f"  {line('bench.lan.step.demo_done', lang):<26}{f.demo_s:7.3f} {seconds}")
    p50 = f.percentile(50)
    goals = line(
        "bench.lan.goals",
        lang,
        goal_p50=f"{GOAL_P50_MS:g}",
        p50=f"{p50:.2f}",
        p50_verdict=line("bench.met" if p50 < GOAL_P50_MS else "bench.not_met", lang),
        goal_tiles=f"{GOAL_FIRST_TILES_S:g}",
        tiles=f"{f.first_tiles_s:.3f}",
        tiles_verdict=line(
            "bench.met" if f.first_tiles_s < GOAL_FIRST_TILES_S else "bench.not_met", lang
        ),
    )
    print("\n" + goals)
    if not f.ok:
        print(line("bench.lan.not_clean", lang))


def run_lan_bench(players: int, hands: int, as_json: bool, lang: str = "en") -> int:
    """Entry point of `p2p-dominoes bench lan`; returns the exit status (1 if not clean)."""
    figures = measure(players, hands)
    if as_json:
        out = {"python": platform.python_version(), **figures.to_dict()}
        print(json.dumps(out, indent=2))
    else:
        _print_text(figures, lang)
    return 0 if figures.ok else 1
