"""`p2p-dominoes rules`: the presets, a rule set's switches with the greyed ones explained, the
check of a rules file (0 playable, 1 one line per conflict, 2 unreadable), and the rules page."""

from __future__ import annotations

import json
from pathlib import Path

from p2p_dominoes.engine.rules import FIELDS
from tests.commands.records import random_bytes, run


def rules_file(path: Path, data: object) -> str:
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def test_list_names_every_preset_in_both_languages() -> None:
    out = run("rules", "list")
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == [
        "draw: Draw dominoes (as Pagat has it)",
        "draw-until-play: Draw until you can play",
        "block: Block dominoes (no drawing)",
        "house: Dominoes (the default game)",
        "fives: Fives",
        "threes: Threes",
        "threes-luck: Threes for luck",
        "kozel: Kozel (the goat)",
        "kozel-ceremonies: Kozel with the old ceremonies",
        "cross: The cross (Donkey)",
        "telephone: The telephone",
        "trains: Trains",
    ]
    ru = run("rules", "list", "--lang", "ru").stdout
    assert "house: Домино (по умолчанию)" in ru
    assert "threes-luck: Тройное домино на счастье" in ru
    assert "kozel: Козёл" in ru


def test_show_gives_every_playable_switch_and_why_the_greyed_ones_do_nothing() -> None:
    out = run("rules", "show", "house")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "Rules: Dominoes (the default game), unchanged"
    assert "  Goal (goal, S5): reach it and lose (the classic)" in lines
    assert (
        "  Doubles crosswise (doubles, T1): on (crosswise) — no effect: In a line or trains a "
        "double's orientation changes nothing unless the end total counts."
    ) in lines
    assert "  Table shape (layout, F1): one line" in lines  # the shapes play (issue 16)
    assert "(teams, K0)" in out.stdout  # Kozel's pairs play (issue 15)
    shown = json.loads(run("rules", "show", "house", "--json").stdout)
    playable = {s.name for s in FIELDS if s.playable} - {"name"}
    assert {row["field"] for row in shown["switches"]} == playable
    weekday = next(row for row in shown["switches"] if row["field"] == "weekday")
    assert weekday["greyed"] and weekday["reasons"] == ["Only the weekday rule uses it."]
    assert shown["playable"] and shown["base"] == "house" and shown["rules"]["name"] == "house"


def test_show_a_file_in_russian_names_the_preset_and_what_differs(tmp_path: Path) -> None:
    path = rules_file(
        tmp_path / "kitchen.json", {"base": "house", "name": "kitchen", "draw_limit": 1}
    )
    out = run("rules", "show", path, "--lang", "ru")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[:2] == [
        "Правила «kitchen», на основе: Домино (по умолчанию):",
        "Если ходить нечем: одну кость и пас",
    ]
    assert "  Сколько костей можно прикупить за ход (draw_limit, W1): до 1" in lines


def test_check_a_playable_file_exits_0_and_lists_what_has_no_effect(tmp_path: Path) -> None:
    path = rules_file(tmp_path / "r.json", {"base": "draw-until-play"})
    out = run("rules", "check", path)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == f"{path}: playable"
    assert (
        "  no effect N2 (play_drawn_at_once): You draw only when you cannot play, so a drawn "
        "tile that fits is your only play anyway."
    ) in lines
    summary = json.loads(run("rules", "check", path, "--json").stdout)
    assert summary["playable"] and summary["conflicts"] == []
    assert "N2" in {f["code"] for f in summary["inert"]}


def test_check_a_conflict_exits_1_with_one_line_naming_the_switches(tmp_path: Path) -> None:
    path = rules_file(
        tmp_path / "r.json",
        {"base": "house", "goal": "reach-wins", "hand_sizes": [[2, 7], [3, 7], [4, 8]]},
    )
    out = run("rules", "check", path)
    assert out.returncode == 1
    assert out.stdout.splitlines() == [
        f"{path}: conflict V2 (hand_sizes): Not enough tiles: 8 each for 4 players exceed the "
        "28 of the set.",
        f"{path}: conflict K8 (goal + hand_scoring): The goal contradicts what is recorded: "
        "whoever reaches the target first is the worst player here.",
    ]
    summary = json.loads(run("rules", "check", path, "--json").stdout)
    assert not summary["playable"]
    assert [(c["code"], c["players"]) for c in summary["conflicts"]] == [("V2", [4]), ("K8", [])]


def test_check_says_a_reserve_has_no_effect_where_four_take_the_whole_set(tmp_path: Path) -> None:
    """house with a reserve of one: playable; the reserve applies with 2 and 3 players and is
    "no effect" with 4 (issue 24: it used to be refused as a conflict)."""
    path = rules_file(tmp_path / "r.json", {"base": "house", "reserve": 1})
    out = run("rules", "check", path)
    assert out.returncode == 0, out.stdout
    lines = out.stdout.splitlines()
    assert lines[0] == f"{path}: playable"
    [dead] = [line for line in lines if ", reserve, " in line]
    assert dead.startswith("  no effect N1 (") and ", reserve, " in dead
    assert dead.endswith(
        "with 4 players: No boneyard: nothing to draw (with 4 players the whole set is dealt)."
    )
    ru = run("rules", "check", path, "--lang", "ru").stdout.splitlines()
    assert ru[0] == f"{path}: можно играть"
    assert any("при 4 игроках: Базара нет" in line and "reserve" in line for line in ru)
    fish = rules_file(tmp_path / "f.json", {"base": "house", "fish_counts": False})
    out = run("rules", "check", fish)
    assert out.returncode == 0, out.stdout
    assert (
        "  no effect N21 (fish_counts): with 4 players: No boneyard, so a blocked hand counts "
        "(with 4 players): it is redealt only where there is a boneyard."
    ) in out.stdout.splitlines()


def test_a_file_that_is_not_a_rules_object_is_exit_2_with_one_line(tmp_path: Path) -> None:
    (tmp_path / "bad.json").write_text("{bad", encoding="utf-8")
    (tmp_path / "deep.json").write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    cases = {
        str(tmp_path / "deep.json"): "nests too deeply",
        rules_file(tmp_path / "n.json", 7): "rules must be a preset name or an object",
        rules_file(tmp_path / "p.json", "goat"): "unknown rules preset 'goat'",
        str(tmp_path / "bad.json"): "is not JSON (line 1, column 2",
        str(random_bytes(tmp_path / "noise.json")): "is not UTF-8 text",
        str(tmp_path / "missing.json"): "no such preset or file",
        str(tmp_path): "is a folder",
        rules_file(tmp_path / "x.json", {"base": "house", "draw_limit": 99}): (
            "rules: draw_limit must be from 0 to 28"
        ),
        rules_file(tmp_path / "y.json", {"base": "house", "first_opener": "rotate"}): (
            "is not played by this version yet"
        ),
    }
    for path, words in cases.items():
        out = run("rules", "check", path)
        assert out.returncode == 2, (path, out.stdout, out.stderr)
        assert out.stdout == "" and out.stderr.count("\n") == 1, out.stderr
        assert out.stderr.startswith("p2p-dominoes rules: ") and words in out.stderr


_TOO_BIG = 99999999999999999999
_WIRE = (
    "[-9223372036854775808, 18446744073709551615], the whole numbers a table's messages can carry"
)


def test_a_number_the_genesis_cannot_carry_is_refused_when_the_file_is_read(
    tmp_path: Path,
) -> None:
    """It once passed the check (playable) and then ended `simulate --secure` with exit 70."""
    path = rules_file(
        tmp_path / "big.json", {"base": "house", "targets": [[2, _TOO_BIG], [3, 101], [4, 101]]}
    )
    line = f"rules: targets: {_TOO_BIG} is outside {_WIRE}"
    checked = run("rules", "check", path)
    assert checked.returncode == 2, (checked.stdout, checked.stderr)
    assert checked.stdout == "" and checked.stderr == f"p2p-dominoes rules: {path}: {line}\n"
    played = run("simulate", "--secure", "--hands", "1", "--rules", path)
    assert played.returncode == 2, (played.stdout, played.stderr)
    assert played.stderr == f"p2p-dominoes simulate: --rules {path}: {line}\n"


def test_the_page_is_the_seed_text_with_the_tables_choices() -> None:
    """In English unless --lang ru, as every command; the title is one line of two words."""
    english = run("rules", "page")
    assert english.returncode == 0, english.stderr
    assert english.stdout.startswith("Dominoes · Rules\nThere are as many rule books")
    out = run("rules", "page", "--lang", "ru")
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("Домино · Правила\nСводов правил у домино столько же")
    assert (
        "По умолчанию до тех пор, пока не появится ход; иначе — одну кость и пас или прикуп по "
        "желанию [сейчас: прикуп до хода]."
    ) in out.stdout


def test_the_english_page_for_a_rules_file(tmp_path: Path) -> None:
    path = rules_file(tmp_path / "r.json", {"base": "house", "draw_limit": 1})
    out = run("rules", "page", "--lang", "en", "--rules", path)
    assert out.returncode == 0, out.stderr
    assert "or drawing at will [now: draw one, then pass]." in out.stdout
    bad = rules_file(tmp_path / "bad.json", {"base": "house", "goal": "reach-wins"})
    refused = run("rules", "page", "--rules", bad)
    assert refused.returncode == 2 and "cannot be played: The goal contradicts" in refused.stderr
