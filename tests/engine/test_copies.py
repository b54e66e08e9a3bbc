"""Copies of a hand (`HandState.copy`, `HandState.assembled`): every field copied, nothing shared.

The copies name each field by hand (a compiled build keeps no `__slots__` to read), so these
tests read the slots the interpreted classes declare and fail on one the copy leaves out."""

from __future__ import annotations

import dataclasses
import inspect

import pytest

from p2p_dominoes.engine import PRESETS, HandState, Line, Rules, TurnMachine
from tests.engine.walks import walk

EVERY_PHASE: Rules = dataclasses.replace(
    PRESETS["house"],
    name="every-phase",
    double_closes_ray=True,
    two_doubles=True,
    forced_draw_sum=10,
    extra_turn_sum=15,
    draw_limit=2,
)
"""The house game with each turn phase in use: clocks, second doubles, forced draws, extra
turns and a draw limit all fill fields a copy must carry."""

RULES = [*PRESETS.values(), EVERY_PHASE]


def _slots(kind: type) -> list[str]:
    return [name for klass in kind.__mro__ for name in getattr(klass, "__slots__", ())]


def _comparable(value: object) -> object:
    """A value a copy must equal: a line by its fields, clocks by theirs."""
    if isinstance(value, Line):
        return {name: _comparable(getattr(value, name)) for name in _slots(type(value))}
    if isinstance(value, list) and value and hasattr(value[0], "armed"):
        return [(c.place, c.layer, sorted(c.others), c.armed) for c in value]
    if isinstance(value, (list, set, dict)):
        return type(value)(value)
    return value


def _fields(state: HandState) -> dict[str, object]:
    return {name: _comparable(getattr(state, name)) for name in _slots(HandState)}


@pytest.mark.parametrize("rules", RULES, ids=lambda r: r.name)
def test_a_copy_has_every_field_and_shares_nothing(rules: Rules) -> None:
    players = max(dict(rules.hand_sizes))
    for seed in range(6):
        for state in walk(rules, players, seed, finished=True):
            before = _fields(state)
            copy = state.copy()
            assert _fields(copy) == before
            if copy.result is None:
                actions = copy.legal_actions()
                copy.apply(copy.turn, actions[-1])
                assert _fields(state) == before, "acting on a copy changed its original"


def test_an_assembled_hand_takes_every_public_field_from_its_machine() -> None:
    # A full hand is a public machine too: assembled from itself, it must come out the same
    # but for what the caller gives (the hands as dealt are the hands now).
    for state in walk(EVERY_PHASE, 4, 11, finished=True):
        built = HandState.assembled(state, state.hands, state.boneyard, state._drawn, state.pending)
        expected, got = _fields(state), _fields(built)
        assert got.pop("dealt") == tuple(state.hands)
        expected.pop("dealt")
        if state.result is None:
            assert got == expected


def test_the_copies_name_every_field_of_the_classes() -> None:
    # Some fields hold a value only for an instant of a turn (Threes for luck's lucky draws
    # between a play and the turn's end), which a walk may never stop at: the copy must still
    # name each one.
    machine = inspect.getsource(TurnMachine.copy_public_into)
    hand = inspect.getsource(HandState.copy) + inspect.getsource(HandState.assembled)
    from_construction = {"rules", "plan", "players", "_board", "_choice"}
    for name in set(_slots(TurnMachine)) - from_construction:
        assert f"other.{name} = " in machine, f"TurnMachine.copy_public_into leaves out {name}"
    for name in HandState.__slots__:
        assert f"other.{name} = " in hand or f"state.{name} = " in hand, name
