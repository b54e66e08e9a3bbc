"""Head to head against the PyPI package `dominoes`: a pair of our bot A against a pair of its
`probabilistic_alphabeta` player, in the package's game (4-player partnership block).

Why: it is the one published dominoes player we can run here; it samples the hidden hands and
runs a perfect-information alpha-beta search on each. Our engine runs the hands (`duel`, whole
matches, A's pair changing each match); a `dominoes.Game` is kept in step with every deal and
action and checked against our hand after each one, so both players play the same game by the
same rules. A disagreement raises `OutOfStep`: it is a bug in this bench, never a result.

The package is optional (the `test` extra) and imported only when this bench runs. Its player
draws from the global `random` module; the bench seeds it from `seed` and restores it after.
"""

from __future__ import annotations

import dataclasses
import random
import sys
from collections.abc import Callable
from importlib import metadata
from types import ModuleType
from typing import Any, Final

from p2p_dominoes.benchmarks import SAMPLES, START_MOVE
from p2p_dominoes.benchmarks.bots import BotDuel, duel, print_duel
from p2p_dominoes.bots import Bot
from p2p_dominoes.engine import (
    BLOCK,
    PASS,
    Action,
    BlockScoring,
    HandEnd,
    HandState,
    Match,
    Pass,
    Play,
    SeatView,
    legal_actions,
    tile_of,
)
from p2p_dominoes.engine.rules import Teams
from p2p_dominoes.words import line

BLOCK_PAIRS: Final = dataclasses.replace(
    BLOCK,
    name="block-pairs",
    teams=Teams.OPPOSITE_PAIRS,
    hand_sizes=((4, 7),),
    targets=((4, 61),),
    block_scoring=BlockScoring.LOWEST_TAKES,
)
"""The package's game in our rules: 7 tiles each to four, no boneyard, pass when stuck, seats
0+2 against 1+3; going out wins for the pair, a blocked hand goes to the pair with fewer pips
(equal: nobody)."""

PLAYERS: Final = 4

MISSING_PACKAGE: Final = (
    "bench bots --against alphabeta needs the PyPI package `dominoes` (pip install dominoes)"
)


class OutOfStep(Exception):
    """The package's game and ours disagree: a bug in this bench, never a result."""


def _package() -> ModuleType | None:
    """The `dominoes` package with its players module, or None when it is not installed."""
    try:
        import dominoes  # type: ignore[import-untyped]
        import dominoes.players  # type: ignore[import-untyped]
    except ImportError:
        return None
    module: ModuleType = dominoes
    return module


def package_game(dominoes: ModuleType, state: HandState) -> Any:
    """A `dominoes.Game` at the start of `state` (just dealt): the same hands, the same opener."""
    hands = [
        dominoes.Hand([dominoes.Domino(t.high, t.low) for t in state.hand_of(seat)])
        for seat in range(state.players)
    ]
    return dominoes.Game(
        board=dominoes.Board(),
        hands=hands,
        moves=[],
        turn=state.turn,
        valid_moves=tuple((d, True) for d in hands[state.turn]),
        starting_player=state.turn,
        result=None,
    )


def _next_to_play(state: HandState) -> int | None:
    """The seat that plays next, skipping those who must pass (the package's turn); None when
    the hand is over or nobody can play."""
    if state.result is not None:
        return None
    for step in range(state.players):
        seat = (state.turn + step) % state.players
        if state.playable_mask(seat):
            return seat
    return None


def _package_winner(game: Any) -> int | None:
    """The pair the package's result names (its `points` are from pair 0's side), or None."""
    points = game.result.points
    return None if points == 0 else (0 if points > 0 else 1)


def _ends(game: Any) -> list[int]:
    board = game.board
    return sorted((board.left_end(), board.right_end())) if len(board) else []


def check_in_step(state: HandState, game: Any) -> None:
    """Raise `OutOfStep` unless the package's `game` shows what our `state` shows: each seat's
    tiles, the two open ends, who plays next, and once over the same winner and ending."""
    for seat in range(state.players):
        ours = sorted(t.text for t in state.hand_of(seat))
        theirs = sorted(tile_of(d.first, d.second).text for d in game.hands[seat])
        if ours != theirs:
            raise OutOfStep(
                f"seat {seat} holds {len(ours)} tiles {''.join(ours)} here but {len(theirs)} "
                f"{''.join(theirs)} in the package's game"
            )
    ours_ends = sorted(place.value for place in state.line.places)
    if ours_ends != _ends(game):
        raise OutOfStep(f"the open ends are {ours_ends} here but {_ends(game)} in the package's")
    following = _next_to_play(state)
    if following is not None and (game.result is not None or game.turn != following):
        theirs_turn = "over" if game.result is not None else f"seat {game.turn}'s turn"
        raise OutOfStep(f"seat {following} plays next here, the package's game is {theirs_turn}")
    if following is None and game.result is None:
        raise OutOfStep(f"nobody can play here, the package's game is at seat {game.turn}'s turn")
    if state.result is not None:
        _check_result(state, game)


def _check_result(state: HandState, game: Any) -> None:
    result = state.result
    assert result is not None
    went_out = result.end is HandEnd.DOMINO
    if went_out != bool(game.result.won) or (went_out and result.closer != game.result.player):
        raise OutOfStep(f"the hand ended {result.end} here but as {game.result} in the package's")
    if result.winner != _package_winner(game):
        raise OutOfStep(
            f"pair {result.winner} won here, the package's result {game.result} names "
            f"pair {_package_winner(game)}"
        )


def package_move(game: Any, play: Play) -> tuple[Any, bool]:
    """Our `play` as the package's move (domino, left): the end is the one showing the number
    our play attaches to (the left when both show it, as the package lists only the left)."""
    tile = play.tile
    domino = next((d for d in game.hands[game.turn] if tile_of(d.first, d.second) is tile), None)
    if domino is None:
        raise OutOfStep(f"{tile.text} is not in seat {game.turn}'s hand in the package's game")
    board = game.board
    if play.place is None:
        if len(board):
            raise OutOfStep(f"{play} leads here, the package's board is {board}")
        return domino, True
    if not len(board):
        raise OutOfStep(f"{play} is not a lead here, the package's board is empty")
    value = play.place.value
    if board.left_end() == value:
        return domino, True
    if board.right_end() == value:
        return domino, False
    raise OutOfStep(f"{play} needs a {value}, the package's board is {board}")


def our_play(view: SeatView, game: Any, move: tuple[Any, bool]) -> Play:
    """The package's `move` as one of our legal plays: the same tile on the same number."""
    domino, left = move
    tile = tile_of(domino.first, domino.second)
    board = game.board
    value = None if not len(board) else (board.left_end() if left else board.right_end())
    for action in legal_actions(view):
        if isinstance(action, Play) and action.tile is tile and _number_of(action) == value:
            return action
    raise OutOfStep(f"the package plays {domino} on {value}, which is no legal play here")


def _number_of(play: Play) -> int | None:
    """The number `play` attaches to (None for a lead)."""
    return None if play.place is None else play.place.value


class _Mirror:
    """The package's game kept in step with ours, and its player as one of our bots."""

    def __init__(self, dominoes: ModuleType, samples: int, start_move: int) -> None:
        self._dominoes = dominoes
        self._order = dominoes.players.bota_gorda  # heaviest first, also inside the search
        self._search = dominoes.players.probabilistic_alphabeta(
            start_move=start_move, sample_size=samples, player=self._order
        )
        self.game: Any = None

    def observe(self, match: Match, state: HandState, seat: int, action: object) -> None:
        """After the deal (seat −1) or an action: the same on the package's game, then check."""
        if seat < 0:
            self.game = package_game(self._dominoes, state)
        elif isinstance(action, Play):
            self._mirror_play(seat, action)
        elif isinstance(action, Pass):
            if self.game.result is None and self.game.turn == seat:
                raise OutOfStep(f"seat {seat} passed here, the package says it can play")
        else:
            raise OutOfStep(f"{action} is not an action of the block game")
        check_in_step(state, self.game)

    def _mirror_play(self, seat: int, play: Play) -> None:
        game = self.game
        if game.result is not None or game.turn != seat:
            raise OutOfStep(f"seat {seat} played {play} here, out of turn in the package's game")
        move = package_move(game, play)
        if move not in game.valid_moves:
            raise OutOfStep(f"{play} is {move} for the package, not among {game.valid_moves}")
        game.make_move(*move)

    def decide(self, view: SeatView, rng: random.Random) -> Action:
        """The package player's choice as our action (a pass when the seat cannot play): the
        players reorder `valid_moves` by preference and the first is played."""
        if not view.legal_plays():
            return PASS
        game = self.game
        if game.result is not None or game.turn != view.seat:
            raise OutOfStep(f"seat {view.seat} is to play here, not in the package's game")
        self._order(game)
        self._search(game)
        return our_play(view, game, game.valid_moves[0])


def head_to_head(
    bot: tuple[str, Bot],
    hands: int,
    seed: int,
    samples: int = SAMPLES,
    start_move: int = START_MOVE,
    dominoes: ModuleType | None = None,
) -> BotDuel:
    """Play `hands` hands of `BLOCK_PAIRS`: a pair of bot A against a pair of the package's
    `probabilistic_alphabeta(start_move, sample_size=samples, player=bota_gorda)`."""
    package = dominoes or _package()
    if package is None:
        raise ImportError(MISSING_PACKAGE)
    mirror = _Mirror(package, samples, start_move)
    saved = random.getstate()
    random.seed(f"{seed}/dominoes")  # the package's player samples with the global generator
    try:
        result = duel(
            BLOCK_PAIRS,
            PLAYERS,
            bot,
            ("alphabeta", mirror.decide),
            hands,
            seed,
            observer=mirror.observe,
        )
    finally:
        random.setstate(saved)
    result.settings.update(
        package=f"dominoes {metadata.version('dominoes')}",
        samples=samples,
        start_move=start_move,
    )
    return result


def run_alphabeta_bench(
    bot: tuple[str, Bot],
    hands: int,
    seed: int,
    samples: int = SAMPLES,
    start_move: int = START_MOVE,
    as_json: bool = False,
    out: Callable[[str], None] = print,
    settings: dict[str, object] | None = None,
    lang: str = "en",
) -> int:
    """Print the head-to-head's figures (one JSON object with `as_json`, else text in `lang`);
    1 without the package."""
    package = _package()
    if package is None:
        print(line("bench.alphabeta.missing", lang), file=sys.stderr)
        return 1
    result = head_to_head(bot, hands, seed, samples, start_move, package)
    result.settings.update(settings or {})
    print_duel(result, True, as_json, out, lang)
    return 0
