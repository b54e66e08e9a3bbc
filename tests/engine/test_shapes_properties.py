"""Properties of random hands on every table shape and 2–4 seats (hypothesis): tiles are
conserved, a hand's record replays to the same board and result, and a hand is blocked exactly
when nobody can play."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from p2p_dominoes.bots import greedy_bot, random_bot
from p2p_dominoes.engine import (
    PRESETS,
    Board,
    HandEnd,
    HandState,
    HandView,
    Layout,
    Match,
    Rules,
    describe,
    load_record,
    record_of,
    replay,
)
from p2p_dominoes.engine.board import COMMON
from p2p_dominoes.engine.tiles import ALL_TILES_MASK, tiles_in
from p2p_dominoes.simulation import deal

SHAPED = [
    *(r for r in PRESETS.values() if r.layout is not Layout.LINE),
    Rules.from_dict({"base": "cross", "cross_quota": 3, "double_closes_ray": True}),
    Rules.from_dict({"base": "trains", "double_closes_ray": True, "doubles": "choice"}),
    Rules.from_dict({"base": "telephone", "drawing": "never", "double_closes_ray": True}),
    # End-count scoring reads the end total S of every shape (RULES_V2 §3.1).
    Rules.from_dict({"base": "fives", "layout": "telephone"}),
    Rules.from_dict({"base": "fives", "layout": "cross", "cross_quota": 2}),
    Rules.from_dict(
        {
            "base": "threes",
            "layout": "trains",
            "first_fallback": "redeal",
            "next_fallback": "redeal",
        }
    ),
]
GAMES = st.sampled_from([(rules, n) for rules in SHAPED for n in rules.player_counts])


def reachable(board: Board, seat: int) -> int:
    """Bits of the tiles that fit a place `seat` may use (§3.6 for trains), written afresh."""
    mask = 0
    for key, place in board.ends.items():
        if board.trains and key not in (seat, COMMON) and key not in board.markers:
            continue
        mask |= place.fits
    return mask


def play_hands(rules: Rules, players: int, seed: int) -> list[HandState]:
    rng = random.Random(seed)
    match = Match(rules, players)
    bots = [random_bot if s % 2 else greedy_bot for s in range(players)]
    hands: list[HandState] = []
    while not match.outcome.over and len(hands) < 12:
        dealt, boneyard = deal(rules, players, rng)
        hand = match.start_hand(dealt, boneyard, lottery=rng.getrandbits(32))
        if hand is None:
            match.void_hand()
            continue
        for _ in range(500):
            if hand.result is not None:
                break
            seat = hand.turn
            hand.apply(seat, bots[seat](HandView(hand, seat), rng))
            table = sum(t.bit for t in hand.line.tiles)
            held = 0
            for mask in hand.hands:
                assert not held & mask
                held |= mask
            undrawn = sum(t.bit for t in hand.boneyard[len(hand.drawn_tiles) :])
            assert not table & held and not (table | held) & undrawn
            assert table | held | undrawn == ALL_TILES_MASK
            assert len(hand.line.tiles) == len(set(hand.line.tiles))
        assert hand.result is not None, "a hand always ends"
        hands.append(hand)
        match.finish_hand(hand)
    return hands


@settings(max_examples=40, deadline=None)
@given(game=GAMES, seed=st.integers(0, 2**32))
def test_tiles_are_conserved_and_a_block_means_nobody_can_play(
    game: tuple[Rules, int], seed: int
) -> None:
    rules, players = game
    for hand in play_hands(rules, players, seed):
        assert hand.result is not None
        board = hand.line
        assert isinstance(board, Board)
        if hand.result.end is HandEnd.BLOCK:
            assert hand.drawable == 0
            for seat in range(players):
                assert not hand.hands[seat] & reachable(board, seat), (seat, describe(board))
        elif hand.result.end is HandEnd.DOMINO:
            assert hand.closer is not None and not hand.hands[hand.closer]
        else:  # end-count games also end when the boneyard runs out or a target is reached
            assert hand.result.end in (HandEnd.EXHAUSTED, HandEnd.TARGET)
            assert rules.end_when_boneyard_empty or rules.target_check.value == "immediate"


@settings(max_examples=40, deadline=None)
@given(game=GAMES, seed=st.integers(0, 2**32))
def test_every_hand_replays_from_its_record(game: tuple[Rules, int], seed: int) -> None:
    rules, players = game
    for hand in play_hands(rules, players, seed):
        data = record_of(hand, tuple(hand.match_scores)).to_dict()
        again = replay(load_record(json.dumps(data)))
        assert again.result == hand.result
        for lang in ("en", "ru"):
            assert describe(again.state.line, lang) == describe(hand.line, lang)
        assert again.state.history == hand.history
        assert list(tiles_in(again.state.hands[0])) == list(tiles_in(hand.hands[0]))
