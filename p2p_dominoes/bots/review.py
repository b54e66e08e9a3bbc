"""A finished hand's review: for each of one seat's decisions, what `expert` would have played
from that seat's view at that moment, and what the choice made cost.

Like a chess player's engine after a game: the hand is replayed action by action; at each
decision of the seat that had more than one legal action, `expert`'s search runs on a detached
copy of the seat's view then (its own tiles, the table, the public history: never the other
hands, although the hand is over and they are known), with a fixed number of samples and a
fixed seed, so a review repeats exactly. For every legal action it has the value in each sample
(`levels.searched_values`): by the objective (`bots/objective.py`, the estimated chance of
winning the match) and by the hand's points margin (the seat's unit's recorded points against
the best other unit's: penalties counted as fewer-is-better, Threes for luck by nets). The cost
of the choice is `expert`'s pick's mean less the played action's mean, in both measures, over
the same samples; the three costliest decisions (a positive chance cost) are marked.

A pure function of a validated record (`review_hand`): the command line prints its rows
(`replay --review`) and a page can show them the same way.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Final

from p2p_dominoes.bots.levels import Budget, choice, searched_values
from p2p_dominoes.bots.objective import hand_margin
from p2p_dominoes.bots.search import snapshot
from p2p_dominoes.engine import Action, HandResult, HandView
from p2p_dominoes.engine.record import HandRecord, replay, start_state
from p2p_dominoes.engine.view import legal_actions

REVIEW_SAMPLES: Final = 200
"""Samples a reviewed decision searches (`expert`'s count, with no time cap)."""

COSTLIEST: Final = 3
"""How many of the costliest decisions a review marks."""


@dataclass(frozen=True)
class ReviewRow:
    """One reviewed decision of the seat."""

    index: int
    """The action's number in the hand (from 0, as `replay` numbers them)."""
    seat: int
    played: Action
    best: Action
    """What `expert` would have played from the seat's view then."""
    chance: float
    """The estimated chance of winning the match that the choice cost (0 to 1; 0 when the
    played action is `expert`'s)."""
    points: float
    """The hand's points margin the choice cost on average (may be negative: a choice can
    cost chance while it gains points, e.g. near a target)."""
    costly: bool = False
    """One of the `COSTLIEST` costliest decisions of the hand."""


def review_hand(
    record: HandRecord, seat: int, samples: int = REVIEW_SAMPLES, seed: int = 0
) -> list[ReviewRow]:
    """The review of `seat`'s decisions in the hand `record` holds (validated by replaying it:
    an illegal action raises `InvalidRecord`, as `replay` does). Decisions with a single legal
    action are left out."""
    steps = replay(record).steps
    state = start_state(record)
    rules = record.rules
    unit = rules.unit_of(seat)
    bad = rules.bad_points
    budget = Budget(samples)

    def margin(result: HandResult) -> float:
        return hand_margin(result, unit, bad)

    rows: list[ReviewRow] = []
    for step in steps:
        if step.seat == seat and len(legal_actions(HandView(state, seat))) > 1:
            view = snapshot(HandView(state, seat))
            rng_seed = f"review/{seed}/{step.index}"
            actions, chances = searched_values(view, random.Random(rng_seed), budget)
            same, points = searched_values(view, random.Random(rng_seed), budget, margin)
            assert same == actions
            best = choice(view, actions, chances)
            played = actions.index(step.action)
            rows.append(
                ReviewRow(
                    step.index,
                    seat,
                    step.action,
                    actions[best],
                    max(0.0, _mean(chances[best]) - _mean(chances[played])),
                    _mean(points[best]) - _mean(points[played]) if best != played else 0.0,
                )
            )
        state.apply(step.seat, step.action)
    costliest = sorted((r for r in rows if r.chance > 0), key=lambda r: -r.chance)[:COSTLIEST]
    marked = {r.index for r in costliest}
    return [replace(r, costly=True) if r.index in marked else r for r in rows]


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0
