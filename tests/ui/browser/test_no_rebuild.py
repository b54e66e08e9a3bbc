"""The hand and the board are not rebuilt for every snapshot (issue 28 L1): while the page
waits on its turn, the peer's snapshots keep coming (presence, counters), and every tile button
and the board's drawing stay the very same elements, so a tap whose button would have been
replaced between press and release is never lost. When a tile is laid, the hand keeps the
buttons of the tiles it still holds."""

from __future__ import annotations

import json
import time
from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.ui.browser.conftest import Peer

TAG = """() => {
  const s = document.querySelector("#board .board-surface");
  window.__kept = { buttons: [...document.querySelectorAll("#hand .tile-button")],
                    board: document.querySelector("#board .board-svg"),
                    markers: [...document.querySelectorAll("#board .marker-button")],
                    size: `${s.clientWidth}x${s.clientHeight}` };
  return window.__kept.buttons.length;
}"""
STILL = """() => {
  const s = document.querySelector("#board .board-surface");
  const k = window.__kept;
  const now = [...document.querySelectorAll("#hand .tile-button")];
  return { buttons: k.buttons.every((b) => b.isConnected),
           same: now.length === k.buttons.length && now.every((b, i) => b === k.buttons[i]),
           board: k.board.isConnected, markers: k.markers.every((m) => m.isConnected),
           resized: `${s.clientWidth}x${s.clientHeight}` !== k.size };
}"""


def test_snapshots_do_not_replace_the_hand_or_the_board(
    peers: Callable[..., Peer], open_page: Callable[..., Page]
) -> None:
    page = open_page(peers("Ann", 47966))
    states: list[float] = []

    def count(payload: str | bytes) -> None:
        try:
            message = json.loads(payload)
        except (TypeError, ValueError):
            return
        if isinstance(message, dict) and message.get("screen") == "table":
            states.append(time.monotonic())

    page.on("websocket", lambda socket: socket.on("framereceived", count))
    page.reload()
    expect(page.locator("#create-button")).to_be_visible()
    page.fill("#create-name", "Still")
    page.select_option("#create-seats", "2")
    page.fill("#create-bots", "1")
    page.fill("#create-hands", "1")
    page.click("#create-button")
    expect(page.locator("#turn.mine")).to_be_visible(timeout=30_000)
    assert page.evaluate(TAG) >= 1
    tagged = time.monotonic()
    deadline = tagged + 25
    while time.monotonic() < deadline and sum(t > tagged for t in states) < 2:
        page.wait_for_timeout(200)  # (waiting for the peer's next snapshots)
    assert sum(t > tagged for t in states) >= 2, "no snapshot came while the page waited"
    expect(page.locator("#turn.mine")).to_be_visible()
    kept = page.evaluate(STILL)
    assert kept["buttons"] and kept["same"], kept
    # The board is drawn again only when its size changed (a seat's words grew a line).
    assert (kept["board"] and kept["markers"]) or kept["resized"], kept

    # A tile laid: the buttons of the tiles still held are the same elements.
    playable = page.locator(".tile-button.playable")
    if playable.count():
        laid = playable.first.get_attribute("data-tile")
        page.evaluate(TAG)
        playable.first.click()
        page.locator(".marker-button.target").first.click()
        expect(page.locator(f'#hand [data-tile="{laid}"]')).to_have_count(0)
        left = page.evaluate(
            """(laid) => window.__kept.buttons.filter((b) => b.dataset.tile !== laid)
                 .every((b) => b.isConnected)""",
            laid,
        )
        assert left
    assert not page.errors  # type: ignore[attr-defined]
