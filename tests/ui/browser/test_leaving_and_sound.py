"""Leaving the page mid-hand asks first (not in the lobby); "Your turn" shows in the tab's title;
the turn sound is off until the player switches it on, then each turn beeps (WebAudio made on
the page: no sound file is fetched)."""

from __future__ import annotations

import time
from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.ui.browser.conftest import Peer
from tests.ui.browser.test_play_in_the_browser import take_turn

# Every oscillator the page starts, counted instead of played (headless, nobody listens).
SPY = """() => {
  window.beeps = 0;
  const Real = window.AudioContext;
  window.AudioContext = class extends Real {
    createOscillator() {
      const tone = super.createOscillator();
      const start = tone.start.bind(tone);
      tone.start = (...args) => { window.beeps += 1; return start(...args); };
      return tone;
    }
  };
}"""


def my_turn(page: Page) -> None:
    """Wait for this page's turn (the bot plays its own)."""
    expect(page.locator("#me-bar.turn")).to_have_count(1)


def test_leaving_mid_hand_asks_and_the_turn_can_beep(
    peers: Callable[..., Peer], open_page: Callable[..., Page]
) -> None:
    ann = peers("Ann", 47921)
    page = open_page(ann)
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.click("#create-name")  # the page has been used: a browser may ask before leaving it
    page.reload()
    expect(page.locator("#create-button")).to_be_visible()
    assert page.dialogs == []  # type: ignore[attr-defined]  # the lobby is left without a word
    page.evaluate(SPY)
    page.fill("#create-name", "Sound")
    page.select_option("#create-seats", "2")
    page.fill("#create-bots", "1")
    page.fill("#create-hands", "1")
    page.click("#create-button")
    expect(page.locator("#sound")).to_have_attribute("aria-pressed", "false")  # off by default
    my_turn(page)
    expect(page).to_have_title("Your turn · p2p-dominoes")
    assert page.evaluate("window.beeps") == 0
    page.click("#sound")  # (turned on, it plays its chime once: how it sounds)
    expect(page.locator("#sound")).to_have_attribute("aria-pressed", "true")
    page.evaluate("window.beeps = 0")
    deadline = time.monotonic() + 30
    while page.evaluate("window.beeps") == 0:
        assert time.monotonic() < deadline, "no beep on the next turn"
        take_turn(page)
        page.wait_for_timeout(150)
    # Leaving now (a reload, a closed tab) asks first; the answer here is "leave".
    page.reload()
    assert page.dialogs == ["beforeunload"]  # type: ignore[attr-defined]
    expect(page.locator("#table")).to_be_visible()
    expect(page.locator("#sound")).to_have_attribute("aria-pressed", "true")  # the choice is kept
    assert all(url.startswith(ann.origin) for url in requests), requests  # no sound file
    assert not page.errors  # type: ignore[attr-defined]
