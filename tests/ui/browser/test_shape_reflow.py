"""The other board shapes re-flow smoothly too (issue 28), as the line does
(`test_line_reflow.py`): as tiles are laid one by one on a phone's board, every tile already
there whose place changes glides there from its old place (a tile that only shrinks too), and
no other tile moves: a ray of the cross or the telephone turning at the board's edge as the
board scales down, a train's row filling up, its older tiles giving way to "+N" and its newer
ones moving along. The place to play on is final and takes a tap at once, mid-glide; with
prefers-reduced-motion nothing moves. Drawn by the page's own board module, tile by tile, from
boards as the snapshot gives them."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.ui.browser.conftest import Peer

# Each step: a board (the snapshot's `board`) and the ray just played on. The page draws them
# one after another in a phone's board, and says per step which tiles moved and which glided.
LAY_ONE_BY_ONE = """async ([shape, steps]) => {
  const { renderBoard } = await import("/static/board.js");
  const host = document.createElement("div");
  Object.assign(host.style, { position: "fixed", left: "0", top: "0", width: "370px",
    height: "300px" });
  document.body.append(host);
  const tiles = () => [...host.querySelectorAll(".board-svg [data-tile]")];
  const where = () => new Map(tiles().map((g) => {
    const r = g.getBoundingClientRect();
    return [g.dataset.tile,
      { x: r.left + r.width / 2, y: r.top + r.height / 2, wide: r.width > r.height,
        long: Math.max(r.width, r.height) }];
  }));
  const out = [];
  for (const { board, ray, last } of steps) {
    const before = where();
    const ends = board.rays.filter((r) => r.open)
      .map((r) => ({ end: r.ray, tile: r.tiles.at(-1)?.tile ?? board.root.tile, value: 0 }));
    const buttons = renderBoard(host, { shape, board, seat: 0, names: ["Ann", "Bob"], last,
      arrive: false, ends, closed: [], leadOpen: false, fits: [ray], orient: {}, onPlay() {} });
    const gliding = new Set(
      tiles().filter((g) => g.getAnimations().length).map((g) => g.dataset.tile));
    const button = buttons.find((b) => b.dataset.end === ray);
    const b = button.getBoundingClientRect();  // mid-glide: the place is where it ends
    const at = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
    for (const glide of document.getAnimations()) glide.finish();  // (the next tile comes later)
    const after = where();
    let moved = 0, turned = 0;
    const wrong = [];
    for (const [tile, now] of after) {
      const was = before.get(tile);
      if (!was) { if (gliding.has(tile)) wrong.push(`new ${tile}`); continue; }
      const moves = Math.hypot(was.x - now.x, was.y - now.y) >= 1 || was.wide !== now.wide
        || Math.abs(was.long / now.long - 1) >= .02;  // (the board scaled down: it shrinks)
      if (moves) moved += 1;
      if (was.wide !== now.wide) turned += 1;
      if (moves !== gliding.has(tile)) wrong.push(`${tile} moves ${moves}`);
    }
    const hidden = [...before.keys()].filter((tile) => !after.has(tile)).length;
    out.push({ ray, moved, turned, hidden, gliding: gliding.size, wrong, tap: at === button });
  }
  host.remove();
  return out;
}"""


def _tile(ray: str, i: int, near: int, far: int) -> dict[str, Any]:
    return {
        "tile": f"{min(near, far)}|{max(near, far)}#{ray}{i}",
        "near": near,
        "far": far,
        "double": near == far,
    }


def _cross_steps(layout: str, count: int) -> list[dict[str, Any]]:
    """A centre [3|3] whose four rays grow one tile at a time, in turn (A, B, C, D, A, …)."""
    rng = random.Random(28)
    rays = [{"ray": ray, "tiles": [], "open": {"value": 3}, "closed": False} for ray in "ABCD"]
    root = {"tile": "3|3", "low": 3, "high": 3, "double": True}
    steps = []
    for n in range(count):
        ray = rays[n % 4]
        near = ray["open"]["value"]
        far = near if rng.random() < 0.15 else rng.randrange(7)
        tile = _tile(str(ray["ray"]), len(ray["tiles"]), near, far)
        ray["tiles"] = [*ray["tiles"], tile]
        ray["open"] = {"value": far}
        board = {"layout": layout, "root": root, "rays": [dict(r) for r in rays]}
        steps.append({"board": board, "ray": ray["ray"], "last": tile["tile"]})
    return steps


def _trains_steps(count: int) -> list[dict[str, Any]]:
    """The engine [6|6] and three trains (mine, Bob's, the common one): mine grows until its
    row is full and goes on growing (its older tiles behind "+N"), the others now and then."""
    rays: list[dict[str, Any]] = [
        {"ray": ray, "tiles": [], "open": True, "state": state}
        for ray, state in (("T0", "private"), ("T1", "open"), ("TC", "started"))
    ]
    root = {"tile": "6|6", "low": 6, "high": 6}
    steps = []
    ends = {"T0": 6, "T1": 6, "TC": 6}
    for n in range(count):
        ray = rays[0] if n % 3 else rays[1 + (n // 3) % 2]
        name = str(ray["ray"])
        near = ends[name]
        far = (near + 1 + n) % 6
        tile = _tile(name, len(ray["tiles"]), near, far)
        ray["tiles"] = [*ray["tiles"], tile]
        ends[name] = far
        board = {"root": root, "rays": [dict(r) for r in rays]}
        steps.append({"board": board, "ray": name, "last": tile["tile"]})
    return steps


SHAPES = {
    "cross": lambda: _cross_steps("cross", 32),
    "telephone": lambda: _cross_steps("telephone", 32),
    "trains": lambda: _trains_steps(30),
}


def _lay(page: Page, shape: str) -> list[dict[str, Any]]:
    steps = SHAPES[shape]()
    found: list[dict[str, Any]] = page.evaluate(LAY_ONE_BY_ONE, [shape, steps])
    assert len(found) == len(steps)
    return found


@pytest.mark.parametrize(
    ("shape", "port"), [("cross", 48043), ("telephone", 48044), ("trains", 48045)]
)
def test_tiles_glide_to_their_new_places_on_every_shape(
    peers: Callable[..., Peer], open_page: Callable[..., Page], shape: str, port: int
) -> None:
    page = open_page(peers("Ann", port), (390, 844), phone=True)
    expect(page.locator("#create-button")).to_be_visible()
    page.emulate_media(reduced_motion="no-preference")  # (the tests' pages reduce it)
    steps = _lay(page, shape)
    wrong = [(s["ray"], s["wrong"]) for s in steps if s["wrong"]]
    assert wrong == [], wrong  # exactly the tiles that move glide
    assert sum(s["gliding"] for s in steps) > 0, steps
    if shape == "trains":  # a row filled up: older tiles gave way, the newer moved along
        assert any(s["hidden"] and s["moved"] for s in steps), steps
    else:  # a ray turned at the edge: tiles already laid turned a corner
        assert any(s["turned"] for s in steps), steps
    assert all(s["tap"] for s in steps), steps  # the place takes a tap at once, mid-glide
    assert not page.errors  # type: ignore[attr-defined]


@pytest.mark.parametrize(("shape", "port"), [("cross", 48046), ("trains", 48047)])
def test_with_reduced_motion_the_shapes_jump_to_their_new_places(
    peers: Callable[..., Peer], open_page: Callable[..., Page], shape: str, port: int
) -> None:
    page = open_page(peers("Ann", port), (390, 844), phone=True)  # (reduced motion)
    expect(page.locator("#create-button")).to_be_visible()
    steps = _lay(page, shape)
    assert any(s["moved"] for s in steps), steps
    assert all(s["gliding"] == 0 and s["tap"] for s in steps), steps
    assert not page.errors  # type: ignore[attr-defined]
