"""The end of a hand on the table (issue 28 M7): no modal over the board. The tiles each player
is left with turn face up at their seat (and in the player's own bar), with their pips; the
summary then takes the hand's row under the board, which stays in sight and uncovered at every
screen size; the match's end is a winner's screen."""

from __future__ import annotations

import time
from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.ui.browser.conftest import Peer, screenshot
from tests.ui.browser.test_play_in_the_browser import take_turn

SIZES = [(390, 844), (768, 1024), (1280, 800), (1920, 1080)]

LAYOUT = """() => {
  scrollTo(0, 0);
  const rect = (e) => { const r = e.getBoundingClientRect();
    return { left: r.left, top: r.top, right: r.right, bottom: r.bottom, height: r.height }; };
  const board = document.getElementById("board");
  const b = rect(board);
  const hit = document.elementFromPoint((b.left + b.right) / 2, (b.top + b.bottom) / 2);
  return { board: b, dialog: rect(document.querySelector("#summary .dialog")),
           boardHit: Boolean(hit && board.contains(hit)),
           inert: document.querySelector("main").inert };
}"""


def _apart(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["right"] <= b["left"]
        or b["right"] <= a["left"]
        or a["bottom"] <= b["top"]
        or (b["bottom"] <= a["top"])
    )


def _play_until_summary(page: Page) -> None:
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline and not page.locator("#summary").is_visible():
        take_turn(page)
        time.sleep(0.1)
    expect(page.locator("#summary")).to_be_visible()


def test_the_hands_end_is_shown_on_the_table_and_the_match_ends_on_a_winners_screen(
    peers: Callable[..., Peer], open_page: Callable[..., Page]
) -> None:
    page = open_page(peers("Ann", 47995), (1280, 800))
    page.fill("#create-name", "Ends")
    page.select_option("#create-seats", "2")
    page.fill("#create-bots", "1")
    page.fill("#create-hands", "2")
    page.click("#create-button")
    expect(page.locator("#table")).to_be_visible()
    _play_until_summary(page)
    expect(page.locator("#summary-title")).to_contain_text("Hand 1")

    # Face up at the seats: the bot's tiles and pips, and Ann's own, as the summary counts them.
    rows = page.locator("#summary-rows tr")
    for seat, where in ((1, ".seat[data-seat='1']"), (0, "#me-bar")):
        shown = page.locator(f"{where} .revealed")
        expect(shown).to_be_visible()
        pips = rows.nth(seat).locator("td").nth(1).inner_text()
        expect(shown.locator(".revealed-pips")).to_contain_text(pips)
        count = rows.nth(seat).locator(".face-row .tile").count()
        expect(shown.locator(".tile")).to_have_count(count)
        assert shown.get_attribute("aria-label")
    expect(page.locator(".left-tiles .face-row").first).to_be_visible()  # faces, not "[0|3]"

    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate("new Promise((done) => requestAnimationFrame(() => done()))")
        found = page.evaluate(LAYOUT)
        assert not found["inert"], found  # not a modal: the table stays reachable
        assert found["boardHit"], (width, found)
        assert found["board"]["height"] >= 150, (width, found)
        assert _apart(found["board"], found["dialog"]), (width, found)
        screenshot(page, f"hand-end-{width}", full_page=False)
    page.set_viewport_size({"width": 1280, "height": 800})
    expect(page.locator("#next-hand")).to_be_visible()
    page.click("#next-hand")
    expect(page.locator("#summary")).to_be_hidden(timeout=30_000)

    _play_until_summary(page)
    expect(page.locator("#summary-winner")).to_be_visible(timeout=30_000)
    expect(page.locator("#summary")).to_have_class("overlay winner-screen")
    expect(page.locator("#summary-winner")).not_to_be_empty()  # (a leader, or the hands played)
    screenshot(page, "match-end-winner", full_page=False)
    assert not page.errors  # type: ignore[attr-defined]
