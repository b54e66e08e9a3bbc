"""The difficulty levels: legal under every preset, blind to what the seat cannot see."""

from __future__ import annotations

import random

import pytest

from p2p_dominoes.bots import BOTS, bot_named
from p2p_dominoes.bots.levels import LEVEL_FUNCTIONS, Budget, hard, medium
from p2p_dominoes.engine import DRAW_RULES, PRESETS, HandState, HandView, Match, Play, Rules
from p2p_dominoes.engine import parse_tile as tile
from p2p_dominoes.engine.search import snapshot
from p2p_dominoes.engine.view import legal_actions
from p2p_dominoes.simulation import deal
from tests.engine.dealing import deal as deal_text

SMALL = Budget(3)
"""A budget that keeps the tests quick (strength is the benchmark's business)."""


def _start(rules: Rules, players: int, rng: random.Random) -> HandState:
    match = Match(rules, players)
    while True:
        hands, boneyard = deal(rules, players, rng)
        hand = match.start_hand(hands, boneyard, lottery=rng.getrandbits(64))
        if hand is not None:
            return hand
        match.void_hand()


def test_every_level_is_a_bot_by_name() -> None:
    for name in LEVEL_FUNCTIONS:
        assert BOTS[name] is bot_named(name)


@pytest.mark.parametrize("level", sorted(LEVEL_FUNCTIONS))
@pytest.mark.parametrize("name", sorted(PRESETS))
def test_each_level_plays_only_legal_actions_under_every_preset(level: str, name: str) -> None:
    rules = PRESETS[name]
    choose = LEVEL_FUNCTIONS[level]
    for players in sorted(dict(rules.hand_sizes)):
        rng = random.Random(f"{level}/{name}/{players}")
        for _ in range(2):
            state = _start(rules, players, rng)
            while state.result is None:
                view = HandView(state, state.turn)
                # A detached copy of the view: the level cannot reach the state behind it.
                action = choose(snapshot(view), rng, SMALL)
                assert action in legal_actions(view), (level, name, players, action)
                state.apply(state.turn, action)


@pytest.mark.parametrize("choose", [medium, hard])
def test_a_level_decides_the_same_whatever_the_hidden_tiles_are(choose: object) -> None:
    mine = "0|0 0|1 1|1 1|4 2|4 3|4 5|5"
    first = deal_text(DRAW_RULES, ["6|6 6|5 6|4 6|3 6|2 6|1 6|0", mine], boneyard="2|2 3|3")
    second = deal_text(DRAW_RULES, ["6|6 2|2 3|3 5|6 4|6 0|2 0|3", mine], boneyard="1|6 3|6")
    for state in (first, second):
        state.apply(0, Play(tile("6|6")))
    assert callable(choose)
    picked = {str(choose(HandView(s, 1), random.Random(5), Budget(20))) for s in (first, second)}
    assert len(picked) == 1
