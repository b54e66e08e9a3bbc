"""`p2p-dominoes replay`: text and JSON output, and exit status 2 with one line for bad records.

It reads what `verify` reads (a transcript, a table.log, a table's folder) as well as a plain JSON
hand record, and names the players in every result.
"""

import json
from pathlib import Path

import pytest

from tests.commands.records import (
    match_transcript,
    random_bytes,
    run,
    write_table_folder,
    write_transcript,
)
from tests.engine.test_record import EXAMPLE


def test_replay_prints_each_action_and_the_board(tmp_path: Path) -> None:
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(EXAMPLE))
    out = run("replay", str(path))
    assert out.returncode == 0, out.stderr
    assert "1: seat 2 plays [1|1] on [1|4] (low end)" in out.stdout  # seats count from 1
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
    assert summary["result"] == {
        "end": "block",
        "winner": 0,
        "points": [16, 0],
        "pips": [27, 43],
        "ceremonies": [],
        "title": None,
        "move_points": [],
        "bonuses": [],
        "tallies": [],
        "settlement": [],
    }
    assert summary["actions_scored"] == []
    assert summary["scores"] == [106, 10]
    assert summary["match"] == {
        "over": True,
        "winner": 0,
        "draw": False,
        "losers": [],
        "title": None,
    }


def _deal(hands: list[list[str]]) -> dict[str, object]:
    used = {t for h in hands for t in h}
    rest = [f"{a}|{b}" for a in range(7) for b in range(a, 7) if f"{a}|{b}" not in used]
    return {"hands": hands, "boneyard": rest}


def test_replay_json_reports_each_actions_points_and_a_target_reached_mid_hand(
    tmp_path: Path,
) -> None:
    """Fives at 24 : 0; the lead [2|3] makes 5 at the ends, one point, and the match is won
    there and then."""
    record = {
        "rules": {"base": "fives", "first_opener": "lottery"},
        "scores": [24, 0],
        "opener": 0,
        **_deal(
            [["2|3", "0|0", "0|1", "0|2", "0|3", "0|4"], ["6|6", "5|6", "5|5", "4|6", "4|5", "4|4"]]
        ),
        "actions": [{"seat": 0, "play": "2|3"}],
    }
    path = tmp_path / "fives.json"
    path.write_text(json.dumps(record))
    summary = json.loads(run("replay", str(path), "--json").stdout)
    assert summary["actions_scored"] == [{"action": 0, "seat": 0, "points": 1, "why": "ends"}]
    assert summary["result"]["end"] == "target" and summary["result"]["winner"] == 0
    assert summary["result"]["points"] == [1, 0] and summary["result"]["move_points"] == [1, 0]
    assert summary["board"].endswith("End total: 5.")
    assert summary["scores"] == [25, 0]
    assert summary["match"]["over"] and summary["match"]["winner"] == 0
    text = run("replay", str(path)).stdout
    assert "Seat 1: +1 (5 at the ends)." in text
    assert "Seat 1 reached the target in play; points this hand: seat 1 1, seat 2 0." in text


def test_replay_json_reports_threes_for_luck_nets_and_the_settlement(tmp_path: Path) -> None:
    """The two-player example of RULES_V2 §4.3, played on to a domino by seat 0."""
    record = {
        "rules": {"base": "threes-luck", "first_opener": "lottery", "hand_sizes": [[2, 3]]},
        "opener": 0,
        "hands": [["2|2", "4|5", "1|2"], ["2|4", "0|5", "1|4"]],
        "boneyard": ["1|1", "0|3", "2|5"]
        + [
            f"{a}|{b}"
            for a in range(7)
            for b in range(a, 7)
            if f"{a}|{b}" not in {"2|2", "4|5", "1|2", "2|4", "0|5", "1|4", "1|1", "0|3", "2|5"}
        ],
        "actions": [
            {"seat": 0, "play": "2|2"},
            {"seat": 1, "play": "2|4", "at": "2|2", "side": "A"},
            {"seat": 0, "play": "4|5", "at": "2|4"},
            {"seat": 1, "draw": True},
            {"seat": 1, "draw": True},
            {"seat": 1, "draw": True},
            {"seat": 1, "play": "2|5", "at": "4|5"},
            {"seat": 0, "play": "1|2", "at": "2|2", "side": "B"},
        ],
    }
    path = tmp_path / "luck.json"
    path.write_text(json.dumps(record))
    summary = json.loads(run("replay", str(path), "--json").stdout)
    assert [a["points"] for a in summary["actions_scored"]] == [8, 5, 10, -10, 5]
    result = summary["result"]
    assert result["end"] == "domino"
    assert result["tallies"] == [[18, 0], [0, 0]] and result["points"] == [18, 0]
    assert result["winner"] == 0 and result["settlement"] == [18, 0]
    assert summary["scores"] == [18, 0] and summary["match"]["over"]


def _fives_so_far(**rules: object) -> dict[str, object]:
    """Fives at 10 : 3, four plays in: [2|3] led (5 at the ends, 1 point to seat 0), [3|5]
    (7), [0|2] (5, 1 point to seat 0 or its partner), [5|5] across (10, 2 points)."""
    hands = [
        ["2|3", "0|0", "0|1", "0|4", "1|1"],
        ["3|5", "6|6", "5|6", "4|6", "4|4"],
        ["0|2", "1|2", "1|3", "1|4", "1|5"],
        ["5|5", "1|6", "2|2", "2|4", "2|5"],
    ]
    if not rules:  # two players, six tiles each
        hands = [hands[0] + hands[2][:1], hands[1] + hands[3][:1]]
    seats = len(hands)
    return {
        "rules": {"base": "fives", "first_opener": "lottery", **rules},
        "scores": [10, 3],
        "opener": 0,
        **_deal(hands),
        "actions": [
            {"seat": 0, "play": "2|3"},
            {"seat": 1, "play": "3|5", "at": "2|3"},
            {"seat": 2 % seats, "play": "0|2", "at": "2|3"},
            {"seat": 3 % seats, "play": "5|5", "at": "3|5"},
        ],
    }


def test_replay_json_of_an_unfinished_fives_hand_reports_the_points_so_far(
    tmp_path: Path,
) -> None:
    """Fives writes each placement's points as it is made: an unfinished hand reports them,
    and the scores with them, not zeros."""
    path = tmp_path / "fives.json"
    path.write_text(json.dumps(_fives_so_far()))
    summary = json.loads(run("replay", str(path), "--json").stdout)
    assert [a["points"] for a in summary["actions_scored"]] == [1, 1, 2]
    result = summary["result"]
    assert result["end"] == "unfinished" and result["winner"] is None
    assert result["points"] == [2, 2] and result["move_points"] == [2, 2]
    assert summary["scores"] == [12, 5] and not summary["match"]["over"]
    assert summary["text"] == (
        "The hand is unfinished; points this hand so far: seat 1 2, seat 2 2."
    )
    ru = json.loads(run("replay", str(path), "--json", "--lang", "ru").stdout)
    assert ru["text"] == "Сдача не окончена; очки за партию на сейчас: место 1 2, место 2 2."
    assert run("replay", str(path)).stdout.splitlines()[-1] == summary["text"]
    pairs = tmp_path / "pairs.json"
    four = {"teams": "opposite-pairs", "hand_sizes": [[4, 5]], "targets": [[4, 61]]}
    pairs.write_text(json.dumps(_fives_so_far(**four)))
    summary = json.loads(run("replay", str(pairs), "--json").stdout)
    assert summary["result"]["points"] == [2, 2] and summary["scores"] == [12, 5]
    assert summary["text"].endswith("so far: seat 1 & seat 3 2, seat 2 & seat 4 2.")


def test_replay_json_of_an_unfinished_threes_for_luck_hand_reports_the_tallies_so_far(
    tmp_path: Path,
) -> None:
    """The §4.3 example stopped before its last play: seat 0 has won 13, seat 1's lucky 10
    cancelled its penalty of 10; nothing is settled, so the match scores stay as they were."""
    record = {
        "rules": {"base": "threes-luck", "first_opener": "lottery", "hand_sizes": [[2, 3]]},
        "opener": 0,
        "hands": [["2|2", "4|5", "1|2"], ["2|4", "0|5", "1|4"]],
        "boneyard": ["1|1", "0|3", "2|5"]
        + [
            f"{a}|{b}"
            for a in range(7)
            for b in range(a, 7)
            if f"{a}|{b}" not in {"2|2", "4|5", "1|2", "2|4", "0|5", "1|4", "1|1", "0|3", "2|5"}
        ],
        "actions": [
            {"seat": 0, "play": "2|2"},
            {"seat": 1, "play": "2|4", "at": "2|2", "side": "A"},
            {"seat": 0, "play": "4|5", "at": "2|4"},
            {"seat": 1, "draw": True},
            {"seat": 1, "draw": True},
            {"seat": 1, "draw": True},
            {"seat": 1, "play": "2|5", "at": "4|5"},
        ],
    }
    path = tmp_path / "luck.json"
    path.write_text(json.dumps(record))
    summary = json.loads(run("replay", str(path), "--json").stdout)
    result = summary["result"]
    assert result["end"] == "unfinished"
    assert result["tallies"] == [[13, 0], [0, 0]] and result["points"] == [13, 0]
    assert result["settlement"] == [] and summary["scores"] == [0, 0]
    assert summary["text"] == (
        "The hand is unfinished; nets so far (wins − penalties): "
        "seat 1 +13 (13 − 0), seat 2 +0 (0 − 0)."
    )
    ru = json.loads(run("replay", str(path), "--json", "--lang", "ru").stdout)["text"]
    assert ru == (
        "Сдача не окончена; итог на сейчас (выигрыш − штраф): "
        "место 1 +13 (13 − 0), место 2 +0 (0 − 0)."
    )


def test_a_hand_record_that_fails_its_check_exits_1_like_a_tampered_transcript(
    tmp_path: Path,
) -> None:
    """An illegal move, a tile dealt twice: the record is read but fails its check (exit 1, as
    `verify` and a tampered transcript), where a file that is no record at all is exit 2."""
    path = tmp_path / "hand.json"
    bad = dict(EXAMPLE, actions=[{"seat": 0, "play": "1|4"}, {"seat": 2, "draw": True}])
    path.write_text(json.dumps(bad))
    out = run("replay", str(path))
    assert out.returncode == 1, out.stderr
    assert out.stdout == "" and out.stderr == (
        f"p2p-dominoes replay: {path}: action 1: seat 2 cannot draw: it is seat 1's turn\n"
    )
    twice = [EXAMPLE["hands"][0], EXAMPLE["hands"][0], EXAMPLE["hands"][2]]
    path.write_text(json.dumps(dict(EXAMPLE, hands=twice)))
    out = run("replay", str(path), "--json")
    assert out.returncode == 1 and out.stderr.count("\n") == 1, out.stderr
    assert "tile [1|4] is dealt twice" in out.stderr


def test_a_file_that_is_no_hand_record_exits_2_with_one_line(tmp_path: Path) -> None:
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(dict(EXAMPLE, hands="all of them")))
    out = run("replay", str(path))
    assert out.returncode == 2 and out.stderr.count("\n") == 1, out.stderr
    assert "'hands' must be a list of lists of tiles" in out.stderr
    assert "Traceback" not in out.stderr
    path.write_text("not json")
    out = run("replay", str(path))
    assert out.returncode == 2 and "not valid JSON" in out.stderr
    out = run("replay", str(tmp_path / "missing.json"))
    assert out.returncode == 2 and "cannot read" in out.stderr


def test_a_named_record_says_the_players_names(tmp_path: Path) -> None:
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(dict(EXAMPLE, players=["Ann", "Bob", "Cleo"])), encoding="utf-8")
    out = run("replay", str(path))
    assert out.returncode == 0, out.stderr
    assert "0: Ann plays [1|4]" in out.stdout
    assert "1: Bob plays [1|1] on [1|4] (low end)" in out.stdout
    assert "2: Cleo draws [1|3]" in out.stdout
    out = run("replay", str(path), "--lang", "ru")
    assert "1: Bob кладёт [1|1] к [1|4] (конец с меньшим значением)" in out.stdout
    path.write_text(json.dumps(dict(EXAMPLE, players=["Ann", "Bob"])))
    out = run("replay", str(path))
    assert out.returncode == 2 and "'players' must be 3 names" in out.stderr


@pytest.mark.parametrize("form", ["transcript", "table.log", "table folder"])
def test_replay_reads_a_transcript_a_table_log_and_a_table_folder(
    tmp_path: Path, form: str
) -> None:
    """A finished `--hands 2` match: two hands told with names, no third hand, a finished match."""
    if form == "transcript":
        path = write_transcript(tmp_path / "match.p2pd")
    else:
        folder = write_table_folder(tmp_path / "table")
        path = folder / "table.log" if form == "table.log" else folder
    out = run("replay", str(path))
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert "Hand 1: keys committed and revealed, shuffling" in lines
    assert "Hand 2: keys committed and revealed, shuffling" in lines
    assert not any(line.startswith("Hand 3") for line in lines)  # the hand that never happened
    assert [seat.name for seat in match_transcript().genesis.seats] == ["Ann", "Bob"]
    assert any(line.startswith("Match finished after 2 of 2 hands: Ann ") for line in lines)
    assert lines[-1] == "verify: clean, match finished after 2 of 2 hands"
    assert not any("seat 0" in line or "seat 1" in line for line in lines)
    assert "codec" not in out.stderr


def test_replay_of_an_unfinished_log_says_how_far_it_got(tmp_path: Path) -> None:
    last_five_missing = len(match_transcript()) - 5  # hand 2 is not over
    folder = write_table_folder(tmp_path / "table", count=last_five_missing)
    out = run("replay", str(folder))
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[-1] == "verify: clean, match unfinished (1 of 2 hands)"


def test_a_tampered_transcript_replays_to_the_failure_and_exits_1(tmp_path: Path) -> None:
    transcript = match_transcript()
    data = bytearray(transcript.to_bytes())
    middle = transcript.entries[len(transcript.entries) // 2].encoded  # signature last
    data[data.index(middle) + len(middle) - 1] ^= 0x10  # a signature byte, not the framing
    path = tmp_path / "bad.p2pd"
    path.write_bytes(bytes(data))
    out = run("replay", str(path))
    assert out.returncode == 1
    last = out.stdout.splitlines()[-1]
    assert last.startswith("verify: message #")
    assert "(Ann, seat 1)" in last or "(Bob, seat 2)" in last


def test_what_is_not_a_record_is_exit_2_with_one_line(tmp_path: Path) -> None:
    cases = {
        "random bytes": (random_bytes(tmp_path / "junk.bin"), "is not a p2p-dominoes record"),
        "empty file": (tmp_path / "empty.p2pd", "is empty"),
        "folder without a log": (tmp_path / "folder", "is a folder with no table.log in it"),
        "missing": (tmp_path / "missing.p2pd", "cannot read"),
    }
    (tmp_path / "empty.p2pd").write_bytes(b"")
    (tmp_path / "folder").mkdir()
    for case, (path, said) in cases.items():
        out = run("replay", str(path))
        assert out.returncode == 2, case
        assert out.stdout == "", case
        assert out.stderr.count("\n") == 1 and said in out.stderr, (case, out.stderr)
        assert "Traceback" not in out.stderr and "codec" not in out.stderr, case


@pytest.mark.parametrize(
    ("lang", "clean", "failed"),
    [
        ("en", "verify: clean, ", "verify: message #"),
        ("ru", "проверка: всё сходится, ", "проверка: сообщение №"),
    ],
)
def test_replay_says_its_verdict_in_the_language(
    tmp_path: Path, lang: str, clean: str, failed: str
) -> None:
    out = run("replay", str(write_transcript(tmp_path / "match.p2pd")), "--lang", lang)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[-1].startswith(clean)
    transcript = match_transcript()
    data = bytearray(transcript.to_bytes())
    middle = transcript.entries[len(transcript.entries) // 2].encoded
    data[data.index(middle) + len(middle) - 1] ^= 0x10  # a signature byte
    path = tmp_path / "bad.p2pd"
    path.write_bytes(bytes(data))
    out = run("replay", str(path), "--lang", lang)
    assert out.returncode == 1
    assert out.stdout.splitlines()[-1].startswith(failed)
