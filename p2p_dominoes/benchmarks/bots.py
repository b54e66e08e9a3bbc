"""How strong a bot is: bot A against bot B over many hands, seats rotated, with 95 % intervals.

Strength is measured here, never asserted by tests. Bot A takes one seat and bot B every other;
each new match moves A one seat on, so every seat order is played about equally. With partners
(Kozel) A plays both seats of a pair and B the other pair, A's pair changing on each match. A
hand is won by the unit (seat or pair) that went out or won the block (a blocked hand with no
winner is won by nobody: a tie); a match by the unit the match outcome names. Both sides'
decisions are timed, every call of the bot (forced passes and single plays included), so the
two means compare like with like: in the calling thread's CPU time (`time.thread_time`), which
other processes on a loaded machine do not add to, and beside it in wall-clock time (what a
seconds cap reads). `--matches` plays whole matches only (none cut short by the hand count).
"""

from __future__ import annotations

import json
import math
import random
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from p2p_dominoes.bots import Bot
from p2p_dominoes.engine import Action, Match, Rules, SeatView
from p2p_dominoes.simulation import HandObserver, play_hand
from p2p_dominoes.words import line, plural

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


def decision_ms(seconds: Sequence[float]) -> dict[str, float]:
    """Mean, 95th percentile and slowest of some decision times, in milliseconds (0 if none)."""
    times = sorted(seconds)
    if not times:
        return {"mean": 0.0, "p95": 0.0, "max": 0.0}
    return {
        "mean": statistics.fmean(times) * 1000,
        "p95": times[int(0.95 * (len(times) - 1))] * 1000,
        "max": times[-1] * 1000,
    }


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
    ties: int = 0
    """Hands won by nobody (a blocked hand with no single lowest unit)."""
    matches: int = 0
    matches_won: int = 0
    points: int = 0
    hands_by_seat: list[int] = field(default_factory=list)
    decision_seconds: list[float] = field(default_factory=list)
    """Bot A's decisions in thread CPU seconds."""
    against_seconds: list[float] = field(default_factory=list)
    """Bot B's decision times (thread CPU), every seat of B's together."""
    decision_wall: list[float] = field(default_factory=list)
    """Bot A's decisions in wall-clock seconds."""
    against_wall: list[float] = field(default_factory=list)
    """Bot B's decisions in wall-clock seconds."""
    settings: dict[str, object] = field(default_factory=dict)
    """Options that shaped the duel (a time cap, an opponent's parameters), reported as given."""

    units: int = 0
    """Scoring units: the players, or 2 when A's pair plays B's pair."""

    @property
    def hand_win_rate(self) -> float:
        return self.hands_won / self.hands if self.hands else 0.0

    @property
    def match_win_rate(self) -> float:
        return self.matches_won / self.matches if self.matches else 0.0

    @property
    def time_ratio(self) -> float | None:
        """Bot A's mean decision time over bot B's (None when B took no measurable time)."""
        against = decision_ms(self.against_seconds)["mean"]
        return decision_ms(self.decision_seconds)["mean"] / against if against else None

    def figures(self) -> dict[str, object]:
        """The promised JSON object (rates as fractions, times in milliseconds)."""
        ratio = self.time_ratio
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
            "ties": self.ties,
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
            "ms_per_decision": _rounded(decision_ms(self.decision_seconds)),
            "against_decisions": len(self.against_seconds),
            "against_ms_per_decision": _rounded(decision_ms(self.against_seconds)),
            "time_ratio": None if ratio is None else float(f"{ratio:.4g}"),
            "clock": "thread CPU",
            "wall_ms_per_decision": _rounded(decision_ms(self.decision_wall)),
            "against_wall_ms_per_decision": _rounded(decision_ms(self.against_wall)),
            **self.settings,
        }


def _rounded(figures: Mapping[str, float]) -> dict[str, float]:
    return {key: round(value, 4) for key, value in figures.items()}


def timed_bot(bot: Bot, into: list[float], wall: list[float] | None = None) -> Bot:
    """`bot`, appending the thread CPU seconds each of its decisions took to `into` (and the
    wall-clock seconds to `wall`). Thread CPU time counts only this thread's work: neither
    other processes on a shared machine nor a bot's waiting adds to it."""
    clock = time.thread_time
    walls = time.perf_counter

    def decide(view: SeatView, rng: random.Random) -> Action:
        started, started_wall = clock(), walls()
        action = bot(view, rng)
        into.append(clock() - started)
        if wall is not None:
            wall.append(walls() - started_wall)
        return action

    return decide


def duel(
    rules: Rules,
    players: int,
    bot: tuple[str, Bot],
    against: tuple[str, Bot],
    hands: int,
    seed: int,
    observer: HandObserver | None = None,
    matches: int | None = None,
) -> BotDuel:
    """Play `hands` hands of `rules` (whole matches, then a last one cut short), or with
    `matches` that many whole matches (`hands` then unused): A against B, A's seat (pair)
    moving on each match; `observer` sees every deal and action (as `play_hand` calls it)."""
    rules.check_players(players)
    result = BotDuel(bot[0], against[0], rules.name, players, seed, hands_by_seat=[0] * players)
    result.units = rules.units(players)
    timed = timed_bot(bot[1], result.decision_seconds, result.decision_wall)
    timed_against = timed_bot(against[1], result.against_seconds, result.against_wall)
    rng = random.Random(seed)
    seat_of_a = 0
    if matches is not None:
        hands = 1 << 62  # the match count decides

    def more() -> bool:
        return result.hands < hands if matches is None else result.matches < matches

    while more():
        # With partners A plays both seats of one pair (0 and 2, then 1 and 3), B the other.
        unit_of_a = rules.unit_of(seat_of_a)
        seats_of_a = [s for s in range(players) if rules.unit_of(s) == unit_of_a]
        bots = [timed if s in seats_of_a else timed_against for s in range(players)]
        bot_rngs = [random.Random(f"{seed}/{result.matches}/{s}") for s in range(players)]
        match = Match(rules, players)
        while not match.outcome.over and result.hands < hands:
            played = play_hand(match, rng, bots, bot_rngs, observer)
            assert played.result is not None
            result.hands += 1
            for s in seats_of_a:
                result.hands_by_seat[s] += 1
            result.hands_won += played.result.winner == unit_of_a
            result.ties += played.result.winner is None
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
    settings: Mapping[str, object] | None = None,
    matches: int | None = None,
    lang: str = "en",
) -> int:
    """Print the duel's figures (one JSON object with `as_json`); `settings` are reported;
    `matches`: that many whole matches instead of `hands` hands."""
    result = duel(rules, players, bot, against, hands, seed, matches=matches)
    result.settings.update(settings or {})
    print_duel(result, rules.pairs, as_json, out, lang)
    return 0


def print_duel(
    result: BotDuel,
    pairs: bool,
    as_json: bool = False,
    out: Callable[[str], None] = print,
    lang: str = "en",
) -> None:
    """Print a duel's figures: one JSON object (the same in every language), or lines of text
    in `lang` (`pairs`: A played a pair)."""
    if as_json:
        out(json.dumps(result.figures()))
        return
    for text in _duel_lines(result, pairs, lang):
        out(text)


def _duel_lines(result: BotDuel, pairs: bool, lang: str = "en") -> list[str]:
    bot, against, players = result.bot, result.against, result.players
    low, high = wilson_interval(result.hands_won, result.hands)
    m_low, m_high = wilson_interval(result.matches_won, result.matches)
    seats = ", ".join(
        line("bench.bots.in_seat", lang, n=n, seat=s + 1)
        for s, n in enumerate(result.hands_by_seat)
    )
    key = "bench.bots.title_pairs" if pairs else "bench.bots.title"
    title = plural(
        key,
        players,
        lang,
        bot=bot,
        against=against,
        others=players - 1,
        rules=result.rules,
        seed=result.seed,
        seats=seats,
    )
    lines = [title]
    if result.settings:
        settings = ", ".join(f"{k} {v}" for k, v in result.settings.items())
        lines.append("  " + line("bench.bots.settings", lang, settings=settings))
    ratio = result.time_ratio
    hands_won = line(
        "bench.bots.hands_won",
        lang,
        won=result.hands_won,
        hands=result.hands,
        rate=f"{100 * result.hand_win_rate:.1f}",
        low=f"{100 * low:.1f}",
        high=f"{100 * high:.1f}",
        fair=f"{100 / result.units:.0f}",
        ties=plural("bench.bots.ties", result.ties, lang),
    )
    matches_won = line(
        "bench.bots.matches_won",
        lang,
        won=result.matches_won,
        matches=result.matches,
        rate=f"{100 * result.match_win_rate:.1f}",
        low=f"{100 * m_low:.1f}",
        high=f"{100 * m_high:.1f}",
    )
    points = line("bench.bots.points", lang, points=f"{result.points / result.hands:.2f}")
    shown_ratio = "—" if ratio is None else f"{ratio:.3g}"
    lines += [
        f"  {hands_won}",
        f"  {matches_won}",
        f"  {points}",
        _time_line(bot, result.decision_seconds, result.decision_wall, lang),
        _time_line(against, result.against_seconds, result.against_wall, lang),
        "  " + line("bench.bots.time_ratio", lang, ratio=shown_ratio),
    ]
    return lines


def _time_line(name: str, seconds: Sequence[float], wall: Sequence[float], lang: str) -> str:
    ms = decision_ms(seconds)
    walls = decision_ms(wall)
    said = plural(
        "bench.bots.time",
        len(seconds),
        lang,
        name=name,
        mean=f"{ms['mean']:.3f}",
        p95=f"{ms['p95']:.3f}",
        max=f"{ms['max']:.3f}",
        wall_mean=f"{walls['mean']:.3f}",
        wall_p95=f"{walls['p95']:.3f}",
    )
    return f"  {said}"
