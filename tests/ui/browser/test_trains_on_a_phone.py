"""Trains on a 390 × 844 phone (issue 28 M5): the tiles are big enough to read (a tile's short
side at least 28 px), every train keeps to one row (a long train shows its newest tiles and how
many more there are, never a second row that reads as another train), and no place's button
covers a train's label. Checked at every turn of a hand against a bot."""

from __future__ import annotations

import time
from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.ui.browser.conftest import Peer, screenshot
from tests.ui.browser.test_play_in_the_browser import take_turn

PHONE = (390, 844)
MIN_UNIT = 28  # px: the short side of a tile on the trains board

LAYOUT = """() => {
  const box = (e) => { const r = e.getBoundingClientRect();
    return { x: r.left, y: r.top, w: r.width, h: r.height, right: r.right, bottom: r.bottom }; };
  const tiles = [...document.querySelectorAll(".trains-board .tile:not(.engine)")].map((g) => ({
    ray: g.dataset.ray, ...box(g.querySelector(".face")) }));
  const labels = [...document.querySelectorAll(".trains-board .train-label")].map((e) => ({
    ray: e.dataset.ray, ...box(e) }));
  const markers = [...document.querySelectorAll("#board .marker-button")].map((e) => ({
    end: e.dataset.end, ...box(e) }));
  return { tiles, labels, markers };
}"""


SURFACE = """(() => { const s = document.querySelector('.board-surface');
  return [s.clientWidth, s.clientHeight]; })()"""


def _meets(a: dict[str, float], b: dict[str, float]) -> bool:
    across = a["x"] < b["right"] and b["x"] < a["right"]
    return across and a["y"] < b["bottom"] and b["y"] < a["bottom"]


def check_trains(page: Page) -> int:
    """The three rules above, on the board as it is; returns how many tiles are drawn."""
    found = page.evaluate(LAYOUT)
    rows: dict[str, set[int]] = {}
    if any(min(tile["w"], tile["h"]) < MIN_UNIT - 3 for tile in found["tiles"]):
        screenshot(page, "trains-phone-small", full_page=False)
    for tile in found["tiles"]:
        assert min(tile["w"], tile["h"]) >= MIN_UNIT - 3, (tile, page.evaluate(SURFACE))
        rows.setdefault(tile["ray"], set()).add(round(tile["y"]))
    for ray, tops in rows.items():
        assert max(tops) - min(tops) <= 1, (ray, sorted(tops))  # one row per train
    for marker in found["markers"]:
        for label in found["labels"]:
            assert not _meets(marker, label), (marker, label)
    return len(found["tiles"])


def test_trains_on_a_phone_are_readable(
    peers: Callable[..., Peer], open_page: Callable[..., Page]
) -> None:
    page = open_page(peers("Ann", 47991), PHONE, phone=True)
    page.select_option("#create-rules", "trains")
    page.fill("#create-name", "Trains")
    page.select_option("#create-seats", "3")
    page.fill("#create-bots", "2")
    page.fill("#create-hands", "1")
    page.click("#create-button")
    expect(page.locator("#table")).to_be_visible(timeout=30_000)  # (the bots start first)
    most = turns = 0
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not page.locator("#summary").is_visible():
        if page.locator("#turn.mine").count():
            if not turns:
                screenshot(page, "trains-phone-start", full_page=False)
            most = max(most, check_trains(page))
            if most >= 6 and turns % 3 == 0:
                screenshot(page, "trains-phone-mid", full_page=False)
            if page.locator(".tile-button.playable").count():
                page.locator(".tile-button.playable").first.click()
                expect(page.locator(".marker-button.target").first).to_be_visible()
                most = max(most, check_trains(page))  # with its places lit
                page.locator(".marker-button.target").first.click()
            else:
                take_turn(page)
            turns += 1
        time.sleep(0.1)
    assert most >= 4, most
    assert not page.errors  # type: ignore[attr-defined]


LONG_TRAINS = """async () => {
  const { trainsRenderer } = await import("/static/board-shapes.js");
  const host = document.createElement("div");
  Object.assign(host.style, { position: "fixed", left: "0", top: "0", width: "370px",
    height: "300px" });
  document.body.append(host);
  const tiles = (n) => Array.from({ length: n }, (_, i) => (
    { tile: `${i % 7}|${(i + 1) % 7}`, near: i % 7, far: (i + 1) % 7 }));
  const board = { root: { tile: "6|6", low: 6, high: 6 }, rays: [
    { ray: "T0", tiles: tiles(12), open: true, state: "mine" },
    { ray: "T1", tiles: tiles(3), open: true, state: "open" },
    { ray: "TC", tiles: tiles(9), open: true, state: "common" } ] };
  const { unit, places } = trainsRenderer.render(host, { board, seat: 0, names: ["Ann", "Bob"] });
  const rows = {};
  for (const g of host.querySelectorAll(".tile:not(.engine)")) {
    (rows[g.dataset.ray] ||= new Set()).add(Math.round(g.getBoundingClientRect().top));
  }
  const more = [...host.querySelectorAll(".train-more")].map((e) => [e.dataset.ray, e.textContent]);
  const right = Math.max(...Object.values(places).map((p) => p.x + p.w));
  host.remove();
  return { unit, rows: Object.fromEntries(Object.entries(rows).map(([k, v]) => [k, v.size])),
           more, right };
}"""


def test_a_long_train_keeps_one_row_and_counts_its_older_tiles(
    peers: Callable[..., Peer], open_page: Callable[..., Page]
) -> None:
    """The renderer itself, with trains longer than a phone's row: one row each, "+N" for the
    tiles that are not drawn, every place inside the board."""
    page = open_page(peers("Ann", 47992), PHONE, phone=True)
    expect(page.locator("#create-button")).to_be_visible()
    found = page.evaluate(LONG_TRAINS)
    assert found["unit"] >= MIN_UNIT, found
    assert found["rows"] == {"T0": 1, "T1": 1, "TC": 1}, found
    shown = dict(found["more"])
    assert set(shown) == {"T0", "TC"}, found  # the short train shows all of its tiles
    assert all(text.startswith("+") for text in shown.values()), found
    assert found["right"] <= 370, found
    assert not page.errors  # type: ignore[attr-defined]


def test_a_short_board_puts_the_labels_beside_the_trains(
    peers: Callable[..., Peer], open_page: Callable[..., Page]
) -> None:
    """A phone's board squeezed by a hand of two rows (185 px high): four trains still show
    readable tiles, each label beside its row, no place over a label."""
    page = open_page(peers("Ann", 47993), PHONE, phone=True)
    expect(page.locator("#create-button")).to_be_visible()
    found = page.evaluate(
        LONG_TRAINS.replace('"300px"', '"185px"').replace(
            '{ ray: "TC"',
            '{ ray: "T2", tiles: tiles(2), open: false, state: "closed" },\n    { ray: "TC"',
        )
    )
    assert found["unit"] >= MIN_UNIT, found
    assert found["rows"] == {"T0": 1, "T1": 1, "T2": 1, "TC": 1}, found
    assert found["right"] <= 370, found
