"""`p2p-dominoes replay`: text and JSON output, and exit status 2 with one line for bad records."""

import json
import subprocess
import sys
from pathlib import Path

from tests.engine.test_record import EXAMPLE


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "p2p_dominoes", *args], capture_output=True, text=True, timeout=60
    )


def test_replay_prints_each_action_and_the_board(tmp_path: Path) -> None:
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(EXAMPLE))
    out = run("replay", str(path))
    assert out.returncode == 0, out.stderr
    assert "1: seat 1 plays [1|1] on [1|4] (low end)" in out.stdout
    assert "Tiles: [1|4], [1|1]. Connections: [1|4] (low end) – [1|1] (side A)." in out.stdout
    assert out.stdout.strip().endswith("The hand is unfinished.")


def test_replay_json_reports_the_board_result_and_match(tmp_path: Path) -> None:
    finished = dict(EXAMPLE)
    finished["rules"] = "block"
    finished["hands"] = [
        ["0|0", "1|1", "1|2", "2|2", "2|3", "3|3", "3|4"],
        ["1|3", "1|4", "1|5", "1|6", "2|4", "2|5", "2|6"],
    ]
    finished["scores"] = [90, 10]
    used = {t for h in finished["hands"] for t in h}
    finished["boneyard"] = [
        f"{a}|{b}" for a in range(7) for b in range(a, 7) if f"{a}|{b}" not in used
    ]
    finished["actions"] = [
        {"seat": 0, "play": "0|0"},
        {"seat": 1, "pass": True},
        {"seat": 0, "pass": True},
    ]
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(finished))
    out = run("replay", str(path), "--json", "--lang", "ru")
    assert out.returncode == 0, out.stderr
    summary = json.loads(out.stdout)
    assert summary["board"].startswith("Кости: [0|0]. Соединения: нет.")
    assert summary["result"] == {"end": "block", "winner": 0, "points": [16, 0], "pips": [27, 43]}
    assert summary["scores"] == [106, 10]
    assert summary["match"] == {"over": True, "winner": 0, "draw": False}


def test_a_bad_record_exits_2_with_one_line_and_no_traceback(tmp_path: Path) -> None:
    path = tmp_path / "hand.json"
    bad = dict(EXAMPLE, actions=[{"seat": 0, "play": "1|4"}, {"seat": 2, "draw": True}])
    path.write_text(json.dumps(bad))
    out = run("replay", str(path))
    assert out.returncode == 2
    assert out.stderr.count("\n") == 1
    assert "action 1: seat 2 cannot draw: it is seat 1's turn" in out.stderr
    assert "Traceback" not in out.stderr
    path.write_text("not json")
    out = run("replay", str(path))
    assert out.returncode == 2 and "not valid JSON" in out.stderr
    out = run("replay", str(tmp_path / "missing.json"))
    assert out.returncode == 2 and "cannot read" in out.stderr
