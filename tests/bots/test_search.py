"""The search API: copies, positions from a view, inference, sampling, the fast play-out."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator

import pytest

from p2p_dominoes.bots import greedy_bot
from p2p_dominoes.bots.search import (
    FastHand,
    Hidden,
    OpponentModel,
    PositionError,
    Sampler,
    cannot_hold,
    fast_move,
    position,
    sample_hidden,
    sample_position,
    snapshot,
)
from p2p_dominoes.engine import DRAW_RULES, PRESETS, HandState, HandView, Match, Rules, parse_tile
from p2p_dominoes.engine.actions import Play
from p2p_dominoes.engine.rules import Teams
from p2p_dominoes.engine.tiles import mask_of
from p2p_dominoes.engine.view import legal_actions
from p2p_dominoes.simulation import deal
from tests.engine.dealing import deal as deal_text

PLAYERS = (2, 3, 4)


def _start(rules: Rules, players: int, rng: random.Random) -> HandState:
    match = Match(rules, players)
    while True:
        hands, boneyard = deal(rules, players, rng)
        hand = match.start_hand(hands, boneyard, lottery=rng.getrandbits(64))
        if hand is not None:
            return hand
        match.void_hand()


def _walk(rules: Rules, players: int, seed: int) -> Iterator[HandState]:
    """Every state of one random hand (random legal actions), before each action."""
    rng = random.Random(seed)
    state = _start(rules, players, rng)
    while state.result is None:
        yield state
        actions = state.legal_actions()
        state.apply(state.turn, actions[rng.randrange(len(actions))])


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
        for state in _walk(rules, players, seed):
            view = HandView(state, state.turn)
            cannot = cannot_hold(view)
            for seat in range(players):
                assert not cannot[seat] & state.hands[seat], (seed, seat, len(state.history))


def _greedy_walk(rules: Rules, players: int, seed: int) -> Iterator[HandState]:
    """Every state of one hand in which every seat but 0 plays `greedy` (0 plays at random)."""
    rng = random.Random(seed)
    state = _start(rules, players, rng)
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
    [(n, p) for n, p in _cases() if FastHand.fits(PRESETS[n]) and not PRESETS[n].pairs],
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
        for state in _walk(PRESETS["house"], players, seed):  # random seats: far from greedy
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
        for state in _walk(rules, players, seed):
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
        for state in _walk(rules, players, seed):
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


@pytest.mark.parametrize(
    ("name", "players"), [(n, p) for n, p in _cases() if FastHand.fits(PRESETS[n])]
)
def test_the_fast_path_moves_and_scores_as_apply_does(name: str, players: int) -> None:
    rules = PRESETS[name]
    for seed in range(150):
        rng = random.Random(seed)
        state = _start(rules, players, rng)
        fast = FastHand(state)
        while state.result is None:
            actions = state.legal_actions()
            assert {fast_move(state, a) for a in actions} == set(fast.moves())
            action = actions[rng.randrange(len(actions))]
            fast.step(fast_move(state, action))
            state.apply(state.turn, action)
            assert fast.hands == state.hands and fast.turn == state.turn
        assert fast.end is not None and fast.result() == state.result


def test_the_fast_greedy_play_out_ends_as_apply_scores_it() -> None:
    for seed in range(100):
        state = _start(DRAW_RULES, 2, random.Random(seed))
        fast = FastHand(state)
        moves = []
        probe = fast.copy()
        while probe.end is None:
            moves.append(probe.greedy_move())
            probe.step(moves[-1])
        result = fast.play_greedy()
        assert result == probe.result()
        # The same moves through the validated path.
        for move in moves:
            match = [a for a in state.legal_actions() if fast_move(state, a) == move]
            state.apply(state.turn, match[0])
        assert state.result == result


@pytest.mark.parametrize(
    ("name", "players"), [(n, p) for n, p in _cases() if FastHand.fits(PRESETS[n])]
)
def test_the_random_play_out_picks_as_a_loop_over_moves_would(name: str, players: int) -> None:
    rules = PRESETS[name]
    for seed in range(60):
        fast = FastHand(_start(rules, players, random.Random(seed)))
        probe = fast.copy()
        rng = random.Random(seed)
        while probe.end is None:
            moves = probe.moves()
            probe.step(moves[int(rng.random() * len(moves))])
        assert fast.play_random(random.Random(seed)) == probe.result()
        assert fast.hands == probe.hands and fast.turn == probe.turn


@pytest.mark.parametrize(
    ("name", "players"), [(n, p) for n, p in _cases() if FastHand.fits(PRESETS[n])]
)
def test_a_play_out_of_a_finished_hand_changes_nothing(name: str, players: int) -> None:
    rules = PRESETS[name]
    for seed in range(30):
        fast = FastHand(_start(rules, players, random.Random(seed)))
        while fast.end is None:  # the last move ends the hand, as a search's trial move may
            fast.step(fast.greedy_move())
        for blocker in (-1, fast.turn):
            finished = fast.copy()
            assert finished.play_greedy(blocker) == fast.result()
            assert finished.hands == fast.hands and finished.closer == fast.closer
        finished = fast.copy()
        assert finished.play_random(random.Random(seed)) == fast.result()
        assert finished.hands == fast.hands and finished.closer == fast.closer


def test_a_fast_copy_has_every_field_and_its_own_hands() -> None:
    fast = FastHand(_start(DRAW_RULES, 2, random.Random(5)))
    copy = fast.copy()
    assert all(getattr(copy, name) == getattr(fast, name) for name in FastHand.__slots__)
    copy.step(copy.moves()[0])
    assert copy.hands != fast.hands


@pytest.mark.parametrize(("players"), PLAYERS)
def test_a_blockers_play_out_is_blocking_move_for_it_and_greedy_for_the_rest(
    players: int,
) -> None:
    for seed in range(80):
        fast = FastHand(_start(DRAW_RULES, players, random.Random(seed)))
        blocker = seed % players
        probe = fast.copy()
        while probe.end is None:
            probe.step(probe.blocking_move() if probe.turn == blocker else probe.greedy_move())
        assert fast.play_greedy(blocker) == probe.result()
        assert fast.hands == probe.hands


def test_a_blocker_leaves_the_next_seat_nothing_that_fits() -> None:
    state = deal_text(
        DRAW_RULES,
        ["6|5 6|1 1|1 1|2 1|3 1|4 2|3", "6|6 5|5 0|5 0|0 0|2 2|2 0|3"],
        opener=1,
    )
    state.apply(1, Play(parse_tile("6|6")))
    fast = FastHand(state)
    plays = {fast_move(state, a): a.tile.text for a in state.legal_plays()}
    # Greedy lays the heavier [5|6]; seat 1 could follow it, and has no 1 for [1|6].
    assert plays[fast.greedy_move()] == "[5|6]"
    assert plays[fast.blocking_move()] == "[1|6]"


def test_fast_form_is_refused_for_rules_with_turn_switches() -> None:
    state = _start(PRESETS["fives"], 2, random.Random(0))
    with pytest.raises(PositionError, match="plain turns"):
        FastHand(state)


def test_own_draws_are_what_the_seat_drew() -> None:
    state = deal_text(DRAW_RULES, ["6|6", "0|0 0|1 0|2 0|3 0|4 0|5 1|1"], boneyard="2|3 6|1")
    state.apply(0, Play(parse_tile("6|6")))
    state.apply(1, state.legal_actions()[-1])  # draw 2|3
    state.apply(1, state.legal_actions()[-1])  # draw 6|1, which fits
    view = HandView(state, 1)
    assert [t.text for t in view.own_draws] == ["[2|3]", "[1|6]"]
    assert mask_of(view.own_draws) & state.hands[1] == mask_of(view.own_draws)


def test_the_samplers_fast_form_is_the_fast_form_of_its_position() -> None:
    rng = random.Random(3)
    for seed in range(30):
        for state in _walk(DRAW_RULES, 2, seed):
            sampler = Sampler(HandView(state, state.turn))
            hidden = sampler.hidden(rng)
            direct, checked = sampler.fast(hidden), FastHand(sampler.position(hidden))
            assert direct.moves() == checked.moves()
            assert direct.play_greedy() == checked.play_greedy()


def _minimax(fast: FastHand, seat: int) -> int:
    """Every line of play, no pruning: the outcome for `seat`'s side (1, 0 or -1)."""
    if fast.end is not None:
        winner = fast.result().winner
        return 0 if winner is None else (1 if winner == seat % 2 else -1)
    values = []
    for move in fast.moves():
        child = fast.copy()
        child.step(move)
        values.append(_minimax(child, seat))
    return max(values) if fast.turn % 2 == seat % 2 else min(values)


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
        fast = FastHand(_start(rules, players, rng))
        while fast.end is None and (
            not fast.drawing_over() or sum(h.bit_count() for h in fast.hands) > left
        ):
            moves = fast.moves()
            fast.step(moves[rng.randrange(len(moves))])
        if fast.end is not None:
            continue
        solved += 1
        seat = rng.randrange(players)
        assert fast.solve(seat) == _minimax(fast, seat)
        outcomes.add(_minimax(fast, seat))
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
