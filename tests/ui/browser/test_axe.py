"""axe-core (the real one, bundled by axe-playwright-python) finds no violation on the lobby,
the table mid-hand and a hand's summary, at laptop and phone sizes, in English and Russian."""

from __future__ import annotations

import time
from collections.abc import Callable

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect

from tests.ui.browser.conftest import Peer
from tests.ui.browser.test_play_in_the_browser import take_turn

SIZES = {"laptop": (1280, 800), "phone": (390, 844)}


def violations(page: Page) -> list[str]:
    """axe-core's violations on the page as it is, one line each (rule, impact, where)."""
    found = Axe().run(page).response["violations"]
    return [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:4]} {v['help']}"
        for v in found
    ]


def every_size_and_language(page: Page, where: str) -> dict[str, list[str]]:
    """The violations at each screen size in each language (empty lists when clean)."""
    report: dict[str, list[str]] = {}
    for lang in ("en", "ru"):
        page.select_option("#lang-select", lang)
        expect(page.locator("html")).to_have_attribute("lang", lang)
        for size, (width, height) in SIZES.items():
            page.set_viewport_size({"width": width, "height": height})
            page.evaluate("new Promise((done) => requestAnimationFrame(() => done()))")
            if found := violations(page):
                report[f"{where} {size} {lang}"] = found
    page.select_option("#lang-select", "en")
    page.set_viewport_size({"width": 1280, "height": 800})
    return report


def test_axe_core_finds_nothing_on_the_lobby_the_table_and_the_summary(
    peers: Callable[..., Peer], open_page: Callable[..., Page]
) -> None:
    page = open_page(peers("Ann", 47891, lang=None))  # no --lang: the page's switch decides
    expect(page.locator("#create-button")).to_be_visible()
    report = every_size_and_language(page, "lobby")
    page.fill("#create-name", "Axe")
    page.select_option("#create-seats", "2")
    page.fill("#create-bots", "1")
    page.fill("#create-hands", "2")
    page.click("#create-button")
    expect(page.locator("#table")).to_be_visible()
    plays, checked_table = 0, False
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not page.locator("#summary").is_visible():
        done = take_turn(page)
        plays += done == "play"
        if plays >= 2 and not checked_table and not page.locator("#summary").is_visible():
            expect(page.locator(".board .tile")).not_to_have_count(0)
            report |= every_size_and_language(page, "table")
            checked_table = True
        page.wait_for_timeout(100)
    expect(page.locator("#summary")).to_be_visible()
    assert checked_table
    report |= every_size_and_language(page, "summary")
    assert report == {}, "\n".join(f"{k}: {v}" for k, vs in report.items() for v in vs)
    assert not page.errors  # type: ignore[attr-defined]
