"""*Review this hand* on the summary (issue 27): after a hand against a bot, the player asks for
the review of their own decisions; the page shows a "working" state, then a row a decision with
what expert would have played and what the choice cost, the costliest marked; in English and
in Russian (the peer puts the rows into the page's language), and axe finds nothing on it."""

from __future__ import annotations

import time
from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.ui.browser.conftest import Peer
from tests.ui.browser.test_axe import violations
from tests.ui.browser.test_play_in_the_browser import take_turn


def _rows_shown(page: Page, costly_words: str) -> None:
    """The review's rows are there, each with a cost, and 1 to 3 of them marked costliest."""
    rows = page.locator("#review-rows tr")
    expect(rows.first).to_be_visible()
    expect(page.locator("#review-status")).to_have_text("")
    count = rows.count()
    for row in range(count):
        cells = rows.nth(row).locator("td")
        expect(cells).to_have_count(4)
        assert cells.nth(2).inner_text().strip(), row  # points lost
        assert cells.nth(3).inner_text().strip()[0].isdigit(), row  # chance lost
    marked = page.locator("#review-rows tr.costly")
    if marked.count():  # a hand played exactly as expert would have has nothing to mark
        assert marked.count() <= 3
        expect(marked.first.locator(".costly-mark")).to_contain_text(costly_words)
        expect(page.locator("#review-legend")).to_be_visible()
    expect(page.locator("#review-total")).not_to_be_empty()


def test_the_summary_reviews_the_players_own_hand_in_both_languages(
    peers: Callable[..., Peer], open_page: Callable[..., Page]
) -> None:
    page = open_page(peers("Ann", 48051, lang=None))  # the page's switch decides the language
    page.select_option("#lang-select", "en")
    page.fill("#create-name", "Review")
    page.select_option("#create-seats", "2")
    page.fill("#create-bots", "1")
    page.fill("#create-hands", "1")  # one hand: its summary stays (no countdown to the next)
    page.click("#create-button")
    expect(page.locator("#table")).to_be_visible()
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline and not page.locator("#summary").is_visible():
        take_turn(page)
        page.wait_for_timeout(100)
    expect(page.locator("#summary")).to_be_visible()
    expect(page.locator("#review")).to_be_hidden()
    before = violations(page)

    button = page.locator("#review-hand")
    expect(button).to_have_text("Review this hand")
    button.click()
    expect(page.locator("#review")).to_be_visible()
    expect(button).to_be_disabled()  # asked once; the peer works it out
    expect(page.locator("#review-title")).to_contain_text("Review of Ann")
    _rows_shown(page, "one of the three costliest")
    rows = page.locator("#review-rows tr").count()
    assert violations(page) == before

    page.select_option("#lang-select", "ru")
    expect(page.locator("#review-heading")).to_have_text("Разбор сдачи")
    expect(button).to_have_text("Разбор сдачи")
    expect(page.locator("#review-title")).to_contain_text("Разбор ходов (Ann)")
    expect(page.locator("#review-rows tr")).to_have_count(rows)
    _rows_shown(page, "одна из трёх самых дорогих")
    expect(page.locator("#review-total")).to_contain_text("Всего")
    for width, height in ((390, 844), (1280, 800)):  # the rows fit, also on a phone
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate("new Promise((done) => requestAnimationFrame(() => done()))")
        box = page.locator(".review-scroll")
        fits = box.evaluate("(e) => e.scrollWidth <= e.clientWidth + 1")
        assert fits, (width, box.evaluate("(e) => [e.scrollWidth, e.clientWidth]"))
    assert violations(page) == before
    assert not page.errors  # type: ignore[attr-defined]
