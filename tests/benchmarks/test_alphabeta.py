"""`bench bots --against alphabeta`: our hand and the PyPI `dominoes` game stay in step, the
figures are promised, bad options are one line (strength is measured, never asserted)."""

from __future__ import annotations

import json
import random
import sys
from typing import Any

import pytest

from p2p_dominoes.benchmarks import alphabeta
from p2p_dominoes.benchmarks.alphabeta import (
    BLOCK_PAIRS,
    MISSING_PACKAGE,
    OutOfStep,
    check_in_step,
    head_to_head,
    our_play,
    package_game,
)
from p2p_dominoes.bots import greedy_bot, random_bot
from p2p_dominoes.cli import main
from p2p_dominoes.engine import Action, HandState, HandView, Match, Play, SeatView
from p2p_dominoes.simulation import deal

dominoes = pytest.importorskip("dominoes")

CHEAP = ["--samples", "1", "--start-move", "20"]
"""The package player searching only the last moves, on one guessed deal: fast."""


def _dealt(seed: int) -> HandState:
    rng = random.Random(seed)
    hands, boneyard = deal(BLOCK_PAIRS, 4, rng)
    state = Match(BLOCK_PAIRS, 4).start_hand(hands, boneyard, lottery=rng.getrandbits(64))
    assert state is not None
    return state


def test_the_rules_are_the_packages_game() -> None:
    assert BLOCK_PAIRS.pairs and BLOCK_PAIRS.player_counts == (4,)
    assert BLOCK_PAIRS.hand_size(4) == 7 and BLOCK_PAIRS.reserve == 0


def test_the_games_stay_in_step_over_many_random_hands(monkeypatch: pytest.MonkeyPatch) -> None:
    """Random A against the package: every hand's end is checked, and the package's own result
    gives the same tally of hands won, tied and lost."""
    last_seat_of_a = [-1]
    by_package = {"won": 0, "tied": 0, "lost": 0}

    def spy(view: SeatView, rng: random.Random) -> Action:
        last_seat_of_a[0] = view.seat
        return random_bot(view, rng)

    real_check = alphabeta._check_result

    def tally(state: HandState, game: Any) -> None:
        real_check(state, game)
        winner = alphabeta._package_winner(game)
        pair_of_a = last_seat_of_a[0] % 2
        key = "tied" if winner is None else "won" if winner == pair_of_a else "lost"
        by_package[key] += 1

    monkeypatch.setattr(alphabeta, "_check_result", tally)
    played = head_to_head(("random", spy), hands=1000, seed=4, samples=1, start_move=20)
    assert played.hands == 1000 == sum(by_package.values())
    assert by_package["won"] == played.hands_won and by_package["tied"] == played.ties
    assert played.hands_won + played.ties + by_package["lost"] == played.hands
    assert played.matches >= 50 and played.against_seconds and played.decision_seconds


def test_the_same_seed_plays_the_same_head_to_head_and_leaves_random_alone() -> None:
    random.seed(99)
    before = random.getstate()
    first = head_to_head(("greedy", greedy_bot), hands=30, seed=7, samples=2, start_move=16)
    assert random.getstate() == before
    again = head_to_head(("greedy", greedy_bot), hands=30, seed=7, samples=2, start_move=16)
    assert (first.hands_won, first.ties, first.points) == (
        again.hands_won,
        again.ties,
        again.points,
    )


def test_a_desynchronised_package_game_is_caught() -> None:
    state = _dealt(1)
    game = package_game(dominoes, state)
    check_in_step(state, game)  # the deal agrees
    other = package_game(dominoes, _dealt(2))
    with pytest.raises(OutOfStep, match="holds"):
        check_in_step(state, other)
    game.make_move(*game.valid_moves[0])  # a move made only on the package's side
    with pytest.raises(OutOfStep, match="holds"):
        check_in_step(state, game)


def test_a_turn_or_an_end_out_of_step_is_caught() -> None:
    state = _dealt(3)
    game = package_game(dominoes, state)
    game.turn = (state.turn + 1) % 4
    with pytest.raises(OutOfStep, match="plays next"):
        check_in_step(state, game)
    game = package_game(dominoes, state)
    lead = next(a for a in state.legal_plays() if not a.tile.is_double)
    state.apply(state.turn, lead)
    domino = next(
        d for d in game.hands[game.turn] if {d.first, d.second} == {lead.tile.low, lead.tile.high}
    )
    game.hands[game.turn].play(domino)  # the same tile gone, but never laid on the board
    game.turn = state.turn
    with pytest.raises(OutOfStep, match="open ends"):
        check_in_step(state, game)


def test_a_package_move_that_is_no_legal_play_is_caught() -> None:
    state = _dealt(5)
    game = package_game(dominoes, state)
    view = HandView(state, state.turn)
    held = game.hands[state.turn][0]
    assert isinstance(our_play(view, game, (held, True)), Play)  # a lead of a tile it holds
    foreign = next(d for d in game.hands[(state.turn + 1) % 4])
    with pytest.raises(OutOfStep, match="no legal play"):
        our_play(view, game, (foreign, True))


def test_the_cli_prints_the_promised_json(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["bench", "bots", "--against", "alphabeta", "--bot", "hard", "--think-ms", "2"]
    assert main([*argv, "--hands", "6", "--rules", "block", *CHEAP, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    for key in (
        "hands",
        "hands_won",
        "hand_win_rate",
        "hand_win_ci95",
        "ties",
        "matches",
        "matches_won",
        "ms_per_decision",
        "against_ms_per_decision",
        "time_ratio",
    ):
        assert key in out, key
    assert out["against"] == "alphabeta" and out["players"] == 4 and out["hands"] == 6
    assert out["rules"] == "block-pairs" and out["hands_by_seat"][0] == out["hands_by_seat"][2]
    assert set(out["ms_per_decision"]) == set(out["against_ms_per_decision"])
    assert set(out["ms_per_decision"]) == {"mean", "p95", "max"}
    assert (out["samples"], out["start_move"], out["think_ms"]) == (1, 20, 2)
    assert out["package"].startswith("dominoes ")


def test_the_text_report_names_both_sides_times(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["bench", "bots", "--against", "alphabeta", "--players", "4", "--hands", "3"]
    assert main([*argv, *CHEAP]) == 0
    text = capsys.readouterr().out
    for words in (
        "hands won:",
        "won by nobody",
        "alphabeta's time per decision (thread CPU):",
        "time ratio",
    ):
        assert words in text, text


@pytest.mark.parametrize(
    ("options", "words"),
    [
        (["--against", "alphabeta", "--players", "2"], "leave out --players"),
        (["--against", "alphabeta", "--rules", "draw"], "leave out --rules"),
        (["--against", "alphabeta", "--think-ms", "5"], "--think-ms is for --bot hard or expert"),
        (["--think-ms", "5", "--bot", "medium"], "not medium"),
        (["--samples", "3"], "--samples is for --against alphabeta only"),
        (["--start-move", "3"], "--start-move is for --against alphabeta only"),
    ],
)
def test_usage_errors_are_one_line(
    options: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["bench", "bots", *options, "--hands", "2"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1, captured.err
    assert words in captured.err


def test_think_ms_caps_a_hard_bot_in_the_ordinary_bench(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["bench", "bots", "--bot", "hard", "--think-ms", "1", "--hands", "4", "--json"]) == 0
    )
    assert json.loads(capsys.readouterr().out)["think_ms"] == 1


def test_without_the_package_the_bench_says_so_in_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "dominoes", None)
    assert main(["bench", "bots", "--against", "alphabeta", "--hands", "2"]) == 1
    captured = capsys.readouterr()
    assert captured.err == MISSING_PACKAGE + "\n" and captured.out == ""
