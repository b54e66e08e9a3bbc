"""Difficulty levels: `easy`, `medium`, `hard` and `expert`, each a function of the seat's view,
a random source and a budget. None reads past the view: hidden tiles are sampled from what the
table has shown (`engine.search`), as a bot peer with only its own tiles would have to.

- easy: uniform over legal plays, now and then a voluntary draw (today's `random`).
- medium: greedy with end control and counting: shed heavy tiles and doubles, keep ends it can
  follow, leave ends the next player is known or likely to lack; under rules that score during
  play, the points of the placement first.
- hard: determinized Monte Carlo: for each sample of the hidden tiles, every legal action is
  played out to the hand's end with every seat `greedy`; the best mean outcome wins.
- expert: the same search with about three times the samples, up to a time cap.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from p2p_dominoes.bots.strategies import Bot, greedy_bot, random_bot
from p2p_dominoes.engine import Action, HandResult, HandState, HandView, Play, SeatView
from p2p_dominoes.engine.rules import MoveScoring, Rules
from p2p_dominoes.engine.search import (
    FastHand,
    PositionError,
    Sampler,
    cannot_hold,
    copy_state,
    fast_move,
    unseen_mask,
)
from p2p_dominoes.engine.tiles import mask_of
from p2p_dominoes.engine.turns import placement_points
from p2p_dominoes.engine.view import legal_actions

_MOVES_NONE: Final = MoveScoring.NONE


@dataclass(frozen=True)
class Budget:
    """How much a level may think: `samples` determinizations at most, and at most `seconds`
    of wall-clock time when set (None: the count alone decides, as benchmarks and tests need
    for results that repeat)."""

    samples: int
    seconds: float | None = None


Level = Callable[[SeatView, random.Random, Budget], Action]
"""A level: the seat's view, a random source and a budget in, an action out."""


# -- easy ----------------------------------------------------------------------------------------


def easy(view: SeatView, rng: random.Random, budget: Budget) -> Action:
    """Uniform over legal plays (today's `random` strategy); the budget is not needed."""
    return random_bot(view, rng)


# -- medium --------------------------------------------------------------------------------------


def medium(view: SeatView, rng: random.Random, budget: Budget) -> Action:
    """Greedy with end control and counting (see the module's text)."""
    return _medium(view, rng, None)


def _medium(view: SeatView, rng: random.Random, cannot: Sequence[int] | None) -> Action:
    plays = view.legal_plays()
    if len(plays) <= 1:
        return plays[0] if plays else greedy_bot(view, rng)
    rules = view.rules
    line = view.line
    own = mask_of(view.hand)
    players = len(view.tile_counts)
    following = (view.seat + 1) % players
    barred = (cannot if cannot is not None else cannot_hold(view))[following]
    unseen = unseen_mask(view)
    scoring = rules.move_scoring is not _MOVES_NONE

    def value(play: Play) -> float:
        tile = play.tile
        trial = line.copy()
        trial.lay(tile, play.place, play.along)
        ends = trial.fit_mask
        rest = own & ~tile.bit
        follow = (rest & ends).bit_count()
        threat = unseen & ~barred & ends & ~tile.bit
        score = tile.pips + 3.0 * tile.is_double + 2.0 * min(follow, 3)
        score -= 0.5 * threat.bit_count()
        if not threat:
            score += 10.0  # the next player cannot follow: they draw or pass
        if scoring:
            score += 100.0 * placement_points(rules, line, play)
        return score

    return max(plays, key=value)


# -- hard and expert ----------------------------------------------------------------------------


def _outcome_value(result: HandResult, seat: int, rules: Rules) -> float:
    """How good a finished hand is for `seat`: winning it, then the points margin."""
    points = result.points
    value = 1.0 if result.winner == seat else 0.0
    if len(points) > seat and len(points) > 1:
        mine = points[seat]
        others = [p for s, p in enumerate(points) if s != seat]
        margin = (min(others) - mine) if rules.bad_points else (mine - max(others))
        value += 0.01 * margin
    return value


def _play_out(state: HandState, rng: random.Random) -> HandResult:
    """Play `state` to its end with every seat greedy on the validated path."""
    apply = state.apply
    while state.result is None:
        seat = state.turn
        apply(seat, greedy_bot(HandView(state, seat), rng))
    return state.result


def _action_values(
    sampler: Sampler,
    rng: random.Random,
    budget: Budget,
    actions: Sequence[Action],
    started: float,
) -> list[float]:
    """The summed outcome of each action over the samples the budget allows."""
    view = sampler.view
    seat = view.seat
    rules = view.rules
    totals = [0.0] * len(actions)
    plain = FastHand.fits(rules)
    moves = [fast_move(sampler.public, a) for a in actions] if plain else []
    deadline = None if budget.seconds is None else started + budget.seconds
    for _ in range(max(1, budget.samples)):
        try:
            hidden = sampler.hidden(rng)
        except PositionError:
            break
        if plain:
            fast = sampler.fast(hidden)
            for index, move in enumerate(moves):
                trial = fast.copy()
                trial.step(move)
                totals[index] += _outcome_value(trial.play_greedy(), seat, rules)
        else:
            state = sampler.position(hidden)
            for index, action in enumerate(actions):
                copy = copy_state(state)
                copy.apply(seat, action)
                result = copy.result or _play_out(copy, rng)
                totals[index] += _outcome_value(result, seat, rules)
        if deadline is not None and time.perf_counter() >= deadline:
            break
    return totals


def _search(view: SeatView, rng: random.Random, budget: Budget) -> Action:
    started = time.perf_counter()
    actions = legal_actions(view)
    if len(actions) <= 1:
        return actions[0] if actions else greedy_bot(view, rng)
    try:
        sampler = Sampler(view)
    except PositionError:
        return _medium(view, rng, None)
    # The heuristic's choice first: it wins ties.
    preferred = _medium(view, rng, sampler.cannot)
    actions.sort(key=lambda a: a != preferred)
    totals = _action_values(sampler, rng, budget, actions, started)
    best = max(range(len(actions)), key=lambda i: (totals[i], -i))
    return actions[best]


def hard(view: SeatView, rng: random.Random, budget: Budget) -> Action:
    """Determinized Monte Carlo over greedy play-outs (see the module's text)."""
    return _search(view, rng, budget)


def expert(view: SeatView, rng: random.Random, budget: Budget) -> Action:
    """`hard`'s search with a larger budget (see `LEVEL_BUDGETS`): more samples measured
    stronger than the information-set tree search tried first (docs/bots.md)."""
    return _search(view, rng, budget)


LEVEL_BUDGETS: Final[dict[str, Budget]] = {
    "easy": Budget(0),
    "medium": Budget(0),
    "hard": Budget(64, 0.25),
    "expert": Budget(200, 0.09),
}
"""Each level's budget at a table (the seconds cap keeps a slow machine from stalling it)."""

LEVEL_FUNCTIONS: Final[dict[str, Level]] = {
    "easy": easy,
    "medium": medium,
    "hard": hard,
    "expert": expert,
}


def level_bot(name: str, budget: Budget | None = None) -> Bot:
    """The level called `name` as a strategy (view, rng) with its budget (or `budget`)."""
    level = LEVEL_FUNCTIONS[name]
    chosen = budget if budget is not None else LEVEL_BUDGETS[name]

    def bot(view: SeatView, rng: random.Random) -> Action:
        return level(view, rng, chosen)

    bot.__name__ = f"{name}_bot"
    bot.__doc__ = f"The {name!r} level with {chosen}."
    return bot


LEVELS: Final[dict[str, Bot]] = {name: level_bot(name) for name in LEVEL_FUNCTIONS}
"""The levels as strategies, registered in `BOTS`."""
