"""`simulate --rules kozel`: partner bots by default, the match told hand by hand as "us and
them", and the report per pair."""

from __future__ import annotations

import json
import re

from tests.commands.test_simulate_command import run


def test_a_kozel_match_is_told_by_pairs_and_ends_with_the_goat() -> None:
    out = run("simulate", "--rules", "kozel", "--players", "4", "--match", "--seed", "5")
    assert out.returncode == 0, out.stderr
    hands = re.findall(r"^Hand \d+: ", out.stdout, re.M)
    leads = re.findall(r"^  seat \d plays \[1\|1\]$", out.stdout, re.M)
    assert hands and len(leads) == len(hands)  # every hand is opened with [1|1]
    assert "Scores: seats 1 & 3 " in out.stdout and ", seats 2 & 4 " in out.stdout
    assert "reached the target: the goat." in out.stdout and " win the match: " in out.stdout
    assert "  seats 1 & 3 (partner, partner): " in out.stdout  # partner is Kozel's default
    ru = run(
        "simulate", "--rules", "kozel", "--players", "4", "--match", "--seed", "5", "--lang", "ru"
    )
    assert "доходят до цели — «козёл»." in ru.stdout and "Матч выигрывают места " in ru.stdout


def test_the_json_report_has_one_entry_per_pair() -> None:
    out = run(
        "simulate", "--rules", "kozel", "--players", "4", "--hands", "40", "--seed", "2", "--json"
    )
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert report["bots"] == ["partner"] * 4
    assert len(report["hands_won"]) == len(report["points"]) == len(report["matches_won"]) == 2
    assert sum(report["hands_won"]) <= report["hands"] == 40
