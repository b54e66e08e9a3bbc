"""No record's terms on the page (issue 28 L5): the board's description under the table and
read by "Describe the board" says the tiles from end to end and what each end needs, never
"high end" or "side A"; the log says a hand is dealt and the record is signed, never "keys
committed and revealed" or the "final transcript hash". A whole one-hand match in each
language."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from tests.ui.browser.conftest import Peer
from tests.ui.browser.test_play_in_the_browser import take_turn

JARGON = {
    "en": ["high end", "low end", "side A", "side B", "keys committed", "transcript hash"],
    "ru": [
        "конец с меньшим",
        "конец с большим",
        "линия A",
        "линия B",
        "ключи зафиксированы",
        "хеш",
    ],
}
WORDS = {
    "en": ("On the table, left to right:", "the right end", "every player shuffles"),
    "ru": ("На столе слева направо:", "правому", "каждый игрок по очереди"),
}


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_board_and_the_log_speak_plainly(
    peers: Callable[..., Peer], open_page: Callable[..., Page], lang: str
) -> None:
    ann = peers("Ann", 47998 if lang == "en" else 47999, lang=lang)
    page = open_page(ann, (1280, 800), locale="ru-RU" if lang == "ru" else "en-US")
    page.fill("#create-name", "Words")
    page.select_option("#create-seats", "2")
    page.fill("#create-bots", "1")
    page.fill("#create-hands", "1")
    page.click("#create-button")
    expect(page.locator("#table")).to_be_visible()
    seen: list[str] = []
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline and not page.locator("#summary").is_visible():
        if take_turn(page):
            seen.append(page.locator("#board-text").inner_text())
        time.sleep(0.1)
    expect(page.locator("#summary")).to_be_visible()
    line, ends, dealt = WORDS[lang]
    expect(page.locator("#board-text")).to_contain_text(line)
    expect(page.locator("#board-text")).to_contain_text(ends)
    expect(page.locator("#log")).to_contain_text(dealt)
    page.click("#to-lobby")  # the whole table's log, its end included, stays in the lobby lines
    expect(page.locator("#lobby")).to_be_visible()
    shown = " ".join([*seen, page.locator("#board-text").inner_text(),
                      page.locator("#log").text_content() or "",
                      page.locator("#lobby-lines").text_content() or ""])  # fmt: skip
    found = [
        shown[max(0, shown.lower().index(word.lower()) - 80) :][:160]
        for word in JARGON[lang]
        if word.lower() in shown.lower()
    ]
    assert found == [], found
    assert not page.errors  # type: ignore[attr-defined]
