"""v4 (PROTOCOL.md §16.1) in the browser, in English and Russian: Bob, a joiner, is killed in
hand 2 and "Bob (bot)" takes his seat; his `play` starts again and his page resumes the table.
While his peer asks for the seat back, the page's title says so (never "The table has stopped"),
with the peer's sentence; then the seat is his again and he plays on, with the whole match in his
score chart. Ann and the first Bob are driven over their sockets (tests/ui/web_peers.py); the
returning Bob's page is Chromium's."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from p2p_dominoes.net.said import said
from p2p_dominoes.store import save_rule_set
from p2p_dominoes.words import line
from tests.ui.test_web_come_back import LONG_DRAW, bob_killed_and_his_seat_taken
from tests.ui.web_peers import PlayProcess

LOCALES = {"en": "en-US", "ru": "ru-RU"}

_KEEP_SUMMARIES = """() => {
  window.summaries = [];
  const box = document.getElementById("summary");
  const text = (id) => document.getElementById(id).textContent;
  const keep = () => window.summaries.push([text("summary-title"), text("summary-stopped")]);
  new MutationObserver(keep).observe(box, { childList: true, characterData: true, subtree: true });
}"""
"""Every title and stop sentence the summary shows, kept as they change (the asking may not
last long: the seat comes back at the next hand's start)."""


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_returners_page_says_it_asks_for_its_seat_back(
    tmp_path: Path, open_page: Callable[..., Page], lang: str
) -> None:
    save_rule_set(tmp_path / "ann", "long-draw", LONG_DRAW)
    ann = PlayProcess("Ann", tmp_path / "ann", "--next-hand-after", "0", lang=lang)
    bob = PlayProcess("Bob", tmp_path / "bob", "--next-hand-after", "0", lang=lang)
    again: PlayProcess | None = None
    try:
        bob_killed_and_his_seat_taken(ann, bob)
        again = PlayProcess("Bob", tmp_path / "bob", "--next-hand-after", "0", lang=lang)
        again.url = f"http://127.0.0.1:{again.port}/?token={again.token}"  # type: ignore[attr-defined]
        page = open_page(again, locale=LOCALES[lang])
        page.evaluate(_KEEP_SUMMARIES)
        page.click("#resume-button")
        asking = [line("page_js.asking_back_title", lang), said("asking_back", lang)]
        page.wait_for_function(
            "([title, text]) => window.summaries.some(([t, s]) => t === title && s === text)",
            arg=asking,
            timeout=90_000,
        )
        # The seat is his again: his hand, his name, and no summary of a stop.
        expect(page.locator("#players .seat", has_text="Bob (bot)")).to_have_count(
            0, timeout=120_000
        )
        expect(page.locator("#hand .tile-button")).not_to_have_count(0, timeout=60_000)
        titles = [title for title, _ in page.evaluate("window.summaries")]
        assert line("page_js.stopped_title", lang) not in titles, titles
        assert not page.errors  # type: ignore[attr-defined]
    finally:
        bob.kill()
        if again is not None:
            again.stop()
        ann.stop()
