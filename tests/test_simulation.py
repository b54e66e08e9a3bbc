"""Local bot games: deterministic for a seed, and complete; `simulate --rules FILE|NAME`."""

import json
import os
import subprocess
import sys
from pathlib import Path

from p2p_dominoes.bots import greedy_bot, random_bot
from p2p_dominoes.engine import DRAW_RULES, PRESETS
from p2p_dominoes.simulation import simulate
from p2p_dominoes.store import save_rule_set
from p2p_dominoes.store.paths import DATA_DIR_ENV


def test_the_same_seed_gives_the_same_games() -> None:
    one = simulate(DRAW_RULES, 3, [random_bot] * 3, ["random"] * 3, seed=42, hands=50)
    two = simulate(DRAW_RULES, 3, [random_bot] * 3, ["random"] * 3, seed=42, hands=50)
    other = simulate(DRAW_RULES, 3, [random_bot] * 3, ["random"] * 3, seed=43, hands=50)
    assert one.to_dict() | {"hands_per_second": 0} == two.to_dict() | {"hands_per_second": 0}
    assert one.points != other.points


def test_a_whole_match_ends_with_one_winner_or_a_draw_for_every_preset() -> None:
    for rules in PRESETS.values():
        for players in rules.player_counts:
            report = simulate(rules, players, [greedy_bot] * players, ["greedy"] * players, 9)
            assert report.matches == 1
            assert sum(report.matches_won) + report.matches_drawn == 1
            assert max(report.points) >= rules.target(players)


def _simulate(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "p2p_dominoes", "simulate", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_secure_simulation_plays_the_rules_of_a_file(tmp_path: Path) -> None:
    rules = tmp_path / "kitchen.json"
    sizes = [[2, 6], [3, 6], [4, 5]]
    data = {"base": "draw-until-play", "name": "kitchen", "hand_sizes": sizes}
    rules.write_text(json.dumps(data))
    out = _simulate("--secure", "--players", "3", "--rules", str(rules), "--seed", "2", "--json")
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert report["rules"] == "kitchen"
    assert report["verify"] == "clean" and report["identical_transcripts"] and not report["blame"]


def test_a_rules_file_with_a_conflict_is_refused_in_one_line(tmp_path: Path) -> None:
    rules = tmp_path / "bad.json"
    rules.write_text(json.dumps({"base": "draw", "hand_sizes": [[2, 15], [3, 7], [4, 6]]}))
    out = _simulate("--rules", str(rules))
    assert out.returncode == 2
    assert out.stderr.count("\n") == 1 and f"--rules {rules}: rules: " in out.stderr
    out = _simulate("--rules", str(tmp_path / "missing.json"))
    assert out.returncode == 2 and "is neither a preset (" in out.stderr


def test_a_rule_set_saved_on_the_rules_page_is_played_by_name(tmp_path: Path) -> None:
    save_rule_set(tmp_path, "kitchen", {"base": "draw-until-play", "rounding": 5})
    env = {**os.environ, DATA_DIR_ENV: str(tmp_path)}
    out = subprocess.run(
        [sys.executable, "-m", "p2p_dominoes", "simulate", "--rules", "kitchen", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["rules"] == "kitchen"
