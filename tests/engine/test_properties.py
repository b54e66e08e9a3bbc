"""Properties over random legal play, for every preset and player count (hypothesis)."""

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from p2p_dominoes.bots import greedy_bot, random_bot
from p2p_dominoes.engine import (
    PRESETS,
    Draw,
    Drawing,
    HandEnd,
    HandState,
    HandView,
    Layout,
    Match,
    Rules,
    load_record,
    record_of,
    replay,
)
from p2p_dominoes.engine.tiles import ALL_TILES_MASK, mask_of
from p2p_dominoes.simulation import deal
from tests.engine.end_count_oracle import PlayScorer, play_points

GAMES = st.sampled_from(
    [
        (rules, players)
        for rules in PRESETS.values()
        if rules.layout is Layout.LINE  # the shapes: tests/engine/test_shapes_properties.py
        for players in rules.player_counts
    ]
)


def play_out(
    rules: Rules, players: int, seed: int, check: bool = True
) -> tuple[Match, list[HandState]]:
    """A whole match with random and greedy bots, checking conservation and the points scored
    during play (recounted by `PlayScorer`) after every action."""
    rng = random.Random(seed)
    match = Match(rules, players)
    bots = [random_bot if seat % 2 == 0 else greedy_bot for seat in range(players)]
    hands: list[HandState] = []
    while not match.outcome.over and len(hands) < 40:
        dealt, boneyard = deal(rules, players, rng)
        started = match.start_hand(dealt, boneyard, lottery=rng.getrandbits(32))
        if started is None:  # nobody holds a ranked tile and the fallback is a redeal
            match.void_hand()
            continue
        hand = started
        scorer = PlayScorer.for_hand(hand)
        while hand.result is None:
            seat = hand.turn
            action = bots[seat](HandView(hand, seat), rng)
            hand.apply(seat, action)
            if check:
                assert_tiles_conserved(hand)
                drawn = hand.drawn_tiles[-1] if isinstance(action, Draw) else None
                scorer.after(seat, action, hand, drawn)
                scorer.check(hand)
        if check:
            assert hand.result is not None
            if rules.pairs:  # nothing scores during play in a partnership game here
                assert hand.result.points == recount(hand)
            else:
                assert hand.result.points == play_points(hand, scorer, recount(hand))
        match.finish_hand(hand)
        hands.append(hand)
    return match, hands


def assert_tiles_conserved(hand: HandState) -> None:
    """Hands, line and the undrawn boneyard hold each of the 28 tiles exactly once."""
    in_hands = 0
    for mask in hand.hands:
        assert not in_hands & mask
        in_hands |= mask
    line = mask_of(hand.line.tiles)
    undrawn = mask_of(hand.boneyard[len(hand.drawn_tiles) :])
    assert len(hand.line.tiles) == line.bit_count()
    assert not in_hands & line and not in_hands & undrawn and not line & undrawn
    assert in_hands | line | undrawn == ALL_TILES_MASK


def recount(hand: HandState) -> tuple[int, ...]:
    """Points of a finished hand, recounted naively from the tiles left in hand and the
    switches «Кто и что записывает», «Рыба», rounding and the minimum."""
    rules = hand.rules
    pips = [sum(t.pips for t in hand.hand_of(seat)) for seat in range(hand.players)]
    units = hand.players
    if rules.pairs:  # partners: seats 0+2 against 1+3, every amount the pair's
        pips, units = [pips[0] + pips[2], pips[1] + pips[3]], 2
    amounts = [0] * units
    assert hand.result is not None
    if hand.result.end in (HandEnd.VOID, HandEnd.TARGET) or rules.hand_scoring.value in (
        "none",
        "luck-settlement",
    ):
        return tuple(amounts)  # nothing recorded from the pips left in hand
    lowest = min(pips)
    domino = hand.result.end is HandEnd.DOMINO
    if domino:
        closer = next(s for s in range(hand.players) if not hand.hand_of(s))
        winner: int | None = closer % 2 if rules.pairs else closer
    else:
        winner = pips.index(lowest) if pips.count(lowest) == 1 else None
    less = lowest if not domino and rules.block_scoring.value == "lowest-takes-difference" else 0
    if not domino and rules.block_scoring.value == "all-to-worst":
        worst = max(pips)
        if pips.count(worst) == 1 and worst != lowest:
            amounts[pips.index(worst)] = sum(pips)
    elif rules.hand_scoring.value == "leader-takes":
        if winner is not None:
            # a lone [0|0] elsewhere also counts 0, but does not tie
            amounts[winner] = sum(p for s, p in enumerate(pips) if s != winner) - less
    else:
        losers = [s for s in range(units) if (s != winner if domino else pips[s] > lowest)]
        if rules.hand_scoring.value == "worst-own" and losers:
            top = max(pips[s] for s in losers)
            losers = [s for s in losers if pips[s] == top]
        for s in losers:
            amounts[s] = pips[s] - less
    out = []
    for amount in amounts:
        m = rules.rounding
        rounded = (amount + m // 2) // m * m
        out.append(rounded if rounded >= rules.min_record else 0)
    return tuple(out)


@settings(max_examples=60, deadline=None)
@given(game=GAMES, seed=st.integers(0, 2**32))
def test_tiles_are_conserved_and_scores_match_an_independent_recount(
    game: tuple[Rules, int], seed: int
) -> None:
    rules, players = game
    match, hands = play_out(rules, players, seed)
    totals = [0] * rules.units(players)
    for hand in hands:
        assert hand.result is not None
        if hand.result.end is HandEnd.BLOCK:
            assert hand.passes == players
            assert hand.boneyard_size <= rules.reserve or rules.drawing is Drawing.NEVER
        totals = [t + p for t, p in zip(totals, hand.result.recorded, strict=True)]
        if rules.winner_reset and hand.result.ceremonies and hand.result.winner is not None:
            totals[hand.result.winner] = 0  # «Победитель обнуляется»
    assert match.scores == totals


@settings(max_examples=60, deadline=None)
@given(game=GAMES, seed=st.integers(0, 2**32))
def test_every_hand_replayed_from_its_record_gives_the_same_result(
    game: tuple[Rules, int], seed: int
) -> None:
    rules, players = game
    match, hands = play_out(rules, players, seed, check=False)
    scores = (0,) * rules.units(players)
    for number, hand in enumerate(hands, start=1):
        text = json.dumps(record_of(hand, scores, number).to_dict())
        replayed = replay(load_record(text))
        assert replayed.result == hand.result
        assert replayed.state.line.tiles == hand.line.tiles
        assert replayed.state.history == hand.history
        assert replayed.match is not None
        scores = replayed.scores
    assert list(scores) == match.scores


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_bots_decide_from_the_view_alone(seed: int) -> None:
    """Two hands that look the same from a seat get the same decision from the same rng."""
    rules = PRESETS["draw"]
    rng = random.Random(seed)
    dealt, boneyard = deal(rules, 3, rng)
    others = dealt[1] + dealt[2] + boneyard
    rng.shuffle(others)  # same seat-0 hand, different hidden tiles everywhere else
    swapped = [dealt[0], others[:7], others[7:14]]
    first = HandState(rules, dealt, boneyard, 0)
    second = HandState(rules, swapped, others[14:], 0)
    for bot in (random_bot, greedy_bot):
        a = bot(HandView(first, 0), random.Random(seed))
        b = bot(HandView(second, 0), random.Random(seed))
        assert a == b


@settings(max_examples=40, deadline=None)
@given(name=st.sampled_from(sorted(PRESETS)), seed=st.integers(0, 2**32))
def test_the_ends_after_a_play_are_those_laying_it_leaves(name: str, seed: int) -> None:
    """`Line.ends_after` (what a bot weighs a play by) names the open places' numbers that
    laying the play on a copy of the table leaves, on a line and on every board."""
    rules = PRESETS[name]
    players = max(rules.player_counts)
    rng = random.Random(seed)
    match = Match(rules, players)
    hand = None
    while hand is None:
        hand = match.start_hand(*deal(rules, players, rng), lottery=rng.getrandbits(64))
    while hand.result is None:
        for play in hand.legal_plays():
            trial = hand.line.copy()
            trial.lay(play.tile, play.place, play.along)
            after = hand.line.ends_after(play.tile, play.place, play.along)
            assert after == [place.value for place in trial.places], (play, hand.history)
        actions = hand.legal_actions()
        hand.apply(hand.turn, actions[rng.randrange(len(actions))])
