"""`play`'s lines in its window and `demo`'s summary are catalogue lines in the command's
language; the English is what it always was."""

from __future__ import annotations

from pathlib import Path

import pytest
import trio

from p2p_dominoes.commands import play
from p2p_dominoes.words import line


@pytest.mark.parametrize(
    ("lang", "said"),
    [("en", "p2p-dominoes play: stopped."), ("ru", "p2p-dominoes play: остановлено.")],
)
def test_play_says_it_stopped_in_its_language(tmp_path: Path, lang: str, said: str) -> None:
    assert play._stopped_line(tmp_path, False, lang) == said


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "Could not open a browser: open the link above.\n"),
        ("ru", "Не удалось открыть браузер: откройте ссылку выше.\n"),
    ],
)
def test_play_says_a_browser_did_not_open_in_its_language(
    lang: str, said: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(play.webbrowser, "open", lambda _: False)
    trio.run(play._open_browser, "file:///nowhere", lang)
    assert capsys.readouterr().out == said


def test_demo_summary_is_the_english_it_was_and_russian_too() -> None:
    values = {
        "checked": "verify",
        "messages": 40,
        "hands": 2,
        "state": "match finished after 2 of 2 hands",
        "scores": "bot-0 3, bot-1 0",
        "seconds": "4.2",
    }
    assert line("verify.demo_summary", "en", **values) == (
        "verify: clean — 40 messages, 2 hand(s) audited, match finished after 2 of 2 hands, "
        "scores bot-0 3, bot-1 0 (4.2 s in all)"
    )
    russian = line("verify.demo_summary", "ru", **values)
    assert russian.startswith("verify: всё сходится — сообщений: 40, проверено сдач: 2")
