"""A rule set compiled once into what the turn machine reads: its turn plan.

The turn machine (engine/turns.py and the hands built on it, engine/hand.py and
engine/public.py, which the bots' play-outs play too) reads the switches that shape a turn from a
`TurnPlan`, compiled once per `Rules` (`Rules.turn_plan`). The plan has two parts:

- the facts every turn reads (`draws`, `any_time`, `reserve`, `at_once`, `stuck_draw`, `along`):
  the simple turn plays them at any value;
- the phases a turn may have beyond the simple one (the fields marked `PHASE`): a layout other
  than the line, doubles laid as the player chooses, scoring during play, a draw limit, forced
  draws, an extra turn, a second double, rays closed by a double, an end when the boneyard runs
  out. Each is at its field default when the rules do not use it.

`simple` is derived from the phase fields themselves (every one at its default), never from a
list kept by hand: a phase added to the plan is no longer simple whenever it is in use (what
`expert` checks before it models its opponents and plays its own seat as a blocker). A rules
field that does not shape turns says so in its switch's record (`affects_turns=False`,
engine/switches/), which makes `NOT_TURN_FIELDS`; a test sets every other field away from its
default and checks that the plan changes, so a new turn switch left out of the plan fails it.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from p2p_dominoes.engine.rule_fields import (
    Doubles,
    Drawing,
    EndsAward,
    Layout,
    MoveScoring,
    TargetCheck,
)
from p2p_dominoes.engine.switches import SWITCHES

if TYPE_CHECKING:
    from p2p_dominoes.engine.rules import Rules

PHASE: Final = {"phase": True}
"""Field metadata: a phase of the turn beyond the simple one (its default: not in use)."""

NOT_TURN_FIELDS: Final = frozenset(s.name for s in SWITCHES if not s.affects_turns)
"""The rules fields that do not shape a turn: who opens, the deal, how a finished hand or a
match is scored, the ceremonies, the table's timing — each switch's record says so
(`affects_turns`, engine/switches/). The turn machine never reads them (a test checks its
modules for it); every other field is compiled into the plan."""


@dataclass(frozen=True, slots=True)
class TurnPlan:
    """What the turn machine needs from a rule set, compiled once (`compile_plan`)."""

    draws: bool
    """Drawing is on (`drawing` other than never)."""
    any_time: bool
    """A seat may draw even while holding a playable tile."""
    reserve: int
    """Tiles at the end of the boneyard that are never drawn."""
    at_once: bool
    """A drawn tile that fits must be played at once (`play_drawn_at_once`)."""
    stuck_draw: bool
    """A stuck seat must draw, not pass, while it can (`must_draw_when_stuck`)."""
    along: bool
    """Doubles lie lengthwise (`doubles = along`)."""
    layout: Layout = field(default=Layout.LINE, metadata=PHASE)
    cross_quota: int = field(default=1, metadata=PHASE)
    choice: bool = field(default=False, metadata=PHASE)
    """Players say how each double lies (`doubles = choice`)."""
    move_scoring: MoveScoring = field(default=MoveScoring.NONE, metadata=PHASE)
    ends_modulus: int = field(default=5, metadata=PHASE)
    ends_award: EndsAward = field(default=EndsAward.QUOTIENT, metadata=PHASE)
    target_check: TargetCheck = field(default=TargetCheck.HAND_END, metadata=PHASE)
    targets: tuple[tuple[int, int], ...] = field(default=(), metadata=PHASE)
    """The match targets, when a placement may reach one during play (else none)."""
    draw_limit: int = field(default=0, metadata=PHASE)
    forced_draw_sum: int = field(default=0, metadata=PHASE)
    extra_turn_sum: int = field(default=0, metadata=PHASE)
    two_doubles: bool = field(default=False, metadata=PHASE)
    double_closes_ray: bool = field(default=False, metadata=PHASE)
    end_when_boneyard_empty: bool = field(default=False, metadata=PHASE)
    simple: bool = field(init=False, compare=False)
    """No phase beyond the simple turn is in use (`phases` is empty): a play or a pass ends
    the turn, a draw keeps it, and nothing is scored or noted during play."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "simple", not self.phases())

    def phases(self) -> tuple[str, ...]:
        """The names of the phase fields in use (away from their defaults), in field order."""
        return tuple(
            spec.name
            for spec in dataclasses.fields(self)
            if spec.metadata.get("phase") and getattr(self, spec.name) != spec.default
        )


def compile_plan(rules: Rules) -> TurnPlan:
    """The turn plan of `rules`. A switch that only refines another (the scoring's modulus, a
    cross's quota) is compiled only when the switch it refines is in use, so a set that leaves
    it at a value without effect still gets the simple turn."""
    scoring = rules.move_scoring
    scores = scoring is not MoveScoring.NONE
    board = rules.layout is not Layout.LINE
    immediate = scores and rules.target_check is TargetCheck.IMMEDIATE
    values: dict[str, Any] = dict(
        draws=rules.drawing is not Drawing.NEVER,
        any_time=rules.drawing is Drawing.ANY_TIME,
        reserve=rules.reserve,
        at_once=rules.play_drawn_at_once,
        stuck_draw=rules.must_draw_when_stuck,
        along=rules.doubles is Doubles.ALONG,
        layout=rules.layout,
        cross_quota=rules.cross_quota if board else 1,
        choice=rules.doubles is Doubles.CHOICE,
        move_scoring=scoring,
        ends_modulus=rules.ends_modulus if scores else 5,
        ends_award=rules.ends_award if scores else EndsAward.QUOTIENT,
        target_check=rules.target_check if scores else TargetCheck.HAND_END,
        targets=rules.targets if immediate else (),
        draw_limit=rules.draw_limit,
        forced_draw_sum=rules.forced_draw_sum,
        extra_turn_sum=rules.extra_turn_sum,
        two_doubles=rules.two_doubles,
        double_closes_ray=rules.double_closes_ray,
        end_when_boneyard_empty=rules.end_when_boneyard_empty,
    )
    return TurnPlan(**values)
