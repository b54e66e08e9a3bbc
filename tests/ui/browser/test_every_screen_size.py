"""Every game at every screen size (issue 28): 390 × 844, 768 × 1024, 1280 × 800 and 1920 × 1080.
A table of each game is played a few moves in, then at each size: nothing wider than the screen,
the board big enough and uncovered, every tile and place inside it, the hand and Pass on screen
and big enough to tap, and the centre of every enabled button hits that button. Screenshots of
each game on a laptop and a phone go to docs/img/."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from tests.ui.browser.conftest import Peer, screenshot
from tests.ui.browser.table_checks import assert_table_fits
from tests.ui.browser.test_play_in_the_browser import take_turn

SIZES = [(390, 844), (768, 1024), (1280, 800), (1920, 1080)]
GAMES = ["draw", "block", "fives", "threes-luck", "kozel", "cross", "telephone", "trains"]
BOARD_AT_LEAST = 180  # px high

CHECK = """() => {
  scrollTo(0, 0);
  const rect = (e) => e.getBoundingClientRect();
  const board = document.getElementById("board");
  const b = rect(board);
  const hit = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
  const inside = (r) => r.left >= b.left - 1 && r.right <= b.right + 1 && r.top >= b.top - 1
    && r.bottom <= b.bottom + 1;
  const out = [...board.querySelectorAll(".tile .face, .marker-button")]
    .filter((e) => !inside(rect(e))).map((e) => e.className.baseVal ?? e.className);
  const buttons = [...document.querySelectorAll(".table-screen button")]
    .filter((x) => !x.disabled && x.checkVisibility()).map((x) => {
      x.scrollIntoView({ block: "nearest", inline: "nearest" });
      const r = rect(x);
      const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return { button: x.id || x.className, ok: Boolean(at && x.contains(at)),
               at: at ? `${at.tagName}#${at.id}.${at.className}` : null };
    });
  scrollTo(0, 0);
  const surface = board.querySelector(".board-surface");
  const canvas = board.querySelector(".board-svg");
  const drawnFor = canvas && ["width", "height"].map((side) => Number(canvas.getAttribute(side)));
  const size = [Math.max(120, surface.clientWidth), Math.max(90, surface.clientHeight)];
  return { width: document.documentElement.scrollWidth, height: b.height, drawnFor, size,
           boardHit: Boolean(hit && board.contains(hit)), out,
           covered: buttons.filter((x) => !x.ok) };
}"""


def _start(page: Page, game: str) -> None:
    page.select_option("#create-rules", game)
    page.fill("#create-name", game)
    seats = "4" if game == "kozel" else "2"
    page.select_option("#create-seats", seats)
    page.fill("#create-bots", str(int(seats) - 1))
    page.fill("#create-hands", "1")
    page.click("#create-button")
    expect(page.locator("#table")).to_be_visible(timeout=30_000)  # (three bots to start)


def _into_the_hand(page: Page, tiles: int) -> None:
    """Play until at least `tiles` are on the board and it is this page's turn again."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if page.locator("#summary").is_visible():
            return
        mine = page.locator("#turn.mine").count() > 0
        if mine and page.locator(".board .tile").count() >= tiles:
            return
        if mine:
            take_turn(page)
        page.wait_for_timeout(100)


@pytest.mark.parametrize("game", GAMES)
def test_every_game_fits_every_screen(
    peers: Callable[..., Peer], open_page: Callable[..., Page], game: str
) -> None:
    page = open_page(peers("Ann", 48001 + GAMES.index(game)), (1280, 800))
    expect(page.locator("#create-button")).to_be_visible()
    _start(page, game)
    _into_the_hand(page, 4)
    problems = []
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate(  # (the page redraws on the frame after a resize: wait two)
            "new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
        )
        found = page.evaluate(CHECK)
        where = f"{game} {width}x{height}"
        if found["width"] > width:
            problems.append(f"{where}: {found['width']} px wide")
        if found["height"] < BOARD_AT_LEAST or not found["boardHit"]:
            problems.append(f"{where}: board {found['height']:.0f} px, hit {found['boardHit']}")
        if found["drawnFor"] != found["size"]:  # drawn for the board's size, not an older one
            problems.append(f"{where}: drawn for {found['drawnFor']}, the board is {found['size']}")
        if found["out"]:
            problems.append(f"{where}: outside the board {found['out'][:4]}")
        if found["covered"]:
            problems.append(f"{where}: covered buttons {found['covered'][:3]}")
        if not page.locator("#summary").is_visible():
            try:
                assert_table_fits(page)
            except AssertionError as failed:
                problems.append(f"{where}: {failed}")
        if width in (390, 1280):
            name = "phone" if width == 390 else "laptop"
            screenshot(page, f"size-{game}-{name}", docs=f"web-{game}-{name}", full_page=False)
    assert problems == [], "\n".join(problems)
    assert not page.errors  # type: ignore[attr-defined]
