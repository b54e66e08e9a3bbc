"""`verify`, `export` and `bench` speak the language of `--lang`, as every command does: each line
they print is said in English (byte for byte what they always said) or in Russian, with counted
words in their Russian forms; `verify --json` is for machines and the same in both. Each run is
the command as a user runs it, in its own process."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from p2p_dominoes.commands.verify_words import failure_line
from p2p_dominoes.session import TRANSCRIPT_MAGIC
from p2p_dominoes.session.verify import EQUIVOCATION, Failure
from tests.commands.records import match_transcript, run, write_table_folder, write_transcript

VECTORS = Path(__file__).resolve().parents[2] / "protocol" / "vectors"
LEAVE = VECTORS / "session_leave_v4.p2pd"
"""v4 (§16): carol leaves in hand 2 (a void hand), erin takes her seat from hand 3."""
BACK = VECTORS / "session_back_v4.p2pd"
"""§16.1: as LEAVE, and carol takes her seat back from hand 5."""

VERIFY_BACK = {
    "en": [
        "clean — 193 messages, 3 hands audited, match finished after 3 of 3 hands, scores alice 33,"
        " bob 10, carol 16, head a4cb8a82d8071c1c",
        "hand 2 void: abandoned by carol (left), nothing revealed, no points",
        "seat 3 changed hands: carol → erin from hand 3, signed by every remaining seat",
        "seat 3 back to carol from hand 5 (it had left; erin gives it back), signed by every"
        " remaining seat",
        "table code key mitten robot snow / ключ варежка робот снег (163-186-198-069)",
    ],
    "ru": [
        "всё сходится — 193 сообщения, 3 сдачи проверены, матч окончен после 3 из 3 сдач, счёт"
        " alice 33, bob 10, carol 16, голова цепочки a4cb8a82d8071c1c",
        "сдача 2 не в счёт: её бросил(а) carol (ушёл(а)), ничего не открыто, очков нет",
        "место 3 сменило игрока: carol → erin со сдачи 3, подписано всеми оставшимися",
        "место 3 снова за carol со сдачи 5 (он уходил; erin возвращает место), подписано всеми"
        " оставшимися",
        "код стола ключ варежка робот снег / key mitten robot snow (163-186-198-069)",
    ],
}


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_verify_says_the_void_hand_the_seat_changes_and_the_summary(lang: str) -> None:
    out = run("verify", str(BACK), "--lang", lang)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == [f"{BACK}: {text}" for text in VERIFY_BACK[lang]]


def test_verify_without_lang_is_english_and_its_json_the_same_in_both() -> None:
    assert run("verify", str(BACK)).stdout == run("verify", str(BACK), "--lang", "en").stdout
    english = run("verify", str(LEAVE), "--json").stdout
    assert run("verify", str(LEAVE), "--json", "--lang", "ru").stdout == english
    assert json.loads(english)["seat_changes"][0]["name"] == "erin"


@pytest.mark.parametrize(
    ("lang", "marked"), [("en", "erin (for carol) 33"), ("ru", "erin (вместо carol) 33")]
)
def test_verify_shows_a_taken_seat_under_its_new_holder(lang: str, marked: str) -> None:
    out = run("verify", str(LEAVE), "--lang", lang)
    assert out.returncode == 0, out.stderr
    assert marked in out.stdout.splitlines()[0]


def _bad_transcript(path: Path) -> Path:
    """Ann and Bob's match with one signature bit flipped in mid-match (it still decodes and
    names its seat)."""
    transcript = match_transcript()
    data = bytearray(transcript.to_bytes())
    middle = transcript.entries[len(transcript.entries) // 2].encoded
    data[data.index(middle) + len(middle) - 10] ^= 0x10
    path.write_bytes(bytes(data))
    return path


@pytest.mark.parametrize(
    ("lang", "pattern", "why"),
    [
        ("en", "message #{index} ({name}, seat {seat}): ", "bad signature for seat {seat}"),
        ("ru", "сообщение №{index} ({name}, место {seat}): ", "неверная подпись места {seat}"),
    ],
)
def test_verify_names_who_failed_in_the_language(
    tmp_path: Path, lang: str, pattern: str, why: str
) -> None:
    path = _bad_transcript(tmp_path / "bad.p2pd")
    out = run("verify", str(path), "--lang", lang)
    assert out.returncode == 1
    failure = json.loads(run("verify", str(path), "--json", "--lang", lang).stdout)["failure"]
    signer = failure["reason"].removeprefix("bad signature for seat ")  # JSON: in English
    assert signer.isdigit(), failure["reason"]
    name = ("Ann", "Bob")[failure["seat"]]
    said = pattern.format(index=failure["index"], name=name, seat=failure["seat"] + 1)
    # The reason in the report's language too (its seat as the protocol counts, from 0).
    assert out.stdout == f"{path}: {said}{why.format(seat=signer)}\n"


@pytest.mark.parametrize(
    ("lang", "torn", "summary"),
    [
        ("en", "a torn last record (22 bytes) was left out", "1 hand audited, match unfinished"),
        ("ru", "последняя запись оборвана (22 байта) и отброшена", "1 сдача проверена, матч не"),
    ],
)
def test_verify_of_a_torn_log_says_what_it_left_out(
    tmp_path: Path, lang: str, torn: str, summary: str
) -> None:
    held = len(match_transcript()) - 5
    shorter = write_table_folder(tmp_path / "shorter", count=held - 1) / "table.log"
    folder = write_table_folder(tmp_path / "table", count=held)
    log = folder / "table.log"
    whole = log.read_bytes()
    last = len(whole) - shorter.stat().st_size  # the last record's bytes, framing and all
    log.write_bytes(whole[: len(whole) - last + 22])  # a crash 22 bytes into writing it
    out = run("verify", str(log), "--lang", lang)
    assert out.returncode == 0, out.stderr
    first, second = out.stdout.splitlines()[:2]
    assert first == f"{log}: {torn}"
    assert summary in second


@pytest.mark.parametrize(
    ("lang", "written", "failed", "none"),
    [
        (
            "en",
            "hand 2 of {path} written to {output}",
            " — nothing exported",
            "holds 2 audited hands",
        ),
        (
            "ru",
            "сдача 2 из {path} записана в {output}",
            " — ничего не выгружено",
            "2 проверенные сдачи",
        ),
    ],
)
def test_export_says_what_it_wrote_or_why_not(
    tmp_path: Path, lang: str, written: str, failed: str, none: str
) -> None:
    path = write_transcript(tmp_path / "match.p2pd")
    output = tmp_path / "hand2.json"
    out = run("export", str(path), "--hand", "2", "--output", str(output), "--lang", lang)
    assert out.returncode == 0, out.stderr
    assert out.stderr == written.format(path=path, output=output) + "\n"
    assert json.loads(output.read_text("utf-8"))["players"] == ["Ann", "Bob"]
    out = run("export", str(path), "--hand", "3", "--lang", lang)
    assert out.returncode == 2 and none in out.stderr and out.stdout == ""
    bad = _bad_transcript(tmp_path / "bad.p2pd")
    out = run("export", str(bad), "--hand", "1", "--lang", lang)
    assert out.returncode == 1 and out.stdout == ""
    assert out.stderr.startswith(f"{bad}: ") and out.stderr.endswith(failed + "\n")
    said = run("verify", str(bad), "--lang", lang).stdout.removesuffix("\n")
    assert out.stderr == said + failed + "\n"


BENCH_BOTS = {
    "en": [
        "bots: greedy against 1 × random, draw, 2 players, seed 1 (A's seat moves on each match:"
        " 20 in seat 1, 0 in seat 2)",
        "  hands won: 9 of 20 = 45.0 % (95 %: 25.8–65.8 %; fair share 50 %); 0 won by nobody",
        "  matches won: 0 of 0 = 0.0 % (95 %: 0.0–100.0 %)",
        "  points per hand: 4.60",
        "  greedy's time per decision (thread CPU): mean ",
        "  random's time per decision (thread CPU): mean ",
        "  time ratio (A's mean / B's mean, thread CPU): ",
    ],
    "ru": [
        "боты: greedy против 1 × random, draw, 2 игрока, зерно 1 (место A меняется с каждым матчем:"
        " 20 на месте 1, 0 на месте 2)",
        "  выиграно сдач: 9 из 20 = 45.0 % (95 %: 25.8–65.8 %; честная доля 50 %); 0 сдач без"
        " победителя",
        "  выиграно матчей: 0 из 0 = 0.0 % (95 %: 0.0–100.0 %)",
        "  очков за сдачу: 4.60",
        "  время greedy на решение (CPU потока): среднее ",
        "  время random на решение (CPU потока): среднее ",
        "  отношение времени (среднее A / среднее B, CPU потока): ",
    ],
}
"""`bench bots --hands 20` (its quickest run: a seeded duel, well under a second): every line
but the timings, which are the machine's."""


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_bench_says_its_figures_in_the_language(lang: str) -> None:
    out = run("bench", "bots", "--hands", "20", "--lang", lang)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert len(lines) == len(BENCH_BOTS[lang])
    for said, expected in zip(lines, BENCH_BOTS[lang], strict=True):
        assert said.startswith(expected), (said, expected)
    decisions = re.search(r"\((\d+) (decisions?|решени[еяй])\); ", lines[4])
    assert decisions is not None
    counted = {"en": "decisions", "ru": "решение"}[lang]  # 261: one, in Russian its 1, 21… form
    assert decisions[1] == "261" and decisions[2] == counted


def test_bench_json_is_the_same_in_both_languages() -> None:
    english = json.loads(run("bench", "bots", "--hands", "20", "--json").stdout)
    russian = json.loads(run("bench", "bots", "--hands", "20", "--json", "--lang", "ru").stdout)
    for figures in (english, russian):
        for key in [k for k in figures if "seconds" in k or "ms" in k or "time" in k]:
            figures.pop(key)
    assert english == russian


@pytest.mark.parametrize(
    ("lang", "refusal"),
    [
        ("en", "p2p-dominoes bench: --think-ms is for --bot hard or expert, not greedy"),
        ("ru", "p2p-dominoes bench: --think-ms — только для --bot hard или expert, не для greedy"),
    ],
)
def test_bench_refuses_in_the_language(lang: str, refusal: str) -> None:
    out = run("bench", "bots", "--think-ms", "5", "--lang", lang)
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr == refusal + "\n"


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "the file: the file holds no genesis"),
        ("ru", "файл: в файле нет genesis — первого сообщения стола"),
    ],
)
def test_verify_of_a_file_with_no_message_says_so(tmp_path: Path, lang: str, said: str) -> None:
    path = tmp_path / "empty.p2pd"
    path.write_bytes(TRANSCRIPT_MAGIC)
    out = run("verify", str(path), "--lang", lang)
    assert out.returncode == 1 and out.stdout == f"{path}: {said}\n"


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        (
            "en",
            "message #7 (Bob, seat 2): equivocation evidence: seat 2 signed two different "
            "messages for one place",
        ),
        (
            "ru",
            "сообщение №7 (Bob, место 2): доказательство двойной подписи: место 2 подписало два "
            "разных сообщения на одно место в цепочке",
        ),
    ],
)
def test_equivocation_evidence_is_said_in_the_language(lang: str, said: str) -> None:
    """The verifier's own finding (not a message's check): its words are the reader's too."""
    reason = "equivocation evidence: seat 2 signed two different messages for one place"
    evidence = Failure(7, 1, reason, EQUIVOCATION)
    assert failure_line(evidence, ("Ann", "Bob"), lang) == said


def test_a_failure_whose_reason_is_a_phrase_reads_it_in_the_language() -> None:
    """A check's reason that is a Phrase is said in the reader's language; English unchanged."""
    from p2p_dominoes.words import phrase

    why = phrase("engine.cannot", seat=1, action="draw", rule="x")
    failure = Failure(4, 1, why)
    assert (
        failure_line(failure, ("Ann", "Bob")) == "message #4 (Bob, seat 2): seat 1 cannot draw: x"
    )
    assert failure_line(failure, ("Ann", "Bob"), "ru") == (
        "сообщение №4 (Bob, место 2): место 1 не может draw: x"
    )
