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
    plays = (msg.PLAY, msg.PLAY3)  # v2 and v3 plays name their side alike
    sides = {e.field("side") for e in table.sessions[0].transcript if e.type in plays}
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


def test_a_seat_resumes_mid_hand_on_trains_and_derives_the_same_markers() -> None:
    """Seat 1 is rebuilt from its transcript (as `resume` does from the table log) in the
    middle of a trains hand: its trains and markers come back from the public plays alone."""
    from p2p_dominoes.bots import greedy_bot, random_bot
    from p2p_dominoes.session import (
        Identity,
        Phase,
        TableSession,
        Transcript,
        default_registry,
        new_table_nonce,
    )
    from p2p_dominoes.session.local import LocalTable
    from p2p_dominoes.session.verify import verify_transcript
    from tests.session.test_resume_v2 import KeptKeys, step_until

    ids = [Identity.generate(), Identity.generate()]
    nonces = [new_table_nonce(), new_table_nonce()]
    table = LocalTable.create(
        PRESETS["trains"],
        ["a", "b"],
        [greedy_bot, random_bot],
        seed=5,
        max_hands=1,
        identities=ids,
        nonces=nonces,
    )
    keys = KeptKeys()
    table.sessions[1]._hand_keys = keys
    for seat, session in enumerate(table.sessions):
        table._broadcast(seat, session.start())
    old = table.sessions[1]

    def some_trains_laid() -> bool:
        public = old.hand.public if old.hand is not None else None
        return public is not None and len(public.line.tiles) >= 6 and not public.over

    assert step_until(table, some_trains_laid)
    assert old.hand is not None and old.hand.public is not None
    before = old.hand.public.line
    assert isinstance(before, Board)
    resumed = TableSession(
        Transcript(old.transcript.entries[0].envelope, default_registry()),
        1,
        ids[1],
        hand_keys=keys,
        table_nonce=nonces[1],
    )
    for entry in old.transcript.entries[1:]:
        resumed.admit(entry.envelope)
    assert resumed.hand is not None and resumed.hand.public is not None
    again = resumed.hand.public.line
    assert isinstance(again, Board)
    assert again.markers == before.markers and again.all_places == before.all_places
    table.sessions[1] = resumed
    table._broadcast(1, resumed.start())
    step_until(table, lambda: all(s.finished for s in table.sessions))
    assert [s.phase for s in table.sessions] == [Phase.OVER, Phase.OVER]
    assert table.blames == [None, None]
    data = table.sessions[0].transcript.to_bytes()
    assert data == resumed.transcript.to_bytes() and verify_transcript(data).ok
