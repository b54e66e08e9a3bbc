"""The bots' play-outs: a hand played to its end by a policy, on the engine's own hand.

A search copies a `HandState` and plays it out: every move is one that `legal_actions` lists
and `apply` carries out, so the rules a bot plays out are the engine's, not a copy of them.
What lives here is only how the seats choose — uniform random, `greedy`, a blocker (greedy
that first prefers a play after which the next seat has nothing that fits), Kozel's pairs —
and the exact end-game solve (alpha-beta over every line of play)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from p2p_dominoes.bots.partner import partner_play
from p2p_dominoes.bots.strategies import greedy_play, weight
from p2p_dominoes.engine.actions import DRAW, PASS, Action, Play
from p2p_dominoes.engine.hand import HandState
from p2p_dominoes.engine.rules import MoveScoring
from p2p_dominoes.engine.scoring import HandResult
from p2p_dominoes.engine.tiles import TILES, VALUE_MASK, mask_of

_MOVES_NONE: Final = MoveScoring.NONE
_BLOCKS: Final = 256
"""What a blocking play adds to its tile's `weight` (more than any weight)."""

HEAVIER: Final[tuple[int, ...]] = tuple(
    mask_of(t for t in TILES if weight(t) > weight(tile)) for tile in TILES
)
"""HEAVIER[tile.index]: the tiles greedy would lay before it (`weight`: more pips, or as many
and a higher half)."""
MORE_PIPS: Final[tuple[int, ...]] = tuple(
    mask_of(t for t in TILES if t.pips > tile.pips) for tile in TILES
)
"""MORE_PIPS[tile.index]: the tiles with more pips than it."""


def _plays(actions: list[Action]) -> list[Play]:
    """The plays at the front of `actions` (`legal_actions` lists them first), in place."""
    while type(actions[-1]) is not Play:
        actions.pop()
    return actions  # type: ignore[return-value]


def greedy_action(state: HandState) -> Action:
    """`greedy`'s move for the seat to act (`strategies.greedy_play`; with no play: skip a
    second double, else draw, else pass — the first action `legal_actions` lists then)."""
    actions = state.legal_actions()
    if type(actions[0]) is not Play:
        return actions[0]
    return greedy_play(state.rules, state.line, state.turn, _plays(actions))


def blocking_action(state: HandState) -> Action:
    """A blocker's move: a play after which the next seat holds nothing that fits, the
    heaviest such; else `greedy_action` (a search's own seat in its play-outs: it sees the
    sampled hands). Rules whose turns are simple (a line with two ends)."""
    actions = state.legal_actions()
    if type(actions[0]) is not Play:
        return actions[0]
    line = state.line
    following = state.hands[(state.turn + 1) % state.players]
    best = -1
    chosen = actions[0]
    for play in _plays(actions):
        fitting = 0
        for value in line.ends_after(play.tile, play.place):
            fitting |= VALUE_MASK[value]
        key = weight(play.tile) + (0 if following & fitting else _BLOCKS)
        if key > best:
            best, chosen = key, play
    return chosen


def play_greedy(state: HandState, blocker: int = -1) -> HandResult:
    """Play `state` out with every seat `greedy_action`, except that seat `blocker` (if any)
    plays `blocking_action`; the result."""
    result = state.result
    while result is None:
        seat = state.turn
        state.apply(seat, blocking_action(state) if seat == blocker else greedy_action(state))
        result = state.result
    return result


def play_random(state: HandState, rng: random.Random) -> HandResult:
    """Play `state` out with uniform random moves: each step takes
    `legal_actions()[int(rng.random() * len(legal_actions()))]` (the engine benchmark's
    play-out); the result."""
    uniform = rng.random
    result = state.result
    while result is None:
        actions = state.legal_actions()
        state.apply(state.turn, actions[int(uniform() * len(actions))])
        result = state.result
    return result


def play_pairs(state: HandState, pair: int, lacks: Sequence[int]) -> HandResult:
    """Play a 4-seat partnership hand out: the seats of `pair` (0 or 1) as `partner` reading
    `lacks` (per seat, bits 1 << number of the numbers it surely lacks), the others greedy; a
    pass teaches everyone that the seat lacks both ends, a draw forgets what was known. Rules
    whose turns are simple (a line with two ends)."""
    known = list(lacks)
    result = state.result
    while result is None:
        seat = state.turn
        action = _partner_action(state, known) if seat % 2 == pair else greedy_action(state)
        if action is PASS and state.line.tiles:
            places = state.line.places
            known[seat] |= (1 << places[0].value) | (1 << places[-1].value)
        elif action is DRAW:
            known[seat] = 0
        state.apply(seat, action)
        result = state.result
    return result


def _partner_action(state: HandState, lacks: Sequence[int]) -> Action:
    """`partner`'s move for the seat to act, with partners (`partner.partner_play`)."""
    actions = state.legal_actions()
    if type(actions[0]) is not Play:
        return actions[0]
    seat = state.turn
    return partner_play(
        state.line,
        _plays(actions),
        state.hands[seat],
        lacks,
        (seat + 1) % 4,
        (seat + 3) % 4,
        (seat + 2) % 4,
    )


def solve(state: HandState, seat: int) -> int:
    """The hand's outcome for `seat`'s side under best play by every seat, each seeing every
    hand: 1 it wins, 0 nobody does (a blocked hand), -1 it loses. Needs two sides (two seats,
    or two pairs), rules that score nothing during play (then going out wins) and nothing
    left to draw (`drawable` is 0): a search's exact endgame, alpha-beta over win, draw and
    loss on copies of `state`, which it plays out (the caller's copy is used up)."""
    assert state.rules.move_scoring is _MOVES_NONE
    assert state.result is not None or not state.drawable
    assert state.players == 2 or (state.players == 4 and state.rules.pairs)
    # The window is the outcomes' own range: a line found to win (or lose) for the side to
    # move ends that node's search, and the root's value is still exact.
    value = _solve(state, -1, 1)
    return value if seat % 2 == 0 else -value


def _solve(state: HandState, alpha: int, beta: int) -> int:
    """`solve` for side 0 (seats 0 and 2) within the window (alpha, beta); heavier tiles are
    tried first (they cut more)."""
    result = state.result
    if result is not None:
        winner = result.winner
        return 0 if winner is None else (1 if winner == 0 else -1)
    actions = state.legal_actions()
    if len(actions) > 1 and type(actions[1]) is Play:
        actions.sort(key=_heavier_first)
    maxing = state.turn % 2 == 0
    best = -2 if maxing else 2
    last = len(actions) - 1
    for index, action in enumerate(actions):
        child = state if index == last else state.copy()
        child.apply(child.turn, action)
        value = _solve(child, alpha, beta)
        if maxing:
            if value > best:
                best = value
                alpha = max(alpha, best)
        elif value < best:
            best = value
            beta = min(beta, best)
        if alpha >= beta:
            break
    return best


def _heavier_first(action: Action) -> int:
    """A sort key: plays by `weight`, the heaviest first, then any other action."""
    return -weight(action.tile) if type(action) is Play else 0
