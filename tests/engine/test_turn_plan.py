"""The turn plan (engine/turn_plan.py): every rules field is compiled into it or declared as not
shaping a turn, the turn machine reads no declared field, and the simple turn a plan without
phases takes plays exactly as the general one does."""

from __future__ import annotations

import ast
import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from p2p_dominoes.engine import PRESETS, InvalidRecord, Rules
from p2p_dominoes.engine.rule_fields import FIELDS, FieldSpec
from p2p_dominoes.engine.turn_plan import NOT_TURN_FIELDS, TurnPlan, compile_plan

PACKAGE = Path(__file__).resolve().parents[2] / "p2p_dominoes"
TURN_MODULES = (
    "engine/turns.py",
    "engine/placement.py",
    "engine/hand.py",
    "engine/public.py",
    "engine/legality.py",
    "engine/turn_plan.py",
    "bots/search/playout.py",
)
"""The modules that play turns: they read the rules' turn switches only."""


def _other_values(spec: FieldSpec, value: Any) -> Iterator[Any]:
    """Values of the field other than `value` (its JSON form), the likely valid ones first."""
    if spec.kind == "enum":
        yield from (choice for choice in spec.choices if choice != value)
    elif spec.kind == "bool":
        yield not value
    elif spec.kind == "int":
        low = spec.low if spec.low is not None else 0
        high = spec.high if spec.high is not None else low + 40
        options = spec.int_choices or (value + 1, value - 1, low, high, 3, 7, 10, 15)
        yield from dict.fromkeys(v for v in options if v != value and low <= v <= high)
    elif spec.kind == "pairs":
        yield [[players, number + 1] for players, number in value]
        yield [[players, number + 7] for players, number in value]
    elif spec.kind == "str":
        yield value + "-other"


def _plan_moves(spec: FieldSpec) -> list[str]:
    """The presets on which setting `spec` to some other valid value changes the turn plan."""
    moved = []
    for name, base in PRESETS.items():
        draft = base.to_dict()
        for value in _other_values(spec, draft[spec.name]):
            try:
                rules = Rules.from_dict({**draft, spec.name: value})
            except InvalidRecord:
                continue
            if compile_plan(rules) != compile_plan(base):
                moved.append(name)
                break
    return moved


@pytest.mark.parametrize("spec", FIELDS, ids=[spec.name for spec in FIELDS])
def test_every_field_shapes_the_plan_or_is_declared_as_not_shaping_turns(spec: FieldSpec) -> None:
    moved = _plan_moves(spec)
    if spec.name in NOT_TURN_FIELDS:
        assert not moved, f"{spec.name} is declared as not shaping turns but moves the plan"
    else:
        assert moved, (
            f"{spec.name} changes no turn plan: compile it into TurnPlan "
            "(engine/turn_plan.py) or declare it in NOT_TURN_FIELDS"
        )


def test_the_declared_fields_are_fields() -> None:
    assert {spec.name for spec in FIELDS} >= NOT_TURN_FIELDS


def _rules_reads(path: Path) -> Iterator[tuple[int, str]]:
    """(line, field) of every `rules.<field>` / `<x>.rules.<field>` read in a module."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Attribute):
            continue
        owner = node.value
        if (isinstance(owner, ast.Name) and owner.id == "rules") or (
            isinstance(owner, ast.Attribute) and owner.attr == "rules"
        ):
            yield node.lineno, node.attr


@pytest.mark.parametrize("module", TURN_MODULES)
def test_the_turn_machine_reads_no_field_declared_as_not_shaping_turns(module: str) -> None:
    path = PACKAGE / module
    # The name is a label (messages say which rules refused something), never a switch.
    declared = NOT_TURN_FIELDS - {"name"}
    reads = [(line, name) for line, name in _rules_reads(path) if name in declared]
    assert not reads, f"{module} reads fields declared as not shaping turns: {reads}"


def test_the_ast_check_sees_a_read() -> None:
    """The check above can fail: it finds the reads it looks for."""
    reads = set(_rules_reads(PACKAGE / "engine/turn_plan.py"))
    assert any(name == "draw_limit" for _, name in reads)


def test_simple_is_derived_from_the_phase_fields() -> None:
    plain = PRESETS["block"].turn_plan
    assert plain.simple and plain.phases() == ()
    phase_fields = [f for f in dataclasses.fields(TurnPlan) if f.metadata.get("phase")]
    assert len(phase_fields) >= 10
    for spec in phase_fields:
        other: Any = {bool: True, int: 3}.get(type(spec.default))
        if other is None:
            continue  # enums and tuples: the presets below cover them
        moved = dataclasses.replace(plain, **{spec.name: other})
        assert not moved.simple and moved.phases() == (spec.name,)
    assert not PRESETS["fives"].turn_plan.simple
    assert not PRESETS["cross"].turn_plan.simple
    assert "move_scoring" in PRESETS["threes-luck"].turn_plan.phases()


def test_which_presets_take_the_simple_turn() -> None:
    simple = sorted(name for name, rules in PRESETS.items() if rules.turn_plan.simple)
    assert {"block", "draw", "house", "kozel"} <= set(simple)
    assert not {"fives", "threes", "threes-luck", "cross", "telephone", "trains"} & set(simple)
