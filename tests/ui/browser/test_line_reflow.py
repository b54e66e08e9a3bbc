"""The line re-flows smoothly when it turns (issue 28): as tiles are laid one by one on a
phone's board, every tile already there whose place changes (the line turning at the board's
edge, the board scaling down) glides there from its old place, and no other tile moves; the
place to play on is final and takes a tap at once, mid-glide; with prefers-reduced-motion nothing
moves. Drawn by the page's own board module, tile by tile."""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.ui.browser.conftest import Peer

# 21 different tiles in one chain: 0-1, 1-2, … each touching the next.
VALUES = [0, 1, 2, 3, 4, 5, 6, 0, 2, 4, 6, 1, 3, 5, 0, 3, 6, 2, 5, 1, 4, 0]

LAY_ONE_BY_ONE = """async (values) => {
  const { renderBoard } = await import("/static/board.js");
  const host = document.createElement("div");
  Object.assign(host.style, { position: "fixed", left: "0", top: "0", width: "370px",
    height: "300px" });
  document.body.append(host);
  const key = (a, b) => `${Math.min(a, b)}|${Math.max(a, b)}`;
  const chain = values.slice(1)
    .map((v, i) => ({ tile: key(values[i], v), left: values[i], right: v, double: false }));
  const tiles = () => [...host.querySelectorAll(".board-svg [data-tile]")];
  const where = () => new Map(tiles().map((g) => {
    const r = g.getBoundingClientRect();
    return [g.dataset.tile,
      { x: r.left + r.width / 2, y: r.top + r.height / 2, wide: r.width > r.height }];
  }));
  const steps = [];
  for (let n = 1; n <= chain.length; n += 1) {
    const line = chain.slice(0, n);
    const last = line[n - 1];
    const before = where();
    const buttons = renderBoard(host, { shape: "line", line, lead: 0, last: last.tile,
      arrive: false, ends: [{ end: "right", tile: last.tile, value: last.right }], closed: [],
      leadOpen: false, fits: ["right"], orient: {}, onPlay() {} });
    const gliding = new Set(
      tiles().filter((g) => g.getAnimations().length).map((g) => g.dataset.tile));
    const b = buttons[0].getBoundingClientRect();  // mid-glide: the place is where it ends
    const at = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
    for (const glide of document.getAnimations()) glide.finish();  // (the next tile comes later)
    const after = where();
    let moved = 0, turned = 0;
    const wrong = [];
    for (const [tile, now] of after) {
      const was = before.get(tile);
      if (!was) { if (gliding.has(tile)) wrong.push(`new ${tile}`); continue; }
      const moves = Math.hypot(was.x - now.x, was.y - now.y) >= 1 || was.wide !== now.wide;
      if (moves) moved += 1;
      if (was.wide !== now.wide) turned += 1;
      if (moves !== gliding.has(tile)) wrong.push(`${tile} moves ${moves}`);
    }
    steps.push({ n, moved, turned, gliding: gliding.size, wrong, tap: at === buttons[0] });
  }
  host.remove();
  return steps;
}"""


def _lay(page: Page) -> list[dict[str, object]]:
    steps: list[dict[str, object]] = page.evaluate(LAY_ONE_BY_ONE, VALUES)
    assert len(steps) == len(VALUES) - 1
    return steps


def test_tiles_glide_to_their_new_places_when_the_line_turns(
    peers: Callable[..., Peer], open_page: Callable[..., Page]
) -> None:
    page = open_page(peers("Ann", 48041), (390, 844), phone=True)
    expect(page.locator("#create-button")).to_be_visible()
    page.emulate_media(reduced_motion="no-preference")  # (the tests' pages reduce it)
    steps = _lay(page)
    assert [s for s in steps if s["wrong"]] == [], steps  # exactly the tiles that move glide
    assert any(s["turned"] for s in steps), steps  # the line turned on the way
    assert sum(int(str(s["gliding"])) for s in steps) > 0, steps
    assert all(s["tap"] for s in steps), steps  # the place takes a tap at once, mid-glide
    assert not page.errors  # type: ignore[attr-defined]


def test_with_reduced_motion_the_line_jumps_to_its_new_places(
    peers: Callable[..., Peer], open_page: Callable[..., Page]
) -> None:
    page = open_page(peers("Ann", 48042), (390, 844), phone=True)  # (reduced motion)
    expect(page.locator("#create-button")).to_be_visible()
    steps = _lay(page)
    assert any(s["moved"] for s in steps), steps
    assert all(s["gliding"] == 0 and s["tap"] for s in steps), steps
    assert not page.errors  # type: ignore[attr-defined]
