"""`p2p-dominoes simulate` and `bench engine` from the command line."""

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest


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


SPEED = re.compile(r"(?<=, )\d[\d, ]* (hands/s|сдач/с)$")
"""How fast the hands were played, the one figure that differs from run to run."""

REPORT = {
    "en": [
        "draw, 4 players (random, random, random, random), seed 5",
        "hands 20: 5 blocked, 26.5 actions per hand, # hands/s",
        "matches 7: 0 drawn",
        "  seat 1 (random): 3 hands won, 120 points, 1 matches won",
        "  seat 2 (random): 4 hands won, 150 points, 1 matches won",
        "  seat 3 (random): 8 hands won, 299 points, 3 matches won",
        "  seat 4 (random): 5 hands won, 168 points, 2 matches won",
    ],
    "ru": [
        "draw, 4 игрока (random, random, random, random), зерно 5",
        "сдач: 20, из них рыба: 5; 26,5 действия на сдачу, # сдач/с",
        "матчей: 7, вничью: 0",
        "  место 1 (random): выиграно сдач: 3, очков: 120, выиграно матчей: 1",
        "  место 2 (random): выиграно сдач: 4, очков: 150, выиграно матчей: 1",
        "  место 3 (random): выиграно сдач: 8, очков: 299, выиграно матчей: 3",
        "  место 4 (random): выиграно сдач: 5, очков: 168, выиграно матчей: 2",
    ],
}


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_simulate_reports_in_the_language_asked_for(lang: str) -> None:
    out = run("simulate", "--hands", "20", "--seed", "5", "--lang", lang)
    assert out.returncode == 0, out.stderr
    lines = [SPEED.sub(r"# \1", line) for line in out.stdout.splitlines()]
    assert lines == REPORT[lang]


def test_simulate_without_lang_is_english() -> None:
    plain = run("simulate", "--hands", "5", "--seed", "2").stdout.splitlines()
    english = run("simulate", "--hands", "5", "--seed", "2", "--lang", "en").stdout.splitlines()
    assert [SPEED.sub("#", line) for line in plain] == [SPEED.sub("#", line) for line in english]


MATCH_BEGINS = {
    "en": ["Hand 1: seat 2 leads", "  seat 1: [0|0] [0|6] [1|3] [2|6] [3|3] [4|6] [5|5]"],
    "ru": ["Сдача 1: первым ходит место 2", "  место 1: [0|0] [0|6] [1|3] [2|6] [3|3] [4|6] [5|5]"],
}
BONEYARD = {
    "en": "  boneyard: 7 tiles, 2 never drawn",
    "ru": "  базар: 7 костей, из них не берут 2",
}


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_each_hand_of_a_match_begins_in_the_language_asked_for(lang: str) -> None:
    out = run("simulate", "--match", "--players", "3", "--seed", "3", "--lang", lang)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[:2] == MATCH_BEGINS[lang] and lines[4] == BONEYARD[lang]


@pytest.mark.parametrize(
    ("lang", "pair"),
    [
        ("en", "  seats 2 & 4 (partner, partner): 10 hands won, 48 points, 1 matches won"),
        (
            "ru",
            "  места 2 и 4 (partner, partner): выиграно сдач: 10, очков: 48, выиграно матчей: 1",
        ),
    ],
)
def test_partners_are_reported_by_pair(lang: str, pair: str) -> None:
    out = run("simulate", "--rules", "kozel", "--match", "--seed", "4", "--lang", lang)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[-1] == pair


SECURE = {
    "en": r"(\d+) signed messages, transcripts identical on all peers: True, verify: clean, "
    r"CPU \d+\.\d\d s",
    "ru": r"(\d+) подписанн(ое сообщение|ых сообщения|ых сообщений), записи партии одинаковы у "
    r"всех узлов: да, проверка: всё сходится, процессор \d+,\d\d с",
}


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_secure_simulation_sums_up_in_the_language_asked_for(lang: str, tmp_path: Path) -> None:
    record = tmp_path / "game.p2pd"
    out = run("simulate", "--secure", "--seed", "1", "--record", str(record), "--lang", lang)
    assert out.returncode == 0, out.stderr
    *_, summary, written = out.stdout.splitlines()
    found = re.fullmatch(SECURE[lang], summary)
    assert found is not None, summary
    if lang == "ru":  # the form that fits the count
        count = int(found[1])
        assert found[2] == ("ых сообщения" if count % 10 in (2, 3, 4) and count % 100 // 10 != 1
                            else "ых сообщений" if count % 10 != 1 or count % 100 == 11
                            else "ое сообщение")  # fmt: skip
    prefix = {"en": "record written to ", "ru": "запись партии сохранена в "}[lang]
    assert written == f"{prefix}{record}" and record.is_file()


def test_a_secure_simulations_json_is_the_same_in_both_languages() -> None:
    english = json.loads(run("simulate", "--secure", "--seed", "1", "--json").stdout)
    russian = json.loads(
        run("simulate", "--secure", "--seed", "1", "--json", "--lang", "ru").stdout
    )
    for figures in (english, russian):
        figures.pop("cpu_s")
        figures.pop("messages")  # the keys are fresh each run, so the deal (and its length) differ
        figures.pop("scores")
    assert english == russian and english["verify"] == "clean"


@pytest.mark.parametrize(
    ("lang", "bot", "players"),
    [
        ("en", "p2p-dominoes simulate: unknown bot 'nosuch' (bots: ", "are for 4 players, not 3"),
        (
            "ru",
            "p2p-dominoes simulate: нет такого бота: 'nosuch' (боты: ",
            "для 4 игроков, а не для 3",
        ),
    ],
)
def test_a_bad_bot_or_player_count_is_refused_in_the_language(
    lang: str, bot: str, players: str
) -> None:
    unknown = run("simulate", "--bot", "nosuch", "--hands", "1", "--lang", lang)
    assert unknown.returncode == 2 and unknown.stderr.startswith(bot), unknown.stderr
    kozel = run("simulate", "--rules", "kozel", "--players", "3", "--hands", "1", "--lang", lang)
    assert kozel.returncode == 2 and players in kozel.stderr, kozel.stderr
    assert len(kozel.stderr.splitlines()) == 1
