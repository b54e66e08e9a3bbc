"""`verify` and `replay` of a v4 record a seat left (PROTOCOL.md §16): one line for the void
hand, one for the seat change, in English and Russian; the seat's score shown under its new
holder's name, marked."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from p2p_dominoes.cli import main

VECTOR = Path(__file__).resolve().parents[2] / "protocol" / "vectors" / "session_leave_v4.p2pd"


def test_verify_names_the_void_hand_and_the_seat_change(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["verify", str(VECTOR)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "clean" in lines[0] and "erin (for carol) 33" in lines[0]
    assert lines[1].endswith("hand 2 void: abandoned by carol (left), nothing revealed, no points")
    assert lines[2].endswith(
        "seat 3 changed hands: carol → erin from hand 3, signed by every remaining seat"
    )


def test_verify_json_lists_them(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", str(VECTOR), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["void_hands"] == [{"hand": 2, "seat": 2, "reason": "left"}]
    assert summary["seat_changes"] == [
        {"seat": 2, "before": "carol", "name": "erin", "from_hand": 3}
    ]


@pytest.mark.parametrize(
    ("lang", "void", "taken", "marked"),
    [
        (
            "en",
            "Hand 2 is void: carol left the table.",
            "erin takes carol's seat from hand 3",
            "erin (for carol) plays",
        ),
        (
            "ru",
            "Сдача 2 не в счёт: carol ушёл(а) из-за стола.",
            "erin садится на место carol со сдачи 3",
            "erin (вместо carol) кладёт",
        ),
    ],
)
def test_replay_tells_it_in_both_languages(
    capsys: pytest.CaptureFixture[str], lang: str, void: str, taken: str, marked: str
) -> None:
    assert main(["replay", str(VECTOR), "--lang", lang]) == 0
    out = capsys.readouterr().out
    assert void in out and taken in out and marked in out
    assert out.index(void) < out.index(taken) < out.index(marked)


BACK = VECTOR.with_name("session_back_v4.p2pd")
"""§16.1: carol leaves in hand 2, erin holds her seat in hand 3, carol takes it back from hand 5."""


def test_verify_names_the_seat_taken_back(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", str(BACK)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "clean" in lines[0] and " carol " in lines[0] and "(for carol)" not in lines[0]
    assert lines[2].endswith(
        "seat 3 changed hands: carol → erin from hand 3, signed by every remaining seat"
    )
    assert ": seat 3 back to carol from hand 5 (it had left; erin gives it back)" in lines[3]
    assert main(["verify", str(BACK), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["seats_back"] == [{"seat": 2, "before": "erin", "name": "carol", "from_hand": 5}]


@pytest.mark.parametrize(
    ("lang", "back", "after"),
    [
        ("en", "carol is back and takes the seat again from erin from hand 5 on", "  carol "),
        ("ru", "carol вернулся и снова занимает своё место вместо erin со сдачи 5", "  carol "),
    ],
)
def test_replay_tells_the_return_in_both_languages(
    capsys: pytest.CaptureFixture[str], lang: str, back: str, after: str
) -> None:
    assert main(["replay", str(BACK), "--lang", lang]) == 0
    out = capsys.readouterr().out
    assert back in out, out
    assert after in out.split(back, 1)[1]  # after it the seat is carol's again, unmarked
