"""Difficulty levels: `easy`, `medium`, `hard` and `expert`, each a function of the seat's view,
a random source and a budget. None reads past the view: hidden tiles are sampled from what the
table has shown (`bots.search`), as a bot peer with only its own tiles would have to.

- easy: uniform over legal plays, now and then a voluntary draw (today's `random`).
- medium: greedy with end control and counting: shed heavy tiles and doubles, keep ends it can
  follow, leave ends the next player is known or likely to lack; under rules that score during
  play, the points of the placement first.
- hard: determinized Monte Carlo: for each sample of the hidden tiles, every legal action is
  played out to the hand's end with every seat `greedy`; the best mean outcome wins, an
  outcome valued by the match it leaves behind (`bots/objective.py`: the target, the points
  made during play, Kozel's minimum and goat, Threes for luck's nets; under Threes for luck a
  voluntary draw only when it clearly beats the best play). With
  partners (Kozel) the outcome is the pair's (the partner going out is our win) and the pair's
  two seats play the play-outs as `partner` does (keep the partner moving, block the others).
- expert: the same search with about three times the samples, up to a time cap; under plain
  turns without partners also an opponent model in its samples (opponents draw only when
  stuck and lay their heaviest fitting tile, while the table does not contradict it) and a
  blocker's play-outs for its own seat; with partners an opening model (the opponents laid
  their heaviest fitting tiles in the hand's first six actions) and, from 16 tiles in hands
  down, each sample solved exactly.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from p2p_dominoes.bots import partner as _partner
from p2p_dominoes.bots.objective import Objective
from p2p_dominoes.bots.search import (
    OpponentModel,
    PositionError,
    Sampler,
    cannot_hold,
    play_greedy,
    play_pairs,
    solve,
    unseen_mask,
)
from p2p_dominoes.bots.strategies import Bot, greedy_bot, random_bot
from p2p_dominoes.engine import (
    DRAW,
    Action,
    HandResult,
    HandState,
    HandView,
    Play,
    SeatView,
    placement_points,
)
from p2p_dominoes.engine.rules import HandScoring, MoveScoring, Rules
from p2p_dominoes.engine.tiles import TILES, mask_of, pips_in
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
    barred_all = cannot if cannot is not None else cannot_hold(view)
    barred = barred_all[following]
    unseen = unseen_mask(view)
    # With partners, an end the partner surely cannot follow is our own loss.
    partner_barred = barred_all[(view.seat + 2) % 4] if rules.pairs and players == 4 else None
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
        if partner_barred is not None and not unseen & ~partner_barred & ends & ~tile.bit:
            score -= 8.0  # nor can the partner: the pair loses a turn
        if scoring:
            score += 100.0 * placement_points(rules, line, play)
        return score

    return max(plays, key=value)


# -- hard and expert ----------------------------------------------------------------------------


def _play_out(state: HandState, rng: random.Random, pair: int) -> HandResult:
    """Play `state` out with the seats of `pair` as `partner` reading the table as it stands
    at each move (`partner_bot`), the others greedy: with partners under rules that are not
    plain (`_plain`), where `play_pairs`' account of what each seat lacks is not kept."""
    apply = state.apply
    while state.result is None:
        seat = state.turn
        bot = _partner.partner_bot if seat % 2 == pair else greedy_bot
        apply(seat, bot(HandView(state, seat), rng))
    return state.result


def _lacked_numbers(view: SeatView) -> list[int]:
    """Per seat, the bits (1 << number) of the numbers it surely lacks, as `partner` reads them."""
    return [sum(1 << v for v in lacks) for lacks in _partner.known_lacks(view)]


def _plain(rules: Rules) -> bool:
    """Turns with no phase beyond the simple one (a line of two ends) and no ceremony: where
    `expert` models its opponents, plays its own seat as a blocker and solves endgames, and
    its budget is the table's (`expert`)."""
    return rules.turn_plan.simple and not rules.ceremonies


_EXACT_TILES: Final = 16
"""With partners, `expert` solves its samples exactly from this many tiles in hands down (a
solve takes about a millisecond here at 16; each tile more roughly doubles it)."""

_PAIRS_OPENING: Final = 6
"""With partners, `expert` reads the opponents' plays as the heaviest that fitted only in the
hand's first six actions (the opening, where most players shed their heavy tiles)."""

_MODEL_TRIES: Final = 200
"""Attempts at a sample that satisfies a model known to be satisfiable."""


def _modelled(
    sampler: Sampler, models: Sequence[OpponentModel], moves: int | None = None
) -> Sampler:
    """The first of `models` (strongest first, read into the first `moves` actions) that
    the table does not contradict (`Sampler.satisfiable`), else `sampler` itself."""
    for model in models:
        candidate = Sampler(sampler.view, model, moves)
        if candidate.satisfiable():
            return candidate
    return sampler


def _action_values(
    sampler: Sampler,
    rng: random.Random,
    budget: Budget,
    actions: Sequence[Action],
    started: float,
    modelled: bool = False,
    score: Callable[[HandResult], float] | None = None,
) -> list[list[float]]:
    """Each action's value in every sample the budget allows (`Objective.value` of the hand's
    end: the estimated chance of winning the match; the samples are the same for every
    action, so two actions' values pair up sample by sample). `modelled`
    (`expert`), under plain turns without partners: sample as if the opponents played `greedy`
    (`OpponentModel`, the strongest that the table does not contradict: `_modelled`), and play
    our own seat out as a blocker (`play_greedy(state, blocker)`); with partners, once at
    most `_EXACT_TILES` tiles are left in hands and nothing can be drawn: solve each sample
    exactly (`solve`: win 1, nobody ½, loss 0) instead of playing it out. `score`:
    value each finished hand so instead of by the objective (never solved then)."""
    view = sampler.view
    seat = view.seat
    rules = view.rules
    players = len(view.tile_counts)
    facts = sampler.facts
    objective = Objective(rules, seat, players, facts.match_scores, facts.target)
    value = objective.value if score is None else score
    totals: list[list[float]] = [[] for _ in actions]
    plain = _plain(rules)
    pairs = rules.pairs and len(view.tile_counts) == 4
    lacks = _lacked_numbers(view) if pairs else []
    unscored = rules.move_scoring is _MOVES_NONE
    exact = (
        modelled
        and plain
        and pairs
        and unscored
        and sum(view.tile_counts) <= _EXACT_TILES
        and not _may_end_match(objective, view, facts.target)
        and score is None
    )
    modelled = modelled and plain and unscored
    models = (OpponentModel.HEAVY,) if pairs else (OpponentModel.GREEDY, OpponentModel.STUCK_DRAWS)
    opening = _PAIRS_OPENING if pairs else None
    source = _modelled(sampler, models, opening) if modelled else sampler
    blocker = seat if modelled and not pairs else -1
    deadline = None if budget.seconds is None else started + budget.seconds
    for _ in range(max(1, budget.samples)):
        try:
            hidden = source.hidden(rng)
            if source is not sampler and not source.consistent(hidden):
                hidden = source.hidden(rng, tries=_MODEL_TRIES)  # satisfiable: unlucky draws
                if not source.consistent(hidden):
                    hidden = sampler.hidden(rng)  # this sample assumes only what is certain
        except PositionError:
            break
        state = sampler.position(hidden)
        exact = exact and not state.drawable
        for index, action in enumerate(actions):
            trial = state.copy()
            trial.apply(seat, action)
            if exact:
                totals[index].append((solve(trial, seat) + 1) / 2)
                continue
            result = trial.result
            if result is None:
                if not pairs:
                    result = play_greedy(trial, blocker)
                elif plain:
                    result = play_pairs(trial, seat % 2, lacks)
                else:
                    result = _play_out(trial, rng, seat % 2)
            totals[index].append(value(result))
        if deadline is not None and time.perf_counter() >= deadline:
            break
    return totals


def _search(view: SeatView, rng: random.Random, budget: Budget, modelled: bool = False) -> Action:
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
    values = _action_values(sampler, rng, budget, actions, started, modelled)
    return actions[choice(view, actions, values)]


def choice(view: SeatView, actions: Sequence[Action], values: Sequence[Sequence[float]]) -> int:
    """The index of the action a search takes from its values per sample: the best sum (the
    first on a tie), a voluntary draw under Threes for luck only when it is worth it."""
    totals = [sum(v) for v in values]
    if view.rules.hand_scoring is _LUCK and DRAW in actions and not _draw_worth_it(actions, values):
        totals[actions.index(DRAW)] = -math.inf
    return max(range(len(actions)), key=lambda i: (totals[i], -i))


def searched_values(
    view: SeatView,
    rng: random.Random,
    budget: Budget,
    score: Callable[[HandResult], float] | None = None,
) -> tuple[list[Action], list[list[float]]]:
    """`expert`'s legal actions (its heuristic's choice first) and each one's value in every
    sample (`_action_values`; `score` values the finished hands instead of the objective):
    what a hand's review reads. The same `rng` state gives the same samples."""
    actions = legal_actions(view)
    sampler = Sampler(view)
    preferred = _medium(view, rng, sampler.cannot)
    actions.sort(key=lambda a: a != preferred)
    started = time.perf_counter()
    return actions, _action_values(sampler, rng, budget, actions, started, True, score)


def _may_end_match(objective: Objective, view: SeatView, target: int) -> bool:
    """Whether this hand may end the match: some unit's total plus every pip still in hands
    reaches the target (then the points decide, not only who wins the hand)."""
    if target <= 0:
        return True
    left = _ALL_PIPS - pips_in(mask_of(view.line.tiles))
    return max(objective.scores) + left >= target


_LUCK: Final = HandScoring.LUCK_SETTLEMENT
_ALL_PIPS: Final = sum(t.pips for t in TILES)
_WORTH_IT: Final = 2.0
"""Standard errors by which a voluntary draw must beat the best play under Threes for luck."""


def _draw_worth_it(actions: Sequence[Action], values: Sequence[Sequence[float]]) -> bool:
    """Under Threes for luck a voluntary draw costs a penalty unless the drawn tile scores at
    once: it is worth it only when it beats the best play by more than the samples' noise
    (`_WORTH_IT` standard errors of the difference, paired sample by sample)."""
    draw = actions.index(DRAW)
    plays = [i for i, a in enumerate(actions) if isinstance(a, Play)]
    if not plays:
        return True
    best = max(plays, key=lambda i: sum(values[i]))
    differences = [d - p for d, p in zip(values[draw], values[best], strict=False)]
    count = len(differences)
    if count < 2:
        return False
    mean = sum(differences) / count
    spread = sum((x - mean) ** 2 for x in differences) / (count - 1)
    return mean > _WORTH_IT * math.sqrt(spread / count)


def hard(view: SeatView, rng: random.Random, budget: Budget) -> Action:
    """Determinized Monte Carlo over greedy play-outs (see the module's text)."""
    return _search(view, rng, budget)


def expert(view: SeatView, rng: random.Random, budget: Budget) -> Action:
    """`hard`'s search with a larger budget (see `LEVEL_BUDGETS`), an opponent model in its
    samples and a blocker's play-outs (see `_action_values`; docs/bots.md). With its table
    budget, on the validated path (turn switches: Fives, Threes; ceremonies), where a sample
    costs about ten times as much, it may think as long as `hard` (`SLOW_PATH_SECONDS`):
    within 0.09 s it searched fewer samples there than `hard` does."""
    if budget is _EXPERT_BUDGET and not _plain(view.rules):
        budget = _EXPERT_SLOW_PATH
    return _search(view, rng, budget, modelled=True)


LEVEL_BUDGETS: Final[dict[str, Budget]] = {
    "easy": Budget(0),
    "medium": Budget(0),
    "hard": Budget(64, 0.25),
    "expert": Budget(200, 0.09),
}
"""Each level's budget at a table (the seconds cap keeps a slow machine from stalling it)."""

_EXPERT_BUDGET: Final = LEVEL_BUDGETS["expert"]
SLOW_PATH_SECONDS: Final = 0.25
"""`expert`'s seconds cap at a table on the validated path (`hard`'s)."""
_EXPERT_SLOW_PATH: Final = Budget(_EXPERT_BUDGET.samples, SLOW_PATH_SECONDS)

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
