"""The bots: they choose legal actions from a seat's view."""

import random

import pytest

from p2p_dominoes.bots import BOTS, bot_named, greedy_bot, random_bot
from p2p_dominoes.engine import (
    BLOCK,
    DRAW,
    DRAW_RULES,
    PRESETS,
    HandView,
    InvalidRecord,
    Place,
    Play,
    Side,
    legal_actions,
    parse_tile,
)
from tests.engine.dealing import deal


def test_greedy_plays_the_heaviest_fitting_tile() -> None:
    state = deal(DRAW_RULES, ["0|3", "3|3 3|5 0|1 1|1 1|2 2|2 6|6"])
    state.apply(0, Play(parse_tile("0|3")))
    action = greedy_bot(HandView(state, 1), random.Random(0))
    assert isinstance(action, Play) and action.tile.text == "[3|5]"


def test_greedy_draws_only_when_it_must() -> None:
    state = deal(DRAW_RULES, ["6|6", "0|0 0|1 0|2 0|3 0|4 0|5 1|1"])
    state.apply(0, Play(parse_tile("6|6")))
    assert greedy_bot(HandView(state, 1), random.Random(0)) is DRAW


def test_random_bot_is_uniform_over_legal_plays_and_seldom_draws_voluntarily() -> None:
    state = deal(DRAW_RULES, ["1|4", "1|1 1|2 4|4 4|5 0|0 0|2 0|3"])
    state.apply(0, Play(parse_tile("1|4")))
    view = HandView(state, 1)
    rng = random.Random(5)
    picks = [random_bot(view, rng) for _ in range(4000)]
    assert all(a in legal_actions(view) for a in picks)
    plays = [a for a in picks if isinstance(a, Play)]
    counts = {a: plays.count(a) for a in set(plays)}
    assert len(counts) == 4  # [1|1], [1|2], [4|4], [4|5]
    assert max(counts.values()) < 1.2 * min(counts.values())
    assert 0 < picks.count(DRAW) < 0.1 * len(picks)


def test_random_bot_passes_when_nothing_else_is_legal() -> None:
    state = deal(BLOCK, ["0|0", "1|1 1|2 1|3 1|4 1|5 1|6 2|2"])
    state.apply(0, Play(parse_tile("0|0")))
    assert legal_actions(HandView(state, 1)) == [random_bot(HandView(state, 1), random.Random(1))]


def test_bots_are_found_by_name() -> None:
    assert {"random", "greedy"} <= set(BOTS)
    assert bot_named("greedy") is greedy_bot
    with pytest.raises(InvalidRecord, match="unknown bot 'clever' \\(bots: random, greedy, "):
        bot_named("clever")


def test_greedy_takes_the_move_that_scores_most_under_fives() -> None:
    """After [4|4] along and [4|6] on it the ends are 4 and 6: [6|6] along keeps 10 at the
    ends (2 points), across would make 16 (nothing), [0|4] on the 4 would make 6 (nothing)."""
    fives = PRESETS["fives"]
    state = deal(fives, ["4|4 6|6 0|4", "4|6"])
    state.apply(0, Play(parse_tile("4|4"), None, True))
    state.apply(1, Play(parse_tile("4|6"), Place.of(parse_tile("4|4"), Side.A)))
    action = greedy_bot(HandView(state, 0), random.Random(0))
    assert action == Play(parse_tile("6|6"), Place.of(parse_tile("4|6"), Side.HIGH), True)


def test_greedy_lays_a_double_across_when_that_scores_more() -> None:
    """Lead [4|4] across, [4|6] on it: 8 + 6 = 14; [6|6] across on the 6 makes 20 (4 points)."""
    state = deal(PRESETS["fives"], ["4|4 6|6", "4|6"])
    state.apply(0, Play(parse_tile("4|4")))
    state.apply(1, Play(parse_tile("4|6"), Place.of(parse_tile("4|4"), Side.A)))
    action = greedy_bot(HandView(state, 0), random.Random(0))
    assert action == Play(parse_tile("6|6"), Place.of(parse_tile("4|6"), Side.HIGH))
