"""The telephone and trains on the page, against a bot (issue 16): a hand of each played to the
end with clicks. Each time a tile is chosen, the lit places are exactly the ones the peer says
it fits (and on trains only the player's own train, the common one, or trains open to all); the
board draws the centre with its rays, or one row per train with its owner and the common train
apart; the board text is the engine's description. Screenshots of both boards mid-hand.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.ui.browser.conftest import Peer, screenshot
from tests.ui.browser.table_checks import accessibility_defects

PHONE = (390, 844)


def _snapshots(page: Page) -> list[dict[str, Any]]:
    """Every table snapshot the peer sends this page, as they come."""
    got: list[dict[str, Any]] = []

    def keep(payload: str | bytes) -> None:
        try:
            message = json.loads(payload)
        except (ValueError, TypeError):
            return
        if isinstance(message, dict) and message.get("screen") == "table":
            got.append(message)

    page.on("websocket", lambda socket: socket.on("framereceived", keep))
    page.reload()  # the page's socket opens again, now watched
    expect(page.locator("#create-button")).to_be_visible()
    return got


def _host(page: Page, rules: str) -> None:
    page.select_option("#create-rules", rules)
    page.fill("#create-name", rules)
    page.select_option("#create-seats", "2")
    page.fill("#create-bots", "1")
    page.fill("#create-hands", "1")
    page.click("#create-button")
    expect(page.locator("#table")).to_be_visible(timeout=30_000)  # (the bots start first)


def _lit(page: Page) -> set[str]:
    targets = page.locator(".marker-button.target")
    return {targets.nth(i).get_attribute("data-end") or "" for i in range(targets.count())}


def _reachable(snapshot: dict[str, Any]) -> set[str]:
    """Trains: the places the player may use (own train, common, trains open to all)."""
    seat = snapshot["seat"]
    rays = snapshot["board"]["rays"]
    return {r["ray"] for r in rays if r["ray"] in (f"T{seat}", "TC") or r["state"] == "open"}


def _play_a_hand(page: Page, rules: str, shot: str) -> dict[str, int]:
    """Play one hand with clicks until the summary shows; returns what was checked."""
    snaps = _snapshots(page)
    _host(page, rules)
    checked = {"choices": 0, "plays": 0, "shots": 0}
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and not page.locator("#summary").is_visible():
        if not page.locator("#turn.mine").count() or not snaps:
            time.sleep(0.1)
            continue
        page.wait_for_timeout(150)  # the latest snapshot has reached the page
        s = snaps[-1]
        if s["turn"] != s["seat"]:
            continue
        assert s["shape"] == rules and s["board"]["layout"] == rules
        fits = {h["tile"]: h["fits"] for h in s["hand"] if h["fits"]}
        if not fits:
            if page.locator("#draw").is_enabled():
                page.click("#draw")
            elif page.locator("#pass").is_enabled():
                page.click("#pass")
            time.sleep(0.2)
            continue
        for key, ends in fits.items():  # only the legal places light up, for every tile
            page.locator(f'.tile-button[data-tile="{key}"]').click()
            expect(page.locator(".marker-button.target").first).to_be_visible()
            assert _lit(page) == set(ends), (key, _lit(page), ends)
            if rules == "trains" and "lead" not in ends:
                assert set(ends) <= _reachable(s), (ends, s["board"]["rays"])
            checked["choices"] += 1
        _check_drawing(page, s)
        if len(s["line"]) >= 5 and not checked["shots"]:
            assert accessibility_defects(page) == []
            screenshot(page, f"{shot}-mid-hand", docs=f"web-{shot}")
            page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
            page.wait_for_timeout(200)
            _check_drawing(page, s)
            assert _lit(page) == set(fits[next(reversed(fits))])
            screenshot(page, f"{shot}-mid-hand-phone", docs=f"web-{shot}-phone")
            page.set_viewport_size({"width": 1280, "height": 800})
            page.wait_for_timeout(200)
            if rules == "trains":  # the page's own words for the trains, in Russian
                page.select_option("#lang-select", "ru")
                labels = page.locator("#board .train-label")
                expect(labels.first).to_contain_text("ваш поезд")
                expect(labels.last).to_contain_text("общий поезд")
                page.select_option("#lang-select", "en")
                expect(labels.first).to_contain_text("your train")
            checked["shots"] += 1
        before = page.locator(".tile-button").count()
        # Play the last chosen tile by the keyboard on its first target, else click it.
        if checked["plays"] % 2:
            page.locator(".marker-button.target").first.focus()
            page.keyboard.press("Enter")
        else:
            page.locator(".marker-button.target").first.click()
        expect(page.locator(".tile-button")).to_have_count(before - 1)
        checked["plays"] += 1
    expect(page.locator("#summary")).to_be_visible()
    return checked


DRAWN = """(root) => {
  const host = document.querySelector(root);
  const faces = host.querySelectorAll("svg g.tile").length;
  const older = [...host.querySelectorAll(".train-more")]
    .reduce((sum, more) => sum + Number(more.textContent.replace("+", "")), 0);
  return faces + older;
}"""
"""The tiles a board shows: its faces, and the older tiles each long train's "+N" stands for."""


def _check_drawing(page: Page, s: dict[str, Any]) -> None:
    """The board draws every tile laid, and its shape: rays or labelled trains. A train longer
    than its row shows its newest tiles after "+N" for the N older ones (issue 28 M5): those
    count as drawn. (Counting faces alone failed whenever a train outgrew its row.)"""
    laid = len(s["line"])
    try:
        page.wait_for_function(f"() => ({DRAWN})('#board') === {laid}", timeout=5000)
    except PlaywrightTimeout:
        drawn = page.evaluate(DRAWN, "#board")
        raise AssertionError(f"the board shows {drawn} tiles (faces, +N), {laid} laid") from None
    assert page.locator("#board-text").text_content() == s["description"]
    if not s["line"]:
        return
    if s["shape"] == "trains":
        labels = page.locator("#board .train-label")
        expect(labels).to_have_count(len(s["names"]) + 1)
        texts = [labels.nth(i).text_content() or "" for i in range(labels.count())]
        assert texts[0].startswith("your train") and texts[-1].startswith("common train"), texts
        for ray, text in zip(s["board"]["rays"], texts, strict=True):
            assert ("open to all" in text) == (ray["state"] == "open"), (ray, text)
    else:
        rays = [r["ray"] for r in s["board"]["rays"]]
        assert set(rays) <= {"A", "B", "C", "D", "L0", "L1"}, rays
        assert page.locator("#board svg g.tile.centre").count() == 1


def test_a_telephone_hand_and_a_trains_hand_played_with_clicks(
    peers: Callable[..., Peer], open_page: Callable[..., Page]
) -> None:
    ann = peers("Ann", 47891)
    page = open_page(ann, (1280, 800))
    expect(page.locator("#my-address")).to_contain_text("127.0.0.1:47891")
    phone = _play_a_hand(page, "telephone", "telephone-board")
    assert phone["choices"] and phone["plays"] and phone["shots"], phone
    assert not page.errors  # type: ignore[attr-defined]

    bob = peers("Bob", 47893)
    page = open_page(bob, (1280, 800))
    expect(page.locator("#my-address")).to_contain_text("127.0.0.1:47893")
    trains = _play_a_hand(page, "trains", "trains-board")
    assert trains["choices"] and trains["plays"] and trains["shots"], trains
    assert not page.errors  # type: ignore[attr-defined]


def _made_up_telephone(length: int, seed: int) -> dict[str, Any]:
    """A centre [3|3] with four rays of `length` tiles each, as the snapshot gives them."""
    rng = random.Random(seed)
    rays = []
    for ray in "ABCD":
        tiles, near = [], 3
        for i in range(length):
            far = near if rng.random() < 0.2 else rng.randrange(7)
            key = f"{min(near, far)}|{max(near, far)}#{ray}{i}"
            tiles.append({"tile": key, "near": near, "far": far, "double": near == far})
            near = far
        rays.append({"ray": ray, "tiles": tiles, "open": {"value": near}, "closed": False})
    root = {"tile": "3|3", "low": 3, "high": 3, "double": True}
    return {"layout": "telephone", "root": root, "rays": rays}


def test_four_long_rays_turn_at_the_edges_without_meeting(
    peers: Callable[..., Peer], open_page: Callable[..., Page]
) -> None:
    page = open_page(peers("Ann", 47895))
    page.wait_for_selector("#lobby:not([hidden])")
    for seed in range(4):
        board = _made_up_telephone(6, seed)
        for width, height in ((390, 330), (1000, 330)):
            laid = page.evaluate(
                """async ([board, width, height]) => {
                  const { fitCross } = await import("/static/board-shapes.js");
                  const { laid, b, u } = fitCross(board, width, height, 96);
                  return { tiles: laid.tiles, slots: laid.slots, w: (b.x1 - b.x0) * u,
                           h: (b.y1 - b.y0) * u }; }""",
                [board, width, height],
            )
            boxes = [*laid["tiles"], *laid["slots"].values()]
            for i, a in enumerate(boxes):
                for other in boxes[i + 1 :]:
                    assert not _overlap(a, other), (seed, width, a, other)
            assert set(laid["slots"]) == set("ABCD")
            assert laid["w"] <= width + 1 and laid["h"] <= height + 1  # it fits the board
            ray_a = [t for t in laid["tiles"] if "#A" in str(t["key"])]
            off_row = [t for t in ray_a if t["y"] >= 0.5 or t["y"] + t["h"] <= -0.5]
            assert off_row or width > 900, (seed, width, "ray A never turned")


def _overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["x"] < b["x"] + b["w"] - 0.01
        and b["x"] < a["x"] + a["w"] - 0.01
        and a["y"] < b["y"] + b["h"] - 0.01
        and b["y"] < a["y"] + a["h"] - 0.01
    )


def test_a_long_train_on_a_laptop_board_counts_as_every_tile_laid(
    peers: Callable[..., Peer], open_page: Callable[..., Page]
) -> None:
    """A 14-tile train on the board of a 1280 x 800 table (854 x 300 px) outgrows its row: it
    shows its newest tiles after "+2", so the faces alone are 2 short of the 22 tiles laid
    (what once failed the hand above) while faces and "+N" together are all of them."""
    page = open_page(peers("Ann", 47896))
    expect(page.locator("#create-button")).to_be_visible()
    found = page.evaluate(
        """async () => {
          const { trainsRenderer } = await import("/static/board-shapes.js");
          const host = document.createElement("div");
          host.id = "probe";
          Object.assign(host.style, { position: "fixed", left: "0", top: "0", width: "854px",
            height: "300px" });
          document.body.append(host);
          const tiles = (ray, n) => Array.from({ length: n }, (_, i) => (
            { tile: `${i % 7}|${(i + 1) % 7}#${ray}${i}`, near: i % 7, far: (i + 1) % 7 }));
          const board = { root: { tile: "6|6", low: 6, high: 6 }, rays: [
            { ray: "T0", tiles: tiles("T0", 14), open: true, state: "private" },
            { ray: "T1", tiles: tiles("T1", 3), open: true, state: "private" },
            { ray: "TC", tiles: tiles("TC", 4), open: true, state: "started" } ] };
          trainsRenderer.render(host, { board, seat: 0, names: ["Ann", "Bob"] });
          return { faces: host.querySelectorAll("svg g.tile").length,
            more: [...host.querySelectorAll(".train-more")].map((e) => e.textContent) };
        }"""
    )
    found["shown"] = page.evaluate(DRAWN, "#probe")
    assert found["more"] == ["+2"], found
    assert found["faces"] == 20 and found["shown"] == 22, found
    assert not page.errors  # type: ignore[attr-defined]


def test_a_closed_ray_is_drawn_with_a_bar_across_its_end(
    peers: Callable[..., Peer], open_page: Callable[..., Page]
) -> None:
    """A house rule may close a ray (a double nobody covered): the telephone is drawn with a
    bar across that ray's end, and the board is drawn at all (it once threw "not iterable")."""
    page = open_page(peers("Ann", 47897))
    expect(page.locator("#create-button")).to_be_visible()
    board = _made_up_telephone(3, 1)
    board["rays"][2]["open"] = None
    board["rays"][2]["closed"] = True
    found = page.evaluate(
        """async (board) => {
          const { crossRenderer } = await import("/static/board-shapes.js");
          const host = document.createElement("div");
          Object.assign(host.style, { position: "fixed", left: "0", top: "0", width: "600px",
            height: "400px" });
          document.body.append(host);
          const { places } = crossRenderer.render(host, { board, seat: 0, names: ["Ann", "Bob"] });
          const bars = [...host.querySelectorAll(".ray-closed")].map((bar) => bar.dataset.ray);
          const tiles = host.querySelectorAll("svg g.tile").length;
          host.remove();
          return { bars, tiles, places: Object.keys(places).sort() };
        }""",
        board,
    )
    assert found == {"bars": ["C"], "tiles": 13, "places": ["A", "B", "D"]}, found
    assert not page.errors  # type: ignore[attr-defined]
