"""Fives, Threes and Threes for luck over the real protocol: a double laid along travels as the
play's fifth field (protocol v2), points scored during play agree on every peer and at the audit,
and a complete match of each preset verifies clean offline."""

from __future__ import annotations

import pytest

from p2p_dominoes.bots import greedy_bot, random_bot
from p2p_dominoes.engine import PRESETS, HandEnd, Play
from p2p_dominoes.session import hand_messages as msg
from p2p_dominoes.session.errors import InvalidMessage
from p2p_dominoes.session.events import ActionTaken, HandEnded
from tests.session.test_house_rules_tables import assert_clean, run


@pytest.mark.parametrize("name", ["fives", "threes", "threes-luck"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_hand_of_each_end_count_game_plays_and_verifies(name: str, players: int) -> None:
    table, events = run(PRESETS[name], players, seed=players, hands=1)
    assert_clean(table, events)
    ended = next(e for e in events if isinstance(e, HandEnded))
    assert ended.result.end in (HandEnd.DOMINO, HandEnd.BLOCK, HandEnd.EXHAUSTED, HandEnd.TARGET)
    for session in table.sessions:  # every peer's public hand scored the same as the audit
        assert session.scores == table.sessions[0].scores


def test_a_whole_fives_match_plays_to_its_target() -> None:
    table, events = run(PRESETS["fives"], 2, seed=11, hands=None, bots=[greedy_bot, greedy_bot])
    assert_clean(table, events)
    scores = table.sessions[0].scores
    assert max(scores) >= 25 and table.sessions[0].match.outcome.over


def test_a_double_laid_along_travels_in_the_play_message() -> None:
    for seed in range(30):
        table, events = run(PRESETS["fives"], 2, seed, hands=1, bots=[random_bot, random_bot])
        along = [e for e in events if isinstance(e, ActionTaken) and isinstance(e.action, Play)]
        if not any(e.action.along for e in along):  # type: ignore[union-attr]
            continue
        assert_clean(table, events)
        bodies = [e.body for e in table.sessions[0].transcript if e.type is msg.PLAY3]
        assert any(len(b) == 7 and b[6] is True for b in bodies)
        assert all(len(b) == 6 for b in bodies if len(b) != 7)
        return
    raise AssertionError("no double laid along in 30 hands")


def test_the_play_schema_takes_four_or_five_fields_and_along_only_as_a_bool() -> None:
    body = msg.PLAY.body
    assert len(body.check((1, b"x", None, None), "play")) == 4
    assert body.check((1, b"x", None, None, True), "play")[4] is True
    with pytest.raises(InvalidMessage):
        body.check((1, b"x", None), "play")
    with pytest.raises(InvalidMessage):
        body.check((1, b"x", None, None, 1), "play")
