"""`bench bots`: the duel's bookkeeping and its figures (strength is measured, never asserted)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from p2p_dominoes.benchmarks.bots import duel, wilson_interval
from p2p_dominoes.bots import greedy_bot, random_bot
from p2p_dominoes.cli import main
from p2p_dominoes.engine import BLOCK, DRAW_RULES


def test_the_wilson_interval_holds_the_rate_and_narrows_with_more_hands() -> None:
    low, high = wilson_interval(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    wide, narrow = wilson_interval(55, 100), wilson_interval(550, 1000)
    assert wide[0] < 0.55 < wide[1] and narrow[0] < 0.55 < narrow[1]
    assert narrow[1] - narrow[0] < wide[1] - wide[0]
    assert wilson_interval(0, 20)[0] == 0.0 < wilson_interval(0, 20)[1] < 0.2
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_bot_a_moves_a_seat_on_each_match_and_every_hand_is_counted() -> None:
    played = duel(BLOCK, 4, ("greedy", greedy_bot), ("random", random_bot), hands=200, seed=3)
    assert played.hands == 200 == sum(played.hands_by_seat)
    assert all(n > 0 for n in played.hands_by_seat)  # every seat order was played
    assert 0 <= played.hands_won <= played.hands and 0 <= played.matches_won <= played.matches
    assert played.matches >= 4
    assert len(played.decision_seconds) > played.hands  # bot A's decisions
    assert len(played.against_seconds) > played.hands  # and, apart, bot B's


def test_whole_matches_are_played_with_seats_alternating() -> None:
    played = duel(
        DRAW_RULES, 2, ("greedy", greedy_bot), ("random", random_bot), 1, seed=4, matches=6
    )
    # Six whole matches (the one-hand budget is ignored), A's seat moving on each one.
    assert played.matches == 6 and played.hands > 6
    assert all(n > 0 for n in played.hands_by_seat)
    assert len(played.decision_wall) == len(played.decision_seconds) > played.hands
    assert len(played.against_wall) == len(played.against_seconds) > played.hands


def test_the_same_seed_plays_the_same_duel() -> None:
    first = duel(DRAW_RULES, 2, ("greedy", greedy_bot), ("random", random_bot), 120, seed=9)
    again = duel(DRAW_RULES, 2, ("greedy", greedy_bot), ("random", random_bot), 120, seed=9)
    assert (first.hands_won, first.matches_won, first.points) == (
        again.hands_won,
        again.matches_won,
        again.points,
    )


def test_the_cli_prints_the_promised_json(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["bench", "bots", "--rules", "block", "--players", "3", "--bot", "greedy"]
    assert main([*argv, "--against", "random", "--hands", "60", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["bot"] == "greedy" and out["against"] == "random" and out["hands"] == 60
    assert 0 <= out["hand_win_rate"] <= 1 and len(out["hand_win_ci95"]) == 2
    low, high = out["hand_win_ci95"]
    assert low <= out["hand_win_rate"] <= high
    assert 0 <= out["match_win_rate"] <= 1
    assert set(out["ms_per_decision"]) == {"mean", "p95", "max"}
    assert out["ms_per_decision"]["mean"] > 0
    assert out["clock"] == "thread CPU" and out["against_wall_ms_per_decision"]["mean"] > 0


def test_the_cli_plays_whole_matches(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["bench", "bots", "--rules", "fives", "--bot", "greedy", "--against", "random"]
    assert main([*argv, "--matches", "4", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["matches"] == 4 and out["hands"] >= 4
    assert main(["bench", "bots", "--against", "alphabeta", "--matches", "3"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--matches" in err


def test_the_text_report_names_every_figure(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "bots", "--hands", "40"]) == 0
    text = capsys.readouterr().out
    for words in (
        "hands won:",
        "95 %:",
        "matches won:",
        "points per hand:",
        "per decision (thread CPU):",
        "wall clock:",
    ):
        assert words in text, text


def test_unknown_rules_or_a_seat_count_they_lack_are_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["bench", "bots", "--rules", "nosuch", "--hands", "5"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "'nosuch' is neither a preset" in err
    two_only = tmp_path / "two.json"
    two_only.write_text(json.dumps({"base": "draw", "hand_sizes": [[2, 7]], "targets": [[2, 100]]}))
    assert main(["bench", "bots", "--rules", str(two_only), "--players", "4", "--hands", "5"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not 4" in err
