"""Fives and Threes for luck between real OS processes over TCP on 127.0.0.1 (issue 14).

A one-hand table of each: the host and its joiners (bots) play it to the end, every record is
byte-identical and `verify` finds it clean, and the hand's exported record, replayed, says what
each move scored, adding up to the points of the hand (Fives: the placements plus the bonuses;
Threes for luck: wins less penalties, and the winner records the difference).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.net.lan_peers import cli_argv, play_on_loopback, verify_cli
from tests.net.netns import REPO_ROOT


def _play_one_hand(tmp_path: Path, rules: str, seats: int) -> Path:
    """A one-hand table of `rules` over TCP: the host with a greedy bot, the joiners random."""
    table = play_on_loopback(tmp_path, seats, "--rules", rules, "--hands", "1")
    line = verify_cli(table.records[0])
    assert f"head {table.final[:16]}" in line, line
    return table.records[0]


def _replayed_hand(tmp_path: Path, record: Path) -> dict[str, object]:
    """`export --hand 1` of the transcript, then `replay --json` of that hand record."""
    hand = tmp_path / "hand1.json"
    for argv in (
        cli_argv("export", "--hand", "1", "--output", str(hand), str(record)),
        cli_argv("replay", "--json", str(hand)),
    ):
        done = subprocess.run(
            argv, capture_output=True, text=True, timeout=120, cwd=REPO_ROOT, check=False
        )
        assert done.returncode == 0, done.stdout + done.stderr
    replayed: dict[str, object] = json.loads(done.stdout)
    return replayed


@pytest.mark.parametrize(("rules", "seats"), [("fives", 3), ("threes-luck", 2)])
def test_a_hand_that_scores_during_play_is_played_over_tcp_and_adds_up(
    tmp_path: Path, rules: str, seats: int
) -> None:
    record = _play_one_hand(tmp_path, rules, seats)
    hand = _replayed_hand(tmp_path, record)
    result = hand["result"]
    scored = hand["actions_scored"]
    assert isinstance(result, dict) and isinstance(scored, list)
    assert result["end"] in ("domino", "block", "exhausted"), result
    if rules == "fives":
        for seat in range(seats):
            moves = sum(s["points"] for s in scored if s["seat"] == seat)
            assert moves == result["move_points"][seat], (seat, scored, result)
            bonus = result["bonuses"][seat] if result["bonuses"] else 0
            assert result["points"][seat] == moves + bonus, result
        assert all(s["why"] == "ends" and s["points"] > 0 for s in scored), scored
    else:
        for seat in range(seats):
            wins = sum(s["points"] for s in scored if s["seat"] == seat and s["points"] > 0)
            penalties = -sum(s["points"] for s in scored if s["seat"] == seat and s["points"] < 0)
            kept_wins, kept_penalties = result["tallies"][seat]  # after wins cancel penalties
            assert kept_wins - kept_penalties == wins - penalties, (seat, scored, result)
            assert result["points"][seat] == wins - penalties, result
        nets = result["points"]
        winner = result["winner"]
        if winner is not None:  # the winner records the difference (never below 0)
            others = sum(n for seat, n in enumerate(nets) if seat != winner)
            assert result["settlement"][winner] == max(0, nets[winner] - others), result
        assert hand["scores"] == result["settlement"], hand
