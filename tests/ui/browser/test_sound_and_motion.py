"""Sound and motion at the table (issue 28).

Sound: a speaker button and a volume slider that look like what they are (not a big empty box,
L2), off until the player turns sound on, then a clack for a tile laid and a chime for "your
turn"; the choice is remembered by the browser across a reload.

Motion: with motion allowed, the hand is dealt (its tiles come in one after another), a tile
laid by the bot flies from the bot's seat to its place, and
the player's own from the hand; the copy in flight takes no clicks. With prefers-reduced-motion
nothing flies."""

from __future__ import annotations

import time
from collections.abc import Callable

from playwright.sync_api import Browser, Page, expect

from tests.ui.browser.conftest import Peer
from tests.ui.browser.test_play_in_the_browser import take_turn

HEARD = """() => { window.__heard = [];
  document.addEventListener("p2p-sound", (e) => window.__heard.push(e.detail)); }"""
FLIGHTS = """() => { window.__flights = [];
  new MutationObserver((changes) => { for (const change of changes)
    for (const node of change.addedNodes) {
    if (!(node instanceof HTMLElement) || !node.classList.contains("flying-tile")) continue;
    const r = node.getBoundingClientRect();
    window.__flights.push({ kind: node.dataset.kind, seat: Number(node.dataset.seat),
      fromX: Number(node.dataset.fromX), fromY: Number(node.dataset.fromY),
      clicks: getComputedStyle(node).pointerEvents, width: r.width });
  } }).observe(document.body, { childList: true });
}"""
DEAL = """() => { window.__dealt = false;
  new MutationObserver(() => { if (document.getElementById("hand").classList.contains("dealing"))
    window.__dealt = true; }).observe(document.getElementById("hand"), { attributes: true }); }"""
SEAT = """(seat) => { const r = document.querySelector(`.seat[data-seat="${seat}"]`)
  .getBoundingClientRect();
  return { left: r.left, top: r.top, right: r.right, bottom: r.bottom }; }"""


def _start(page: Page, hands: str = "1") -> None:
    page.fill("#create-name", "Sounds")
    page.select_option("#create-seats", "2")
    page.fill("#create-bots", "1")
    page.fill("#create-hands", hands)
    page.click("#create-button")
    expect(page.locator("#table")).to_be_visible()


def _play(page: Page, until: Callable[[], bool], seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and not until():
        if page.locator("#summary").is_visible():
            break
        take_turn(page)
        page.wait_for_timeout(100)


def test_sound_is_off_until_turned_on_then_heard_and_remembered(
    peers: Callable[..., Peer], open_page: Callable[..., Page]
) -> None:
    page = open_page(peers("Ann", 47967), (1280, 800))
    _start(page, hands="2")
    page.evaluate(HEARD)
    sound, volume = page.locator("#sound"), page.locator("#volume")
    expect(sound).to_have_attribute("aria-pressed", "false")  # off until the player says
    expect(volume).to_be_disabled()
    box = sound.bounding_box()
    assert box and box["height"] >= 44 and box["width"] <= 200, box  # a button, not a big box
    assert volume.get_attribute("type") == "range"
    _play(page, lambda: page.locator(".board .tile").count() >= 4, 30)
    assert page.evaluate("window.__heard") == []  # moves made, nothing heard
    sound.click()
    expect(sound).to_have_attribute("aria-pressed", "true")
    expect(volume).to_be_enabled()
    volume.fill("80")
    _play(page, lambda: {"clack", "turn"} <= set(page.evaluate("window.__heard")), 40)
    heard = set(page.evaluate("window.__heard"))
    assert {"clack", "turn"} <= heard, heard
    page.reload()  # remembered by this browser
    expect(page.locator("#sound")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#volume")).to_have_value("80")
    assert not page.errors  # type: ignore[attr-defined]


def _flights(page: Page) -> list[dict[str, float | str]]:
    found: list[dict[str, float | str]] = page.evaluate("window.__flights")
    return found


def test_a_laid_tile_flies_from_its_seat_and_not_with_reduced_motion(
    peers: Callable[..., Peer], browser: Browser
) -> None:
    ann = peers("Ann", 47968)
    context = browser.new_context(
        viewport={"width": 1280, "height": 800}, reduced_motion="no-preference"
    )
    context.set_default_timeout(20_000)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("dialog", lambda dialog: dialog.accept())
        page.goto(ann.url)
        expect(page.locator("#create-button")).to_be_visible()
        page.evaluate(DEAL)
        _start(page)
        page.evaluate(FLIGHTS)
        page.wait_for_function("() => window.__dealt")  # the deal: the hand's tiles come in
        animation = page.evaluate(
            """() => { const hand = document.getElementById("hand");
              const first = hand.querySelector(".tile-button");
              return hand.classList.contains("dealing") && first
                ? getComputedStyle(first).animationName : "deal"; }"""
        )
        assert animation == "deal", animation  # (while the hand is being dealt)
        _play(page, lambda: any(f["seat"] == 1 and f["kind"] == "play" for f in _flights(page)))
        flights = _flights(page)
        bots = [f for f in flights if f["kind"] == "play" and f["seat"] == 1]
        assert bots, flights
        seat = page.evaluate(SEAT, 1)
        for flight in bots:  # from the bot's seat card
            assert seat["left"] <= float(flight["fromX"]) <= seat["right"], (flight, seat)
            assert seat["top"] <= float(flight["fromY"]) <= seat["bottom"], (flight, seat)
        assert all(f["clicks"] == "none" for f in flights), flights  # never in the way
        # The same page with reduced motion: the next moves fly no more.
        page.emulate_media(reduced_motion="reduce")
        page.evaluate("window.__flights = []")
        laid = page.locator(".board .tile").count()
        _play(page, lambda: page.locator(".board .tile").count() >= laid + 2, 30)
        assert page.locator(".board .tile").count() > laid or page.locator("#summary").is_visible()
        assert _flights(page) == []
        assert errors == []
    finally:
        context.close()
