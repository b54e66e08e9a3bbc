"""The phase table (`session/phases.py`): walked as a graph, and against tables that play.

The session changes its phase only through the table: a move it does not hold raises, honest
tables take exactly moves it holds (and between them nearly all of them), and no module of the
session sets the phase anywhere but `TableSession._move`.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

from p2p_dominoes.bots import greedy_bot
from p2p_dominoes.engine import PRESETS, Rules
from p2p_dominoes.mental.randomness import DeterministicRandom
from p2p_dominoes.session import (
    TRANSITIONS,
    Identity,
    Phase,
    PhaseError,
    TableSession,
    Trigger,
    next_phase,
)
from p2p_dominoes.session.local import LocalTable
from p2p_dominoes.session.phases import (
    FINAL,
    HAND_PHASES,
    PHASE_TYPES,
    V3_PHASE_TYPES,
    V4_PHASE_TYPES,
    WHO_IS_NEXT,
)
from tests.session.tables import in_hand_two, kill_at_hand_two, three_seats

SESSION = Path(__file__).resolve().parents[2] / "p2p_dominoes" / "session"
REDEAL = Rules.from_dict(
    {
        "base": "house",
        "name": "redeal",
        "hand_sizes": [[2, 2]],
        "targets": [[2, 101]],
        "first_fallback": "redeal",
    }
)
"""Two tiles each and a redeal when nobody holds a double: claims often find no opener."""


def _reachable(start: Phase, *, without: frozenset[Trigger] = frozenset()) -> set[Phase]:
    seen, todo = {start}, [start]
    while todo:
        phase = todo.pop()
        for (source, trigger), target in TRANSITIONS.items():
            if source is phase and trigger not in without and target not in seen:
                seen.add(target)
                todo.append(target)
    return seen


def test_every_phase_is_reached_from_setup_and_every_hand_can_end_the_match() -> None:
    assert _reachable(Phase.SETUP) == set(Phase)
    honest = frozenset({Trigger.BLAMED})
    for phase in set(Phase) - FINAL:
        assert Phase.OVER in _reachable(phase, without=honest), phase
        assert next_phase(phase, Trigger.BLAMED) is Phase.HALTED


def test_the_final_phases_lead_nowhere_but_a_blame_after_the_end() -> None:
    leaving = {(source, trigger) for source, trigger in TRANSITIONS if source in FINAL}
    assert leaving == {(Phase.OVER, Trigger.BLAMED)}
    with pytest.raises(PhaseError, match="halted"):
        next_phase(Phase.HALTED, Trigger.BLAMED)


def test_a_move_the_table_does_not_hold_raises() -> None:
    with pytest.raises(PhaseError, match="'commit' on DREW"):
        next_phase(Phase.COMMIT, Trigger.DREW)
    for (phase, trigger), target in TRANSITIONS.items():
        assert next_phase(phase, trigger) is target


def test_every_phase_that_waits_names_its_types_and_whose_turn_it_is() -> None:
    waiting = set(Phase) - FINAL
    leaving = {Phase.LEAVING, Phase.CONTINUE}  # v4 only (§16)
    assert set(PHASE_TYPES) == set(V3_PHASE_TYPES) == waiting - leaving
    assert set(V4_PHASE_TYPES) == waiting
    assert set(WHO_IS_NEXT) == waiting - {Phase.SETUP}  # the genesis says who signs next
    assert all(V4_PHASE_TYPES[p] for p in waiting)
    assert all(PHASE_TYPES[p] and V3_PHASE_TYPES[p] for p in waiting - leaving)


def _table(rules: Rules, seed: int, hands: int) -> LocalTable:
    return LocalTable.create(
        rules,
        ["p0", "p1"],
        [greedy_bot, greedy_bot],
        seed=seed,
        max_hands=hands,
        identities=[Identity.generate() for _ in range(2)],
        rngs=[DeterministicRandom(f"walk/{seed}/{s}".encode()) for s in range(2)],
    )


@pytest.fixture
def taken(monkeypatch: pytest.MonkeyPatch) -> Iterator[set[tuple[Phase, Trigger]]]:
    """Every (phase, trigger) a session moves on while the test runs."""
    moves: set[tuple[Phase, Trigger]] = set()
    move = TableSession._move

    def recording(session: TableSession, trigger: Trigger) -> None:
        moves.add((session.phase, trigger))
        move(session, trigger)

    monkeypatch.setattr(TableSession, "_move", recording)
    yield moves


def test_honest_tables_take_only_the_tables_moves_and_nearly_all_of_them(
    taken: set[tuple[Phase, Trigger]],
) -> None:
    two_hands = _table(PRESETS["draw-until-play"], 0, 2)  # the second hand's opener is known
    two_hands.run()
    assert all(s.phase is Phase.OVER for s in two_hands.sessions)
    for seed in range(30):
        if (Phase.LEAD_CLAIM, Trigger.NO_OPENER) in taken:
            break
        _table(REDEAL, seed, 1).run()
    sessions = _table(REDEAL, 0, 1).sessions  # nobody has signed the genesis yet
    expected = sessions[0].expected
    assert expected is not None
    waiting = sessions[1 - expected[0]]
    waiting.stall(expected[0], 30.0)
    assert waiting.phase is Phase.HALTED
    # v4: a seat gone in turns, and one gone before its key commit (§16).
    in_turns, _ = three_seats(seed=3)
    in_turns.run(until=in_hand_two)
    in_turns.kill(2)
    in_turns.run()
    at_commit, _ = three_seats(seed=13)
    kill_at_hand_two(at_commit)
    at_commit.run()
    # §16.1: the seat's player comes back at the next hand's start.
    back, _ = three_seats(seed=3)
    back.run(until=in_hand_two)
    back.kill(2)
    back.run(until=lambda t: t.sessions[0].hand is not None and t.sessions[0].hand.number == 3)
    back.come_back(2, "cat")
    back.run()
    played = [*in_turns.sessions, *at_commit.sessions, *back.sessions]
    assert all(s.phase is Phase.OVER for s in played)
    assert taken <= set(TRANSITIONS)
    # Not taken here: a deal no claim phase follows that nobody can open (a rules set whose
    # fallback redeals without a rank list), a blame from the other phases, and a goodbye in
    # the other phases of a hand (the same check and move as in turns: test_leaving).
    unseen = (
        {(Phase.DEAL, Trigger.NO_OPENER)}
        | {(phase, Trigger.BLAMED) for phase in Phase if phase not in (Phase.SETUP, Phase.HALTED)}
        | {
            (phase, Trigger.LEFT)
            for phase in HAND_PHASES
            if phase not in (Phase.TURNS, Phase.COMMIT)
        }
    )
    assert taken == set(TRANSITIONS) - unseen


def _phase_assignments(path: Path) -> Iterator[str]:
    """`function: line` of every assignment to a `.phase` attribute in `path`."""
    tree = ast.parse(path.read_text("utf-8"))
    for function in ast.walk(tree):
        if not isinstance(function, ast.FunctionDef):
            continue
        for node in ast.walk(function):
            targets = node.targets if isinstance(node, ast.Assign) else []
            if isinstance(node, ast.AnnAssign | ast.AugAssign):
                targets = [node.target]
            for target in targets:
                if isinstance(target, ast.Attribute) and target.attr == "phase":
                    yield f"{path.name}:{function.name}"


def test_only_the_move_sets_the_phase() -> None:
    found = sorted(a for path in SESSION.glob("*.py") for a in _phase_assignments(path))
    assert found == ["table.py:__init__", "table.py:_move"]
