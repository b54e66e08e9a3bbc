"""Complete hands per second with random bots, against the PyPI package `dominoes` as baseline.

`dominoes` plays only the 4-player block game, so that is the game compared; `draw` and the
other presets are reported too. Both run in this process, in alternating slices of the same length.
"""

from __future__ import annotations

import json
import math
import platform
import random
import statistics
import time
from collections.abc import Callable
from typing import NamedTuple

from p2p_dominoes.benchmarks.bench_words import grouped
from p2p_dominoes.bots import random_bot
from p2p_dominoes.bots.search import play_greedy, play_random
from p2p_dominoes.engine import (
    BLOCK,
    DRAW_RULES,
    DRAW_UNTIL_PLAY,
    FIVES,
    HOUSE,
    PRESETS,
    THREES,
    THREES_LUCK,
    HandState,
    Match,
    Rules,
)
from p2p_dominoes.simulation import deal, simulate
from p2p_dominoes.words import line, plural


def _hands_per_second(play_one: Callable[[], int], seconds: float) -> float:
    """Run `play_one` (which plays some hands and returns how many) for about `seconds`."""
    hands = 0
    started = time.perf_counter()
    deadline = started + seconds
    while time.perf_counter() < deadline:
        hands += play_one()
    return hands / (time.perf_counter() - started)


def _ours(rules: Rules, players: int, seeds: list[int]) -> Callable[[], int]:
    def play() -> int:
        seeds[0] += 1
        report = simulate(
            rules, players, [random_bot] * players, ["random"] * players, seed=seeds[0], hands=200
        )
        return report.hands

    return play


def _play_outs(rules: Rules, players: int, seed: int, greedy: bool) -> Callable[[], int]:
    """Hands on the search's play-out path (`bots.search.play_random`, `play_greedy`), as a
    search uses it: a copy of a dealt `HandState` played out, with uniform random moves or
    every seat greedy (the deals are made beforehand: a search samples its positions once per
    decision)."""
    rng = random.Random(seed)
    starts: list[HandState] = []
    while len(starts) < 256:
        match = Match(rules, players)
        hands, boneyard = deal(rules, players, rng)
        state = match.start_hand(hands, boneyard, lottery=rng.getrandbits(64))
        if state is not None:
            starts.append(state)
    turn = [0]

    def play() -> int:
        turn[0] += 1
        state = starts[turn[0] % len(starts)].copy()
        if greedy:
            play_greedy(state)
            return 1
        play_random(state, rng)
        return 1

    return play


def _baseline() -> Callable[[], int] | None:
    try:
        import dominoes  # type: ignore[import-untyped]
        from dominoes import players as baseline_players
    except ImportError:
        return None

    def play() -> int:
        game = dominoes.Game.new()
        while game.result is None:
            baseline_players.random(game)
            game.make_move(*game.valid_moves[0])
        return 1

    return play


class Paired(NamedTuple):
    """Two players timed in short alternating slices: each one's hands per second over all its
    slices, and the ratio second / first of each round (a round is one slice of each)."""

    first: float
    second: float
    ratios: list[float]

    @property
    def ratio(self) -> float:
        """The median round's ratio: a slice the machine slowed (another job, a stolen CPU)
        moves one round, not the figure, as it would move a ratio of totals."""
        return statistics.median(self.ratios)

    @property
    def ratio_ci95(self) -> tuple[float, float]:
        """A distribution-free 95 % interval for the median ratio (binomial order statistics)."""
        ordered = sorted(self.ratios)
        n = len(ordered)
        # The k-th smallest and k-th largest, for the largest k with P(Bin(n, ½) < k) ≤ 2.5 %.
        k, below = 0, 0
        while k < n // 2 and 40 * (below + math.comb(n, k)) <= 2**n:
            below += math.comb(n, k)
            k += 1
        k = max(k, 1)
        return ordered[k - 1], ordered[n - k]


def _paired(
    first: Callable[[], int], second: Callable[[], int], seconds: float, rounds: int = 40
) -> Paired:
    """Hands per second of two players in `rounds` rounds of a slice each, the order swapped
    every round so a drift of the machine's speed favours neither."""
    totals = [[0, 0.0], [0, 0.0]]
    ratios = []
    for round_ in range(rounds):
        rates = [0.0, 0.0]
        for which in (0, 1) if round_ % 2 == 0 else (1, 0):
            play_one = (first, second)[which]
            started = time.perf_counter()
            deadline = started + seconds / rounds / 2
            hands = play_one()  # at least one call: a slice the machine stole is not empty
            while time.perf_counter() < deadline:
                hands += play_one()
            elapsed = time.perf_counter() - started
            rates[which] = hands / elapsed
            totals[which][0] += hands
            totals[which][1] += elapsed
        ratios.append(rates[1] / rates[0])
    return Paired(totals[0][0] / totals[0][1], totals[1][0] / totals[1][1], ratios)


def run_engine_bench(seconds: float = 3.0, as_json: bool = False, lang: str = "en") -> int:
    """Print complete hands per second for each preset and the ratio against `dominoes` (the
    text in `lang`; the JSON object is for machines and the same in every language)."""
    seeds = [0]
    figures: dict[str, object] = {"python": platform.python_version(), "seconds": seconds}
    baseline = _baseline()
    validated = play_outs = None
    if baseline is not None:
        validated = _paired(baseline, _ours(BLOCK, 4, seeds), seconds * 2)
        figures["dominoes_block_4p_hands_per_s"] = round(validated.first, 1)
        figures["ratio_block_4p_vs_dominoes"] = round(validated.ratio, 2)
        figures["ratio_block_4p_vs_dominoes_ci95"] = [round(r, 2) for r in validated.ratio_ci95]
        play_outs = _paired(baseline, _play_outs(BLOCK, 4, 1, False), seconds * 2)
        figures["ratio_playout_block_4p_vs_dominoes"] = round(play_outs.ratio, 2)
        figures["ratio_playout_block_4p_vs_dominoes_ci95"] = [
            round(r, 2) for r in play_outs.ratio_ci95
        ]
    for rules, players in ((BLOCK, 4), (DRAW_RULES, 2)):
        for greedy in (False, True):
            key = f"playout_{'greedy' if greedy else 'random'}_{rules.name}_{players}p_hands_per_s"
            play = _play_outs(rules, players, 2, greedy)
            figures[key] = round(_hands_per_second(play, seconds), 1)
    for rules in (BLOCK, DRAW_RULES, DRAW_UNTIL_PLAY, HOUSE, FIVES, THREES, THREES_LUCK):
        for players in rules.player_counts:
            key = f"{rules.name}_{players}p_hands_per_s"
            figures[key] = round(_hands_per_second(_ours(rules, players, seeds), seconds), 1)
    for rules in (PRESETS["cross"], PRESETS["telephone"], PRESETS["trains"]):
        # The table shapes (issue 16) run on the general path (`Board`), 4 players.
        key = f"{rules.name}_4p_hands_per_s"
        figures[key] = round(_hands_per_second(_ours(rules, 4, seeds), seconds), 1)
    if as_json:
        print(json.dumps(figures))
        return 0
    print(line("bench.engine.title", lang, seconds=f"{seconds:g}", python=figures["python"]))
    if baseline is None:
        print("  " + line("bench.engine.no_baseline", lang))
    else:
        rate = grouped(figures["dominoes_block_4p_hands_per_s"], lang)
        print("  " + line("bench.engine.baseline", lang, value=rate))
    for key, value in figures.items():
        if key.endswith("_hands_per_s") and not key.startswith(("dominoes", "playout")):
            rules_name, seats = key.removesuffix("_hands_per_s").split("_")
            players = int(seats.removesuffix("p"))
            name = plural("bench.engine.shape", players, lang, rules=rules_name)
            label = f"{name + ':':<32}"
            print("  " + line("bench.engine.ours", lang, label=label, value=grouped(value, lang)))
    if validated is not None and play_outs is not None:
        (low, high), (fast_low, fast_high) = validated.ratio_ci95, play_outs.ratio_ci95
        ratio = plural(
            "bench.engine.ratio",
            len(validated.ratios),
            lang,
            ratio=f"{validated.ratio:.2f}",
            low=f"{low:.2f}",
            high=f"{high:.2f}",
            fast=f"{play_outs.ratio:.2f}",
            fast_low=f"{fast_low:.2f}",
            fast_high=f"{fast_high:.2f}",
        )
        print("  " + ratio)
    for key, value in figures.items():
        if key.startswith("playout_"):
            policy, rules_name, seats = key.removeprefix("playout_").split("_")[:3]
            players = int(seats.removesuffix("p"))
            name = plural("bench.engine.playout_shape", players, lang, rules=rules_name, bot=policy)
            label = f"{name + ':':<34}"
            said = line("bench.engine.playout", lang, label=label, value=grouped(value, lang))
            print("  " + said)
    return 0
