"""A table stopped mid-hand (issue 28 M6): its summary says why it stopped and shows no earlier
hand's result as if it were this one's; no message name ("play3") on screen.

Ann plays hand 1 against a bot, then sits still in hand 2 until the stall limit (10 s) runs out:
the bot's peer names her, and Ann's page shows the stop."""

from __future__ import annotations

import re
import time
from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.ui.browser.conftest import Peer, screenshot
from tests.ui.browser.test_play_in_the_browser import take_turn

MESSAGE_NAME = re.compile(r"\b(play|draw|pass|shuffle|deal|commit|reveal)\d\b", re.IGNORECASE)


def test_a_table_stopped_in_hand_two_shows_no_result_of_hand_one(
    peers: Callable[..., Peer], open_page: Callable[..., Page]
) -> None:
    page = open_page(peers("Ann", 47973))
    page.fill("#create-name", "Stops")
    page.select_option("#create-seats", "2")
    page.fill("#create-bots", "1")
    page.fill("#create-hands", "3")
    page.fill("#create-stall", "10")
    page.click("#create-button")
    expect(page.locator("#table")).to_be_visible()
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline and not page.locator("#summary").is_visible():
        take_turn(page)
        time.sleep(0.1)
    expect(page.locator("#summary")).to_be_visible()
    expect(page.locator("#summary-title")).to_contain_text("Hand 1")
    page.click("#next-hand")
    expect(page.locator("#summary")).to_be_hidden(timeout=30_000)
    # Hand 2: Ann does nothing; at her turn the bot's peer waits 10 s, then stops the table.
    expect(page.locator("#summary-stopped")).to_be_visible(timeout=60_000)
    screenshot(page, "stopped-in-hand-2")
    expect(page.locator("#summary-stopped")).to_contain_text("Ann")
    # No result of hand 1 under "The table has stopped": hand 2 has none.
    expect(page.locator("#summary-result")).to_be_hidden()
    expect(page.locator("#summary-points")).to_be_hidden()
    shown = " ".join(
        page.locator(css).inner_text() for css in ("#summary", "#alert", "#log", "#turn")
    )
    assert not MESSAGE_NAME.search(shown), MESSAGE_NAME.search(shown)
    assert not page.errors  # type: ignore[attr-defined]
