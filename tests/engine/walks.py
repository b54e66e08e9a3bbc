"""Hands of random legal play for the tests: a started hand, and every state of one."""

from __future__ import annotations

import random
from collections.abc import Iterator

from p2p_dominoes.engine import HandState, Match, Rules
from p2p_dominoes.simulation import deal


def started_hand(rules: Rules, players: int, rng: random.Random) -> HandState:
    """The first hand of a match of `rules` that starts (a deal the opening voids is dealt
    again), dealt from `rng`."""
    match = Match(rules, players)
    while True:
        hands, boneyard = deal(rules, players, rng)
        hand = match.start_hand(hands, boneyard, lottery=rng.getrandbits(64))
        if hand is not None:
            return hand
        match.void_hand()


def walk(rules: Rules, players: int, seed: int, finished: bool = False) -> Iterator[HandState]:
    """Every state of one hand of random legal actions, before each action (the same object,
    moved on); with `finished`, the finished hand last."""
    rng = random.Random(seed)
    state = started_hand(rules, players, rng)
    while state.result is None:
        yield state
        actions = state.legal_actions()
        state.apply(state.turn, actions[rng.randrange(len(actions))])
    if finished:
        yield state
