"""The table shapes over the real protocol: complete secure matches of the cross, the telephone
and trains for 2–4 seats, every peer deriving the same rays and markers from public plays; a
play on the trains engine names its train in the signed play's side field."""

from __future__ import annotations

import pytest

from p2p_dominoes.engine import PRESETS, Board, Play, Rules
from p2p_dominoes.engine.line import TRAIN_PORTS, Side
from p2p_dominoes.session import hand_messages as msg
from p2p_dominoes.session.events import ActionTaken, MatchEnded
from tests.session.test_house_rules_tables import assert_clean, run


@pytest.mark.slow
@pytest.mark.parametrize("name", ["cross", "telephone", "trains"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_whole_match_of_each_shape_plays_and_verifies(name: str, players: int) -> None:
    # A short match (to 25 instead of 101) keeps it complete at a tenth of the time.
    rules = Rules.from_dict({"base": name, "targets": [[n, 25] for n in (2, 3, 4)]})
    table, events = run(rules, players, seed=players, hands=None)
    assert_clean(table, events)
    assert any(isinstance(e, MatchEnded) for e in events)
    assert table.sessions[0].match.outcome.over
    for session in table.sessions:
        assert session.scores == table.sessions[0].scores


def test_trains_markers_agree_on_every_peer_and_engine_plays_name_their_train() -> None:
    table, events = run(PRESETS["trains"], 3, seed=7, hands=1)
    assert_clean(table, events)
    plays = [e.action for e in events if isinstance(e, ActionTaken) and isinstance(e.action, Play)]
    ports = {p.place.side for p in plays if p.place is not None and p.place.side in TRAIN_PORTS}
    assert ports, "some train was started from the engine"
    sides = {b[3] for b in (e.body for e in table.sessions[0].transcript if e.type is msg.PLAY)}
    assert {s.value for s in ports} <= sides
    boards = [s.hand.public.line for s in table.sessions if s.hand and s.hand.public]
    assert boards and all(isinstance(b, Board) for b in boards)
    first = boards[0]
    assert isinstance(first, Board)
    for board in boards:
        assert isinstance(board, Board)
        assert board.markers == first.markers and board.all_places == first.all_places
    assert Side.TC in {p.side for p in first.all_places} or any(
        k == -1 for k in first.ray_of_tile.values()
    )
