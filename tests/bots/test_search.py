"""The search API: copies, positions from a view, inference, sampling, the play-outs and the
exact endgame."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator

import pytest

from p2p_dominoes.bots import greedy_bot
from p2p_dominoes.bots.levels import _plain
from p2p_dominoes.bots.search import (
    Hidden,
    OpponentModel,
    PositionError,
    Sampler,
    blocking_action,
    cannot_hold,
    greedy_action,
    play_greedy,
    play_random,
    position,
    sample_hidden,
    sample_position,
    snapshot,
    solve,
)
from p2p_dominoes.engine import (
    DRAW_RULES,
    PRESETS,
    HandEnd,
    HandState,
    HandView,
    Rules,
    parse_tile,
)
from p2p_dominoes.engine.actions import Play
from p2p_dominoes.engine.rules import Teams
from p2p_dominoes.engine.tiles import mask_of
from p2p_dominoes.engine.view import legal_actions
from tests.engine.dealing import deal as deal_text
from tests.engine.walks import started_hand, walk

PLAYERS = (2, 3, 4)


def _cases() -> list[tuple[str, int]]:
    return [
        (name, n) for name, rules in PRESETS.items() for n in PLAYERS if n in dict(rules.hand_sizes)
    ]


def test_a_copy_is_independent_of_its_original() -> None:
    state = deal_text(DRAW_RULES, ["6|6 1|2", "6|5 3|3"])
    copy = state.copy()
    copy.apply(0, Play(parse_tile("6|6")))
    assert state.line.tiles == [] and state.history == [] and copy.turn == 1
    assert state.hands[0] != copy.hands[0]


@pytest.mark.parametrize(("name", "players"), _cases())
def test_the_inference_never_rules_out_the_true_hands(name: str, players: int) -> None:
    rules = PRESETS[name]
    for seed in range(40):
        for state in walk(rules, players, seed):
            view = HandView(state, state.turn)
            cannot = cannot_hold(view)
            for seat in range(players):
                assert not cannot[seat] & state.hands[seat], (seed, seat, len(state.history))


def _greedy_walk(rules: Rules, players: int, seed: int) -> Iterator[HandState]:
    """Every state of one hand in which every seat but 0 plays `greedy` (0 plays at random)."""
    rng = random.Random(seed)
    state = started_hand(rules, players, rng)
    while state.result is None:
        yield state
        seat = state.turn
        if seat == 0:
            actions = state.legal_actions()
            action = actions[rng.randrange(len(actions))]
        else:
            action = greedy_bot(HandView(state, seat), rng)
        state.apply(seat, action)


@pytest.mark.parametrize(
    ("name", "players"),
    [(n, p) for n, p in _cases() if _plain(PRESETS[n]) and not PRESETS[n].pairs],
)
def test_the_greedy_model_is_true_of_greedy_opponents(name: str, players: int) -> None:
    rules = PRESETS[name]
    for seed in range(40):
        for state in _greedy_walk(rules, players, seed):
            if state.turn != 0:
                continue
            view = HandView(state, 0)
            truth = Hidden(tuple(state.hands), tuple(state.boneyard[state._drawn :]))
            # Each model assumes more than the one before it, and is true of greedy seats.
            weaker = cannot_hold(view)
            for model in (OpponentModel.STUCK_DRAWS, OpponentModel.GREEDY):
                sampler = Sampler(view, model)
                assert sampler.consistent(truth), (model, seed, len(state.history))
                assert all(m & w == w for m, w in zip(sampler.cannot, weaker, strict=True))
                weaker = sampler.cannot


@pytest.mark.parametrize("players", PLAYERS)
def test_satisfiable_says_whether_a_sample_can_meet_the_model(players: int) -> None:
    rng = random.Random(players)
    said = {True: 0, False: 0}
    for seed in range(40):
        for state in walk(PRESETS["house"], players, seed):  # random seats: far from greedy
            view = HandView(state, state.turn)
            assert Sampler(view).satisfiable()  # what is certain always holds
            model = Sampler(view, OpponentModel.GREEDY)
            met = model.consistent(model.hidden(rng, tries=400))
            assert met == model.satisfiable(), (seed, len(state.history))
            said[met] += 1
    assert said[True] and said[False], said


def test_the_greedy_model_reads_a_light_play() -> None:
    state = deal_text(
        DRAW_RULES, ["6|6 1|1 1|2", "6|1 6|5 0|0 0|1 0|2 0|3 0|4"], boneyard="2|2 2|3 3|3"
    )
    state.apply(0, Play(parse_tile("6|6")))
    state.apply(1, next(a for a in state.legal_plays() if a.tile is parse_tile("1|6")))
    view = HandView(state, 0)
    model, plain = Sampler(view, OpponentModel.GREEDY), Sampler(view)
    five_six = parse_tile("5|6").bit
    # Seat 1 laid [1|6] where the heavier [5|6] fitted too: a greedy seat holds no [5|6].
    assert model.cannot[1] & five_six and not plain.cannot[1] & five_six
    truth = Hidden(tuple(state.hands), tuple(state.boneyard[state._drawn :]))
    assert plain.consistent(truth) and not model.consistent(truth)  # seat 1 is not greedy
    assert Sampler(view, OpponentModel.STUCK_DRAWS).consistent(truth)  # the weaker model holds


@pytest.mark.parametrize(("name", "players"), _cases())
def test_the_true_assignment_rebuilds_the_true_position(name: str, players: int) -> None:
    rules = PRESETS[name]
    for seed in range(25):
        for state in walk(rules, players, seed):
            view = HandView(state, state.turn)
            truth = Hidden(tuple(state.hands), tuple(state.boneyard[state._drawn :]))
            built = position(view, truth)
            assert built.hands == state.hands and built.turn == state.turn
            assert built.legal_actions() == state.legal_actions()
            assert built.move_points == state.move_points
            # The same next actions score the same from both.
            for action in state.legal_actions()[:3]:
                a, b = state.copy(), built.copy()
                a.apply(a.turn, action)
                b.apply(b.turn, action)
                assert a.outcome() == b.outcome() and a.turn == b.turn


@pytest.mark.parametrize(("name", "players"), _cases())
def test_sampled_positions_are_legal_and_agree_with_the_view(name: str, players: int) -> None:
    rules = PRESETS[name]
    rng = random.Random(7)
    for seed in range(10):
        for state in walk(rules, players, seed):
            view = HandView(state, state.turn)
            sampled = sample_position(view, rng)
            assert sampled.hands[view.seat] == state.hands[view.seat]
            assert set(map(str, sampled.legal_actions())) == set(map(str, legal_actions(view)))


def test_a_wrong_assignment_is_refused_in_one_line() -> None:
    state = deal_text(DRAW_RULES, ["6|6 1|2", "6|5 3|3"])
    view = HandView(state, 0)
    good = sample_hidden(view, random.Random(1))
    swapped = Hidden((good.hands[1], good.hands[0]), good.boneyard)
    with pytest.raises(PositionError, match="seat 0's hand"):
        position(view, swapped)
    short = Hidden(good.hands, good.boneyard[1:])
    with pytest.raises(PositionError, match="boneyard"):
        position(view, short)


def test_a_snapshot_does_not_follow_the_table() -> None:
    state = deal_text(DRAW_RULES, ["6|6 1|2", "6|5 3|3"])
    frozen = snapshot(HandView(state, 0))
    state.apply(0, Play(parse_tile("6|6")))
    assert frozen.line.tiles == [] and frozen.history == [] and len(frozen.hand) == 7


@pytest.mark.parametrize(("name", "players"), _cases())
def test_a_greedy_play_out_is_greedy_bot_at_every_seat(name: str, players: int) -> None:
    """`play_greedy` on the engine's hand moves as `greedy_bot` does, seat by seat, under
    every preset: the play-outs choose as the strategy, and the engine plays the rules."""
    rules = PRESETS[name]
    for seed in range(40):
        rng = random.Random(seed)
        state = started_hand(rules, players, rng)
        probe = state.copy()
        while probe.result is None:
            probe.apply(probe.turn, greedy_bot(HandView(probe, probe.turn), rng))
        assert play_greedy(state) == probe.result
        assert state.history == probe.history


@pytest.mark.parametrize(("name", "players"), _cases())
def test_a_random_play_out_picks_as_a_loop_over_legal_actions_would(
    name: str, players: int
) -> None:
    rules = PRESETS[name]
    for seed in range(30):
        state = started_hand(rules, players, random.Random(seed))
        probe = state.copy()
        rng = random.Random(seed)
        while probe.result is None:
            actions = probe.legal_actions()
            probe.apply(probe.turn, actions[int(rng.random() * len(actions))])
        assert play_random(state, random.Random(seed)) == probe.result
        assert state.history == probe.history


@pytest.mark.parametrize(("name", "players"), _cases())
def test_a_play_out_of_a_finished_hand_changes_nothing(name: str, players: int) -> None:
    rules = PRESETS[name]
    for seed in range(10):
        state = started_hand(rules, players, random.Random(seed))
        while state.result is None:  # the last move ends the hand, as a search's trial may
            state.apply(state.turn, greedy_action(state))
        for blocker in (-1, state.turn):
            finished = state.copy()
            assert play_greedy(finished, blocker) == state.result
            assert finished.history == state.history
        finished = state.copy()
        assert play_random(finished, random.Random(seed)) == state.result
        assert finished.history == state.history


@pytest.mark.parametrize(("players"), PLAYERS)
def test_a_blockers_play_out_is_blocking_action_for_it_and_greedy_for_the_rest(
    players: int,
) -> None:
    blocked = 0
    for seed in range(60):
        state = started_hand(DRAW_RULES, players, random.Random(seed))
        blocker = seed % players
        probe = state.copy()
        while probe.result is None:
            seat = probe.turn
            action = blocking_action(probe) if seat == blocker else greedy_action(probe)
            blocked += seat == blocker and action != greedy_action(probe)
            probe.apply(seat, action)
        assert play_greedy(state, blocker) == probe.result
        assert state.history == probe.history
    assert blocked  # the blocker chose otherwise than greedy at times


def test_a_blocker_leaves_the_next_seat_nothing_that_fits() -> None:
    state = deal_text(
        DRAW_RULES,
        ["6|5 6|1 1|1 1|2 1|3 1|4 2|3", "6|6 5|5 0|5 0|0 0|2 2|2 0|3"],
        opener=1,
    )
    state.apply(1, Play(parse_tile("6|6")))
    # Greedy lays the heavier [5|6]; seat 1 could follow it, and has no 1 for [1|6].
    assert greedy_action(state) == Play(parse_tile("6|5"), state.line.places[0])
    assert blocking_action(state) == Play(parse_tile("6|1"), state.line.places[0])


def test_the_play_outs_play_the_engines_rules_under_every_switch() -> None:
    """A play-out is `apply` of `legal_actions`: rules with turn phases (Fives, a cross, a
    draw limit) play out to the same result as the engine's own loop."""
    for name in ("fives", "threes-luck", "cross", "trains", "kozel-ceremonies"):
        rules = PRESETS[name]
        players = max(dict(rules.hand_sizes))
        state = started_hand(rules, players, random.Random(name))
        result = play_greedy(state.copy())
        assert result.end is not HandEnd.UNFINISHED
        assert result == play_greedy(state.copy())  # greedy is deterministic


def test_own_draws_are_what_the_seat_drew() -> None:
    state = deal_text(DRAW_RULES, ["6|6", "0|0 0|1 0|2 0|3 0|4 0|5 1|1"], boneyard="2|3 6|1")
    state.apply(0, Play(parse_tile("6|6")))
    state.apply(1, state.legal_actions()[-1])  # draw 2|3
    state.apply(1, state.legal_actions()[-1])  # draw 6|1, which fits
    view = HandView(state, 1)
    assert [t.text for t in view.own_draws] == ["[2|3]", "[1|6]"]
    assert mask_of(view.own_draws) & state.hands[1] == mask_of(view.own_draws)


def _minimax(state: HandState, seat: int) -> int:
    """Every line of play, no pruning: the outcome for `seat`'s side (1, 0 or -1)."""
    if state.result is not None:
        winner = state.result.winner
        return 0 if winner is None else (1 if winner == seat % 2 else -1)
    values = []
    for action in state.legal_actions():
        child = state.copy()
        child.apply(child.turn, action)
        values.append(_minimax(child, seat))
    return max(values) if state.turn % 2 == seat % 2 else min(values)


@pytest.mark.parametrize(
    ("name", "players", "left"),
    [("block", 2, 10), ("kozel", 4, 11), ("draw", 2, 9), ("block", 4, 0)],
)
def test_the_exact_endgame_agrees_with_every_line_of_play(
    name: str, players: int, left: int
) -> None:
    """`solve` against a plain minimax, from random positions with `left` tiles in hands
    (`draw` once the boneyard is down to its reserve; 0: from the lead, two tiles each)."""
    rules = PRESETS[name]
    if not left:
        rules = dataclasses.replace(
            rules, hand_sizes=((4, 2),), targets=((4, 100),), teams=Teams.OPPOSITE_PAIRS
        )
        left = 2 * players
    rng = random.Random(7)
    outcomes = set()
    solved = 0
    while solved < 60:
        state = started_hand(rules, players, rng)
        while state.result is None and (
            state.drawable or sum(h.bit_count() for h in state.hands) > left
        ):
            actions = state.legal_actions()
            state.apply(state.turn, actions[rng.randrange(len(actions))])
        if state.result is not None:
            continue
        solved += 1
        seat = rng.randrange(players)
        expected = _minimax(state, seat)
        assert solve(state.copy(), seat) == expected
        outcomes.add(expected)
    assert outcomes == {-1, 1} or outcomes == {-1, 0, 1}


def test_the_opening_model_reads_only_the_opponents_first_plays() -> None:
    """With partners, `HEAVY` over the first six actions holds of greedy seats, assumes more
    than nothing, never reads the partner's plays, and reads nothing after its six actions."""
    rules = PRESETS["kozel"]
    read_more = read_later = 0
    for seed in range(30):
        for state in _greedy_walk(rules, 4, seed):
            if state.turn != 0:
                continue
            view = HandView(state, 0)
            truth = Hidden(tuple(state.hands), tuple(state.boneyard[state._drawn :]))
            plain = cannot_hold(view)
            opening = Sampler(view, OpponentModel.HEAVY, 6)
            assert opening.consistent(truth)  # greedy seats lay a tile with the most pips
            assert all(m & w == w for m, w in zip(opening.cannot, plain, strict=True))
            assert opening.cannot[2] == plain[2]  # the partner is never modelled
            read_more += opening.cannot != plain
            # Reading every action assumes at least as much, and more now and then: the six
            # actions' limit is what keeps the later plays out.
            later = Sampler(view, OpponentModel.HEAVY)
            assert all(m & o == o for m, o in zip(later.cannot, opening.cannot, strict=True))
            read_later += later.cannot != opening.cannot
    assert read_more and read_later
