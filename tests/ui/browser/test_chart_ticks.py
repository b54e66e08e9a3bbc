"""The chart's y ticks are round and reach the leader (issue 28 L3): with 84 on top (no
target), not "0, 44, 61"; every line stays inside the plot. The page's own chart module draws a
match's history in the browser."""

from __future__ import annotations

import itertools
from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.ui.browser.conftest import Peer

DRAW = """async ({ history, target }) => {
  const { renderChart } = await import("/static/chart.js");
  const node = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  const legend = document.createElement("ul");
  document.body.append(node, legend);
  const names = ["Ann", "Bob", "bot-1"];
  renderChart(node, legend, { names, history, scores: history.at(-1), target, seat: 0 });
  const ticks = [...node.querySelectorAll("text.tick")]
    .filter((e) => e.getAttribute("text-anchor") === "end" && !/\\D/.test(e.textContent))
    .map((e) => Number(e.textContent));
  const ys = [...node.querySelectorAll("polyline")].flatMap((p) =>
    p.getAttribute("points").split(" ").map((xy) => Number(xy.split(",")[1])));
  node.remove(); legend.remove();
  return { ticks, top: Math.min(...ys), bottom: Math.max(...ys) };
}"""
T, H, B = 12, 180, 34  # the chart's plot: its top margin, height and bottom margin (chart.js)


def _round_steps(ticks: list[int]) -> bool:
    steps = {b - a for a, b in itertools.pairwise(ticks)}
    if len(steps) != 1:
        return False
    step = steps.pop()
    while step % 10 == 0:
        step //= 10
    return step in (1, 2, 5)


def test_the_charts_ticks_are_round_and_reach_the_leader(
    peers: Callable[..., Peer], open_page: Callable[..., Page]
) -> None:
    page = open_page(peers("Ann", 47960))
    expect(page.locator("#create-button")).to_be_visible()
    history = [[20, 10, 44], [35, 20, 61], [35, 35, 84]]
    for target, leader in ((0, 84), (101, 101), (0, 7), (250, 250)):
        found = page.evaluate(DRAW, {"history": history if leader != 7 else [[3, 7, 0]],
                                     "target": target})  # fmt: skip
        ticks = found["ticks"]
        assert ticks[0] == 0 and _round_steps(ticks), (target, ticks)
        assert ticks[-1] >= leader and len(ticks) <= 6, (target, ticks)
        assert found["top"] >= T - 0.5 and found["bottom"] <= H - B + 0.5, (target, found)
    assert not page.errors  # type: ignore[attr-defined]
