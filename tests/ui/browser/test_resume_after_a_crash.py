"""`play` killed mid-hand (`kill -9`, its bot with it) and started again on the same data
directory: the tab that was open reconnects by itself (same page, same session), its lobby offers
to resume the table, and the resumed table is played to its end from that tab."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Page, expect

from tests.ui.browser.conftest import Peer
from tests.ui.browser.test_play_in_the_browser import take_turn


def test_the_open_tab_resumes_a_table_after_play_was_killed_and_restarted(
    tmp_path: Path, open_page: Callable[..., Page]
) -> None:
    data = tmp_path / "ann"
    first = Peer("Ann", 47911, data)
    again: Peer | None = None
    try:
        page = open_page(first)
        page.fill("#create-name", "Comeback")
        page.select_option("#create-seats", "2")
        page.fill("#create-bots", "1")
        page.fill("#create-hands", "1")
        page.click("#create-button")
        expect(page.locator("#hand .tile-button")).not_to_have_count(0)
        first.kill()
        expect(page.locator("#peer-lost")).to_be_visible()
        again = Peer("Ann", 47911, data)
        assert again.port == first.port  # the page's port is kept with its session
        # No new link opened: the tab finds its peer again and offers the unfinished table.
        expect(page.locator("#peer-lost")).to_be_hidden()
        expect(page.locator("#unfinished-text")).to_contain_text("Table 'Comeback'")
        page.click("#resume-button")
        expect(page.locator("#table")).to_be_visible()
        deadline = time.monotonic() + 40
        while not page.locator("#summary-winner").is_visible():
            assert time.monotonic() < deadline, "the resumed table did not reach its end"
            take_turn(page)
            page.wait_for_timeout(100)
        expect(page.locator("#to-lobby")).to_be_visible()
        assert not page.errors  # type: ignore[attr-defined]
    finally:
        first.kill()
        if again is not None:
            again.stop()
