"""The difficulty levels: legal under every preset, blind to what the seat cannot see."""

from __future__ import annotations

import random

import pytest

from p2p_dominoes.bots import BOTS, bot_named, levels
from p2p_dominoes.bots.levels import (
    LEVEL_BUDGETS,
    LEVEL_FUNCTIONS,
    Budget,
    _lacked_numbers,
    expert,
    hard,
    medium,
)
from p2p_dominoes.bots.objective import Objective
from p2p_dominoes.bots.partner import partner_bot
from p2p_dominoes.bots.search import play_pairs, snapshot, solve
from p2p_dominoes.bots.strategies import greedy_bot
from p2p_dominoes.engine import DRAW_RULES, PRESETS, HandState, HandView, Play
from p2p_dominoes.engine import parse_tile as tile
from p2p_dominoes.engine.view import legal_actions
from tests.engine.dealing import deal as deal_text
from tests.engine.walks import started_hand

SMALL = Budget(3)
"""A budget that keeps the tests quick (strength is the benchmark's business)."""


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
            state = started_hand(rules, players, rng)
            while state.result is None:
                view = HandView(state, state.turn)
                # A detached copy of the view: the level cannot reach the state behind it.
                action = choose(snapshot(view), rng, SMALL)
                assert action in legal_actions(view), (level, name, players, action)
                state.apply(state.turn, action)


@pytest.mark.parametrize("choose", [medium, hard, expert])
def test_a_level_decides_the_same_whatever_the_hidden_tiles_are(choose: object) -> None:
    mine = "0|0 0|1 1|1 1|4 2|4 3|4 5|5"
    first = deal_text(DRAW_RULES, ["6|6 6|5 6|4 6|3 6|2 6|1 6|0", mine], boneyard="2|2 3|3")
    second = deal_text(DRAW_RULES, ["6|6 2|2 3|3 5|6 4|6 0|2 0|3", mine], boneyard="1|6 3|6")
    for state in (first, second):
        state.apply(0, Play(tile("6|6")))
    assert callable(choose)
    picked = {str(choose(HandView(s, 1), random.Random(5), Budget(20))) for s in (first, second)}
    assert len(picked) == 1


def _kozel_hands(count: int, seed: str) -> list[HandState]:
    """Finished Kozel hands, every seat greedy."""
    rng = random.Random(seed)
    finished = []
    for _ in range(count):
        state = started_hand(PRESETS["kozel"], 4, rng)
        while state.result is None:
            state.apply(state.turn, greedy_bot(HandView(state, state.turn), rng))
        finished.append(state)
    return finished


def test_with_partners_the_search_counts_the_partners_win_as_its_own() -> None:
    rules = PRESETS["kozel"]
    won = 0
    for state in _kozel_hands(30, "pairs"):
        result = state.result
        assert result is not None
        values = [Objective(rules, seat, 4, (0,) * 4, 101).value(result) for seat in range(4)]
        # Partners (0 and 2, 1 and 3) value a hand alike: the pair's result is theirs.
        assert values[0] == values[2] and values[1] == values[3]
        if result.winner is not None and any(result.points):
            won += 1
            assert values[result.winner] > 0.5 > values[1 - result.winner]
    assert won


def test_the_play_outs_partner_is_the_partner_strategy() -> None:
    """In a pair's play-out (`play_pairs`), a seat of the pair moves as `partner_bot` would
    when what each seat lacks is what the table shows."""
    rng = random.Random("partner-port")
    rules = PRESETS["kozel"]
    compared = 0
    for _ in range(25):
        state = started_hand(rules, 4, rng)
        while state.result is None:
            seat = state.turn
            view = HandView(state, seat)
            action = partner_bot(view, rng)
            if len(view.legal_plays()) > 1:
                probe = state.copy()
                play_pairs(probe, seat % 2, _lacked_numbers(view))
                assert probe.history[len(state.history)] == (seat, action)
                compared += 1
            state.apply(seat, action)
    assert compared > 100


def test_with_partners_every_seat_searches_for_its_pair() -> None:
    # Seats 2 and 3 score for pairs 0 and 1: valued as seats they would never win (there are two
    # units), every action would tie and the search would only echo medium's choice.
    rng = random.Random("pair-seats")
    rules = PRESETS["kozel"]
    differed = {2: 0, 3: 0}
    for _ in range(6):
        state = started_hand(rules, 4, rng)
        while state.result is None:
            seat = state.turn
            view = snapshot(HandView(state, seat))
            action = hard(view, rng, Budget(8))
            if seat in differed and len(view.legal_plays()) > 1:
                differed[seat] += action != medium(view, rng, SMALL)
            state.apply(seat, action)
    assert differed[2] and differed[3], differed


def test_the_pair_objective_prefers_the_partners_win_to_the_seats_own() -> None:
    # A Kozel hand, every tile known (one determinization): seat 3 (pair 1, with seat 1) to move.
    rules = PRESETS["kozel"]
    hands = [
        "4|5 2|2 4|6 1|1 3|3 6|6 2|3",
        "2|5 1|2 1|3 0|6 0|1 0|0 1|5",
        "5|5 0|2 3|6 1|6 5|6 2|6 3|4",
        "4|4 1|4 0|5 0|3 0|4 3|5 2|4",
    ]
    state = deal_text(rules, hands, opener=0, must_lead=tile("1|1"))
    played = [("1|1", None), ("1|5", 1), ("5|6", 5), ("1|4", 1), ("6|6", 6), ("0|6", 6)]
    played += [("3|4", 4), ("3|5", 3), ("4|5", 5), ("0|1", 0), ("1|6", 1)]
    for text, end in played:
        plays = state.legal_plays()
        chosen = next(
            p
            for p in plays
            if p.tile == tile(text) and (end is None or p.place is None or p.place.value == end)
        )
        state.apply(state.turn, chosen)
    assert state.turn == 3
    outcomes = []
    for action in state.legal_actions():
        trial = state.copy()
        trial.apply(3, action)
        result = play_pairs(trial, 1, [0, 0, 0, 0])
        value = Objective(rules, 3, 4, (0,) * 4, 101).value(result)
        outcomes.append((value, result.closer))
    best_value, best_closer = max(outcomes, key=lambda o: o[0])
    own = [o for o in outcomes if o[1] == 3]
    # Playing for itself, seat 3 would take the move after which it goes out; for the pair, the
    # one after which the pair does better still, although seat 3 does not go out itself.
    assert own and best_closer != 3
    assert best_value > max(value for value, _ in own)


def test_with_partners_expert_solves_its_samples_once_sixteen_tiles_are_left(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`expert` with partners plays its samples out until 16 tiles are left in hands, then
    solves them exactly (`solve`); `hard` never solves."""
    rules = PRESETS["kozel"]
    rng = random.Random("exact")
    left_at_solve: list[int] = []

    def counted(state: HandState, seat: int) -> int:
        left_at_solve.append(sum(h.bit_count() for h in state.hands))
        return solve(state, seat)

    monkeypatch.setattr(levels, "solve", counted)
    decided_late = 0
    for level, budget in ((hard, Budget(4)), (expert, Budget(4))):
        left_at_solve.clear()
        for _ in range(3):
            state = started_hand(rules, 4, rng)
            while state.result is None:
                view = snapshot(HandView(state, state.turn))
                decided_late += level is expert and sum(view.tile_counts) <= 16
                state.apply(state.turn, level(view, rng, budget))
        if level is hard:
            assert left_at_solve == []
    assert decided_late and left_at_solve
    assert max(left_at_solve) <= 15  # solved after one of at most 16 tiles is laid


def test_expert_thinks_as_long_as_hard_on_the_validated_path(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """At a table `expert`'s cap is 0.09 s on the fast path and `hard`'s 0.25 s where a sample
    costs more (Fives: turn switches); a budget given explicitly (`--think-ms`) is kept."""
    seen: list[Budget] = []

    def recorded(view: object, rng: object, budget: Budget, modelled: bool = False) -> object:
        seen.append(budget)
        return None

    monkeypatch.setattr(levels, "_search", recorded)
    rng = random.Random("budgets")
    for name in ("fives", "draw"):
        state = started_hand(PRESETS[name], 2, rng)
        expert(HandView(state, state.turn), rng, LEVEL_BUDGETS["expert"])
    explicit = Budget(200, 0.016)
    expert(HandView(state, state.turn), rng, explicit)
    assert [b.seconds for b in seen] == [0.25, 0.09, 0.016]
