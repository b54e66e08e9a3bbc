"""`p2p-dominoes simulate` and `bench engine` from the command line."""

import json
import subprocess
import sys


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "p2p_dominoes", *args], capture_output=True, text=True, timeout=120
    )


def test_simulate_match_prints_every_hand_and_the_winner() -> None:
    out = run("simulate", "--match", "--players", "3", "--seed", "3")
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("Hand 1: seat ")
    assert "boneyard: 7 tiles, 2 never drawn" in out.stdout
    assert "wins the match" in out.stdout or "match is drawn" in out.stdout
    assert "matches 1:" in out.stdout


def test_simulate_json_is_deterministic_for_a_seed() -> None:
    args = (
        "simulate",
        "--rules",
        "block",
        "--hands",
        "30",
        "--seed",
        "11",
        "--json",
        "--bot",
        "greedy",
        "--bot",
        "random",
    )
    first, second = json.loads(run(*args).stdout), json.loads(run(*args).stdout)
    first.pop("hands_per_second")
    second.pop("hands_per_second")
    assert first == second
    assert first["bots"] == ["greedy", "random", "random", "random"]
    assert first["hands"] == 30


def test_simulate_verbose_shows_the_board_in_russian() -> None:
    out = run("simulate", "--hands", "1", "--verbose", "--lang", "ru", "--seed", "1")
    assert out.returncode == 0, out.stderr
    assert "Кости: " in out.stdout and "Допустимые места продолжения" in out.stdout


def test_simulate_refuses_bad_options_with_one_line() -> None:
    out = run("simulate", "--bot", "clever")
    assert out.returncode == 2 and "unknown bot 'clever'" in out.stderr
    out = run("simulate", "--hands", "0")
    assert out.returncode == 2 and "argument --hands: 0 is not 1–1000000" in out.stderr


def test_engine_benchmark_prints_figures_and_the_ratio() -> None:
    out = run("bench", "engine", "--seconds", "0.2", "--json")
    assert out.returncode == 0, out.stderr
    figures = json.loads(out.stdout)
    assert figures["block_4p_hands_per_s"] > 0
    assert figures["dominoes_block_4p_hands_per_s"] > 0
    assert figures["ratio_block_4p_vs_dominoes"] > 0
    for path in ("block_4p", "playout_block_4p"):
        # The median of the rounds' ratios, inside its own interval.
        low, high = figures[f"ratio_{path}_vs_dominoes_ci95"]
        assert 0 < low <= figures[f"ratio_{path}_vs_dominoes"] <= high
