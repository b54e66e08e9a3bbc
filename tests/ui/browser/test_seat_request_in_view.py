"""The host sees a request for a seat where it looks (issue 28 M8): right after Create, with no
scrolling, "Bob asks for a seat" and its Seat / Refuse buttons are on screen and not covered,
on a laptop and on a phone, and the tab's title says it too (a host in another tab sees it)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.ui.browser.conftest import Peer, screenshot
from tests.ui.browser.test_host_approves import _join_process

IN_VIEW = """(css) => [...document.querySelectorAll(css)].map((e) => {
  const r = e.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return { what: e.className || e.tagName, top: r.top, bottom: r.bottom,
           inside: r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth,
           hit: Boolean(hit && e.contains(hit)) };
})"""


@pytest.mark.parametrize(
    ("viewport", "lang"), [((1280, 800), "en"), ((390, 844), "ru")], ids=["laptop", "phone"]
)
def test_a_request_for_a_seat_is_on_the_hosts_screen_and_in_the_tab_title(
    peers: Callable[..., Peer],
    open_page: Callable[..., Page],
    tmp_path: Path,
    viewport: tuple[int, int],
    lang: str,
) -> None:
    port = 47981 if lang == "en" else 47982
    ann = peers("Ann", port, lang=lang)
    page = open_page(ann, viewport, locale="ru-RU" if lang == "ru" else "en-US", phone=lang == "ru")
    page.fill("#create-name", "Asks")
    page.select_option("#create-seats", "2")
    page.fill("#create-hands", "1")
    page.click("#create-button")  # (scrolls the page down to the button first)
    expect(page.locator("#host-code")).to_be_visible()
    digits = page.locator("#host-code-words").inner_text().split("(")[1].rstrip(")")
    bob = _join_process("Bob", port, tmp_path / "bob", tmp_path / "bob.out", "--code", digits)
    try:
        request = page.locator("#requests li")
        expect(request).to_have_count(1, timeout=30_000)
        asks = "Bob asks for a seat" if lang == "en" else "Bob просит место"
        expect(request).to_contain_text(asks)
        title = f"{asks} · " + ("p2p-dominoes" if lang == "en" else "p2p-домино")
        expect(page).to_have_title(title)
        page.wait_for_function(
            "() => { const r = document.querySelector('#requests li').getBoundingClientRect();"
            " return r.top >= 0 && r.bottom <= innerHeight; }",
            timeout=5000,
        )
        screenshot(page, f"host-asked-{viewport[0]}", full_page=False)
        for part in page.evaluate(IN_VIEW, "#requests li, #requests li button"):
            assert part["inside"] and part["hit"], part
        request.locator("button.approve").click()
        expect(page.locator("#table")).to_be_visible(timeout=30_000)
        expect(page).not_to_have_title(title)
    finally:
        if bob.poll() is None:
            bob.kill()
        bob.wait(10)
    assert not page.errors  # type: ignore[attr-defined]
