"""The seed-004 games as matches: a target reached mid-hand ends the match there and then,
whole simulated matches of each preset at each seat count, and (hypothesis) the points of every
placement equal an independent recount of the end total S."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from p2p_dominoes.bots import greedy_bot, random_bot
from p2p_dominoes.engine import (
    PRESETS,
    TILES,
    Draw,
    HandEnd,
    HandView,
    Match,
    Rules,
    Tile,
    check_rules,
    describe,
    parse_tile,
)
from p2p_dominoes.engine.rules_check import greyed_fields
from p2p_dominoes.simulation import deal, simulate
from tests.engine.end_count_oracle import PlayScorer, play_points
from tests.engine.test_properties import recount

END_COUNT = ("fives", "threes", "threes-luck")
GAMES = st.sampled_from(
    [(PRESETS[name], n) for name in END_COUNT for n in PRESETS[name].player_counts]
)


def _tiles(text: str) -> list[Tile]:
    return [parse_tile(t) for t in text.split()]


def test_a_target_reached_mid_hand_ends_the_match_at_once() -> None:
    """Fives at 23 : 0 for two (target 25): [5|5] led makes 10 at the ends, 2 points; seat 0
    reaches 25 on the first move, the hand ends ("target") and the match with it."""
    fives = PRESETS["fives"]
    match = Match(fives, 2, scores=[23, 0])
    hands = [_tiles("5|5 5|6 6|6 4|6 3|6 2|6"), _tiles("1|6 0|6 4|5 3|5 2|5 1|5")]
    used = {t for h in hands for t in h}
    state = match.start_hand(hands, [t for t in TILES if t not in used])
    assert state is not None and state.opener == 0 and state.must_lead == parse_tile("5|5")
    state.apply(0, state.legal_actions()[0])
    assert state.result is not None and state.result.end is HandEnd.TARGET
    assert state.result.winner == 0 and state.result.points == (2, 0)
    outcome = match.finish_hand(state)
    assert outcome.over and outcome.winner == 0 and match.scores == [25, 0]


def test_without_an_immediate_check_the_hand_goes_on_past_the_target() -> None:
    later = Rules.from_dict({"base": "fives", "target_check": "hand-end"})
    match = Match(later, 2, scores=[23, 0])
    hands = [_tiles("5|5 5|6 6|6 4|6 3|6 2|6"), _tiles("1|6 0|6 4|5 3|5 2|5 1|5")]
    used = {t for h in hands for t in h}
    state = match.start_hand(hands, [t for t in TILES if t not in used])
    assert state is not None
    state.apply(0, state.legal_actions()[0])
    assert state.result is None and state.move_points == [2, 0]


def test_the_board_states_the_end_total_in_both_languages() -> None:
    fives = PRESETS["fives"]
    match = Match(fives, 2)
    hands = [_tiles("2|3 5|6 6|6 4|6 3|6 2|6"), _tiles("1|6 0|6 4|5 3|5 2|5 1|5")]
    used = {t for h in hands for t in h}
    state = match.start_hand(hands, [t for t in TILES if t not in used])
    assert state is not None
    lead = next(a for a in state.legal_actions() if getattr(a, "tile", None) == parse_tile("6|6"))
    state.apply(state.turn, lead)
    assert describe(state.line, "en", fives.reads_end_total).endswith("End total: 12.")
    assert describe(state.line, "ru", fives.reads_end_total).endswith("Сумма концов: 12.")


def test_the_editor_greys_the_end_of_hand_pip_switches_of_the_three_games() -> None:
    for name in END_COUNT:
        found = check_rules(PRESETS[name].to_dict())
        assert not [f for f in found if f.kind == "conflict"], name
        greyed = greyed_fields(found, PRESETS[name].player_counts)
        assert {"block_scoring", "rounding", "min_record"} <= set(greyed), name  # S2, S3, S4


def test_the_luck_scoring_needs_its_own_settlement() -> None:
    draft = PRESETS["threes"].to_dict() | {"move_scoring": "luck"}
    codes = [f.code for f in check_rules(draft) if f.kind == "conflict"]
    assert codes == ["K14"]


def test_whole_matches_of_each_preset_at_each_seat_count_are_simulated() -> None:
    for name in END_COUNT:
        rules = PRESETS[name]
        for players in rules.player_counts:
            report = simulate(
                rules, players, [greedy_bot, random_bot] * 2, ["g", "r"] * 2, seed=players
            )
            assert report.matches == 1, (name, players)
            if name == "threes-luck":
                assert report.hands == 1  # one hand is the whole game
            else:
                assert max(report.points) >= rules.target(players)


@settings(max_examples=120, deadline=None)
@given(game=GAMES, seed=st.integers(0, 2**32))
def test_every_placement_scores_what_an_independent_recount_of_s_gives(
    game: tuple[Rules, int], seed: int
) -> None:
    rules, players = game
    rng = random.Random(seed)
    match = Match(rules, players)
    bots = [random_bot, greedy_bot] * 2
    while not match.outcome.over:
        dealt, boneyard = deal(rules, players, rng)
        state = match.start_hand(dealt, boneyard)
        assert state is not None  # the fallback always names an opener
        scorer = PlayScorer.for_hand(state)
        while state.result is None:
            seat = state.turn
            action = bots[seat](HandView(state, seat), rng)
            state.apply(seat, action)
            drawn = state.drawn_tiles[-1] if isinstance(action, Draw) else None
            scorer.after(seat, action, state, drawn)
            scorer.check(state)
        assert state.result.points == play_points(state, scorer, recount(state))
        match.finish_hand(state)
