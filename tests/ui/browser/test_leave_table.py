"""Issue 29 (v4) on the page, in English and Russian: Bob clicks *Leave the table* and confirms;
his page shows that he left, with the signed record to download. Ann's page asks her whether to
go on with a bot in Bob's seat (a modal with two buttons, axe-clean); she says yes, and his seat
shows its new holder's name with a "bot" badge, and the scores carry his score over, marked.

Three seats: Ann hosts (the lowest seat, so she proposes the continuation), the host's bot, and
Bob; real `play` peers over TCP on 127.0.0.1."""

from __future__ import annotations

import re
import time
from collections.abc import Callable

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect

from tests.ui.browser.conftest import Peer, approve_request, join_code
from tests.ui.browser.test_play_in_the_browser import take_turn

WORDS = {
    "en": {
        "locale": "en-US",
        "leave": "Leave the table",
        "title": "Bob has left the table",
        "left": "You left the table",
        "badge": "bot",
        "carried": "score carried over from Bob",
    },
    "ru": {
        "locale": "ru-RU",
        "leave": "Уйти из-за стола",
        "title": "Bob ушёл(ушла) из-за стола",
        "left": "Вы ушли из-за стола",
        "badge": "бот",
        "carried": "счёт перенесён от игрока Bob",
    },
}
PORTS = {"en": (48061, 48062), "ru": (48063, 48064)}


def _in_hand(page: Page) -> bool:
    """A hand is in play on this page: somebody's turn is shown."""
    return bool((page.locator("#turn").text_content() or "").strip())


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_bob_leaves_ann_goes_on_and_his_seat_shows_the_bot(
    peers: Callable[..., Peer], open_page: Callable[..., Page], lang: str
) -> None:
    words = WORDS[lang]
    ann_port, bob_port = PORTS[lang]
    ann, bob = peers("Ann", ann_port, lang), peers("Bob", bob_port, lang)
    page = open_page(ann, locale=words["locale"])
    bobs = open_page(bob, locale=words["locale"])
    page.fill("#create-name", "Leaving")
    page.select_option("#create-seats", "3")
    page.fill("#create-bots", "1")
    page.fill("#create-hands", "3")
    page.fill("#create-stall", "30")
    page.click("#create-button")
    expect(page.locator("#lobby-lines")).to_contain_text(str(ann_port))
    bobs.fill("#join-address", f"127.0.0.1:{ann_port}")
    bobs.fill("#join-code", join_code(page)[0])
    bobs.click("#join-button")
    approve_request(page)
    expect(page.locator("#table")).to_be_visible()
    expect(bobs.locator("#table")).to_be_visible()
    deadline = time.monotonic() + 60
    while not (_in_hand(bobs) and _in_hand(page)):
        assert time.monotonic() < deadline, "no hand began"
        page.wait_for_timeout(200)
    # Bob leaves: the button, then the confirm step (Stay is the safe first choice).
    leave = bobs.locator("#leave")
    expect(leave).to_have_text(words["leave"])
    leave.click()
    expect(bobs.locator("#leave-confirm")).to_be_visible()
    expect(bobs.locator("#leave-no")).to_be_focused()
    bobs.click("#leave-yes")
    # Ann is asked, in a modal whose first button has the focus.
    question = page.locator("#go-on")
    expect(question).to_be_visible(timeout=30_000)
    expect(page.locator("#go-on-title")).to_have_text(words["title"])
    expect(page.locator("#go-on-text")).to_contain_text("Bob (bot)")
    expect(page.locator("#go-on-yes")).to_be_focused()
    found = Axe().run(page).response["violations"]
    assert not found, [(v["id"], [n["target"] for n in v["nodes"]]) for v in found]
    page.keyboard.press("Enter")  # yes, from the keyboard
    expect(question).to_be_hidden()
    # Bob's page: he left, and may download the signed record.
    expect(bobs.locator("#summary-title")).to_have_text(words["left"], timeout=30_000)
    expect(bobs.locator("#download")).to_be_visible()
    bobs.click("#download")
    # Ann's page: Bob's seat is the bot's now, with its badge; his score is carried over.
    seat = page.locator("#players .seat", has_text="Bob (bot)")
    expect(seat).to_have_count(1, timeout=30_000)
    expect(seat.locator(".bot-badge")).to_contain_text(words["badge"])
    expect(page.locator("#scores-text")).to_contain_text(f"Bob (bot) ({words['carried']})")
    # The match goes on: Ann plays until the next hand's summary, whose row is marked too.
    deadline = time.monotonic() + 120
    while not page.locator("#summary").is_visible():
        assert time.monotonic() < deadline, "the next hand did not end"
        take_turn(page)
        page.wait_for_timeout(100)
    row = page.locator("#summary-rows tr", has_text="Bob (bot)")
    expect(row).to_contain_text(words["carried"])
    assert re.search(r"Bob \(bot\)", page.locator("#log").inner_text())
    assert not page.errors and not bobs.errors  # type: ignore[attr-defined]
