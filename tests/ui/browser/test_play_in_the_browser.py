"""Two people in two browsers, on two peers, with a bot peer: create, join, play a hand."""

from __future__ import annotations

import re
import time
from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.ui.browser.conftest import Peer, screenshot


def take_turn(page: Page, *, prefer_draw: bool = False) -> str | None:
    """If it is this page's turn: draw (when asked and allowed), else click a playable tile and
    then its target marker, else draw, else pass. Returns what it did."""
    if prefer_draw and not page.locator("#draw").is_disabled():
        page.click("#draw")
        return "draw"
    playable = page.locator(".tile-button.playable")
    if playable.count():
        playable.first.click()
        page.locator(".marker-button.target").first.click()
        return "play"
    if not page.locator("#draw").is_disabled():
        page.click("#draw")
        return "draw"
    if not page.locator("#pass").is_disabled():
        page.click("#pass")
        return "pass"
    return None


def test_two_players_and_a_bot_play_a_complete_hand_by_clicking(
    peers: Callable[..., Peer], open_page: Callable[[Peer], Page]
) -> None:
    ann, bob = peers("Ann", 47811), peers("Bob", 47812)
    page_a, page_b = open_page(ann), open_page(bob)
    requests: list[str] = []
    for page in (page_a, page_b):
        page.on("request", lambda request: requests.append(request.url))
        page.on("websocket", lambda socket: requests.append(socket.url))
    expect(page_a.locator("#my-address")).to_contain_text("127.0.0.1:47811")
    screenshot(page_a, "lobby")

    page_a.fill("#create-name", "Friday")
    page_a.select_option("#create-seats", "3")
    page_a.fill("#create-bots", "1")
    page_a.fill("#create-hands", "1")
    page_a.click("#create-button")
    expect(page_a.locator("#lobby-lines")).to_contain_text("is open on port 47811")
    page_b.fill("#join-address", "127.0.0.1:47811")
    page_b.click("#join-button")
    # Ann's page asks her about Bob (the bot she started was seated without asking).
    request = page_a.locator("#requests li")
    expect(request).to_contain_text("Bob asks for a seat")
    request.locator("button.approve").click()
    expect(page_b.locator("#table")).to_be_visible()
    expect(page_a.locator("#table")).to_be_visible()
    # Every seated player, and the table code to read aloud: the same words on both screens
    # (as the two peers computed them), with the full fingerprints one click away.
    for page in (page_a, page_b):
        expect(page.locator("#players li")).to_have_count(3)
        expect(page.locator("#table .compare")).to_contain_text("Compare the table code")
        expect(page.locator("#code-digits")).to_have_text(re.compile(r"^\(\d{3}(-\d{3}){3}\)$"))
        expect(page.locator("#fingerprint-list li")).to_have_count(3)
        expect(page.locator("#fingerprint-list li").first).not_to_be_visible()
    code_a = page_a.locator("#code-words").text_content()
    assert code_a and len(code_a.split()) == 4, code_a
    assert code_a == page_b.locator("#code-words").text_content()
    assert page_a.locator("#code-digits").text_content() == (
        page_b.locator("#code-digits").text_content()
    )
    page_a.click("#fingerprints summary")
    expect(page_a.locator("#fingerprint-list li").first).to_be_visible()
    expect(page_a.locator("#fingerprint-list li").first).to_have_text(
        re.compile(r"^Ann: [A-Z2-7]{4}(-[A-Z2-7]{4}){7}$")  # the full 160-bit fingerprint
    )

    actions: dict[str, int] = {"play": 0, "draw": 0, "pass": 0}
    drew = {page_a: False, page_b: False}
    mid_hand_shot = False
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if page_a.locator("#end").is_visible() and page_b.locator("#end").is_visible():
            break
        for page in (page_a, page_b):
            done = take_turn(page, prefer_draw=not drew[page])
            if done == "draw":
                drew[page] = True
            if done:
                actions[done] += 1
                if done == "play" and not mid_hand_shot and actions["play"] >= 3:
                    page.wait_for_timeout(300)
                    screenshot(page, "table-mid-hand")
                    mid_hand_shot = True
        time.sleep(0.15)
    expect(page_a.locator("#end")).to_be_visible()
    expect(page_b.locator("#end")).to_be_visible()
    assert actions["play"] >= 2 and actions["draw"] >= 1

    # Both pages show the same result, the arithmetic and the audit.
    result_a = page_a.locator("#end-points").text_content()
    assert result_a == page_b.locator("#end-points").text_content()
    assert result_a and ("=" in result_a or "Nobody scores" in result_a)
    expect(page_a.locator("#end-audit")).to_contain_text("clean")
    expect(page_a.locator("#end-code")).to_contain_text(f"Table code: {code_a}")
    assert page_a.locator("#end-hands li").all_text_contents() == (
        page_b.locator("#end-hands li").all_text_contents()
    )
    screenshot(page_a, "end-of-hand")

    # The signed record downloads, and nothing was loaded from anywhere but our own peers.
    with page_a.expect_download() as download:
        page_a.click("#download")
    assert download.value.suggested_filename.endswith(".p2pd")
    assert all(
        url.startswith(
            (
                ann.origin,
                bob.origin,
                ann.origin.replace("http", "ws"),
                bob.origin.replace("http", "ws"),
            )
        )
        for url in requests
    ), requests
    assert not page_a.errors and not page_b.errors  # type: ignore[attr-defined]


def test_a_turn_played_from_the_keyboard_is_announced(
    peers: Callable[..., Peer], open_page: Callable[[Peer], Page]
) -> None:
    ann = peers("Ann", 47821)
    page = open_page(ann)
    page.fill("#create-name", "Keys")
    page.select_option("#create-seats", "2")
    page.fill("#create-bots", "1")
    page.fill("#create-hands", "1")
    page.click("#create-button")
    expect(page.locator("#table")).to_be_visible()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if page.locator(".tile-button.playable").count():
            break
        if not page.locator("#draw").is_disabled():
            page.keyboard.press("d")  # the draw shortcut
        page.wait_for_timeout(200)
    tiles_before = page.locator("#board svg g").count()
    # Tab to the first playable tile, Enter to pick it, Enter on the focused target to play it.
    first = page.locator(".tile-button.playable").first
    label = first.get_attribute("aria-label")
    assert label and label.startswith("tile ")
    first.focus()
    expect(first).to_be_focused()
    page.keyboard.press("Enter")
    target = page.locator(".marker-button.target").first
    expect(target).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#board svg g")).not_to_have_count(tiles_before)
    # The live region reads out the engine's board description.
    live = page.locator("#board-text")
    assert live.get_attribute("aria-live") == "polite"
    expect(live).to_contain_text("Tiles: ")
    expect(live).to_contain_text("Open places: ")


def test_the_page_speaks_russian_when_asked(
    peers: Callable[..., Peer], open_page: Callable[[Peer], Page]
) -> None:
    anna = peers("Анна", 47841, lang="ru")
    page = open_page(anna)
    expect(page.locator("#lobby-title")).to_have_text("Лобби")
    expect(page.locator("#create-button")).to_have_text("Создать и ждать игроков")
    assert page.evaluate("document.documentElement.lang") == "ru"
