"""How strong a bot is: bot A against bot B over many hands, seats rotated, with 95 % intervals.

Strength is measured here, never asserted by tests. Bot A takes one seat and bot B every other;
each new match moves A one seat on, so every seat order is played about equally. With partners
(Kozel) A plays both seats of a pair and B the other pair, A's pair changing on each match. A
hand is won by the unit (seat or pair) that went out or won the block (a blocked hand with no
winner is won by nobody); a match by the unit the match outcome names. Decision times are those
of bot A only.
"""

from __future__ import annotations

import json
import math
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from p2p_dominoes.bots import Bot
from p2p_dominoes.engine import Action, Match, Rules, SeatView
from p2p_dominoes.simulation import play_hand

Z95 = 1.959963984540054
"""The standard normal quantile of a two-sided 95 % interval."""


def wilson_interval(successes: int, trials: int) -> tuple[float, float]:
    """The Wilson score 95 % interval of a proportion (sound near 0 and 1, unlike ±2σ)."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = Z95 * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class BotDuel:
    """What bot A did against bot B: hands and matches played and won, points, decision times."""

    bot: str
    against: str
    rules: str
    players: int
    seed: int
    hands: int = 0
    hands_won: int = 0
    matches: int = 0
    matches_won: int = 0
    points: int = 0
    hands_by_seat: list[int] = field(default_factory=list)
    decision_seconds: list[float] = field(default_factory=list)

    units: int = 0
    """Scoring units: the players, or 2 when A's pair plays B's pair."""

    @property
    def hand_win_rate(self) -> float:
        return self.hands_won / self.hands if self.hands else 0.0

    @property
    def match_win_rate(self) -> float:
        return self.matches_won / self.matches if self.matches else 0.0

    def ms_per_decision(self) -> tuple[float, float]:
        """Mean and 95th percentile of bot A's decision times, in milliseconds."""
        times = sorted(self.decision_seconds)
        if not times:
            return (0.0, 0.0)
        return (statistics.fmean(times) * 1000, times[int(0.95 * (len(times) - 1))] * 1000)

    def figures(self) -> dict[str, object]:
        """The promised JSON object (rates as fractions, times in milliseconds)."""
        mean_ms, p95_ms = self.ms_per_decision()
        return {
            "bot": self.bot,
            "against": self.against,
            "rules": self.rules,
            "players": self.players,
            "seed": self.seed,
            "hands": self.hands,
            "hands_won": self.hands_won,
            "hand_win_rate": round(self.hand_win_rate, 4),
            "hand_win_ci95": [round(x, 4) for x in wilson_interval(self.hands_won, self.hands)],
            "fair_share": round(1 / self.units, 4),
            "matches": self.matches,
            "matches_won": self.matches_won,
            "match_win_rate": round(self.match_win_rate, 4),
            "match_win_ci95": [
                round(x, 4) for x in wilson_interval(self.matches_won, self.matches)
            ],
            "points_per_hand": round(self.points / self.hands, 3) if self.hands else 0.0,
            "hands_by_seat": self.hands_by_seat,
            "decisions": len(self.decision_seconds),
            "ms_per_decision": {"mean": round(mean_ms, 4), "p95": round(p95_ms, 4)},
        }


def _timed(bot: Bot, into: list[float]) -> Bot:
    clock = time.perf_counter

    def decide(view: SeatView, rng: random.Random) -> Action:
        started = clock()
        action = bot(view, rng)
        into.append(clock() - started)
        return action

    return decide


def duel(
    rules: Rules,
    players: int,
    bot: tuple[str, Bot],
    against: tuple[str, Bot],
    hands: int,
    seed: int,
) -> BotDuel:
    """Play `hands` hands of `rules` (whole matches, then a last one cut short): A against B."""
    rules.check_players(players)
    result = BotDuel(bot[0], against[0], rules.name, players, seed, hands_by_seat=[0] * players)
    result.units = rules.units(players)
    timed = _timed(bot[1], result.decision_seconds)
    rng = random.Random(seed)
    seat_of_a = 0
    while result.hands < hands:
        # With partners A plays both seats of one pair (0 and 2, then 1 and 3), B the other.
        unit_of_a = rules.unit_of(seat_of_a)
        seats_of_a = [s for s in range(players) if rules.unit_of(s) == unit_of_a]
        bots = [timed if s in seats_of_a else against[1] for s in range(players)]
        bot_rngs = [random.Random(f"{seed}/{result.matches}/{s}") for s in range(players)]
        match = Match(rules, players)
        while not match.outcome.over and result.hands < hands:
            played = play_hand(match, rng, bots, bot_rngs)
            assert played.result is not None
            result.hands += 1
            for s in seats_of_a:
                result.hands_by_seat[s] += 1
            result.hands_won += played.result.winner == unit_of_a
            result.points += played.result.recorded[unit_of_a]
        if match.outcome.over:
            result.matches += 1
            result.matches_won += match.outcome.winner == unit_of_a
        seat_of_a = (seat_of_a + 1) % players
    return result


def run_bots_bench(
    rules: Rules,
    players: int,
    bot: tuple[str, Bot],
    against: tuple[str, Bot],
    hands: int,
    seed: int,
    as_json: bool = False,
    out: Callable[[str], None] = print,
) -> int:
    """Print the duel's figures (one JSON object with `as_json`)."""
    result = duel(rules, players, bot, against, hands, seed)
    if as_json:
        out(json.dumps(result.figures()))
        return 0
    low, high = wilson_interval(result.hands_won, result.hands)
    m_low, m_high = wilson_interval(result.matches_won, result.matches)
    mean_ms, p95_ms = result.ms_per_decision()
    seats = ", ".join(f"{n} in seat {s + 1}" for s, n in enumerate(result.hands_by_seat))
    if rules.pairs:
        out(
            f"bots: a pair of {bot[0]} against a pair of {against[0]}, {rules.name}, "
            f"{players} players, seed {seed} (A's pair changes on each match: {seats})"
        )
    else:
        out(
            f"bots: {bot[0]} against {players - 1} × {against[0]}, {rules.name}, "
            f"{players} players, seed {seed} (A's seat moves on each match: {seats})"
        )
    out(
        f"  hands won: {result.hands_won} of {result.hands} = {100 * result.hand_win_rate:.1f} % "
        f"(95 %: {100 * low:.1f}–{100 * high:.1f} %; fair share {100 / result.units:.0f} %)"
    )
    out(
        f"  matches won: {result.matches_won} of {result.matches} = "
        f"{100 * result.match_win_rate:.1f} % (95 %: {100 * m_low:.1f}–{100 * m_high:.1f} %)"
    )
    out(f"  points per hand: {result.points / result.hands:.2f}")
    out(
        f"  {bot[0]}'s time per decision: mean {mean_ms:.3f} ms, p95 {p95_ms:.3f} ms "
        f"({len(result.decision_seconds)} decisions)"
    )
    return 0
