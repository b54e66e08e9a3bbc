"""The line's layout (static/board-line.js), run in the browser on made-up lines: tiles never
overlap, each tile touches the one it was played against on the matching half, and the first
tile played stays in the centre."""

from __future__ import annotations

import random
from collections.abc import Callable
from itertools import pairwise

from playwright.sync_api import Page

from tests.ui.browser.conftest import Peer

Cell = tuple[float, float]


def made_up_line(length: int, seed: int) -> list[dict[str, object]]:
    """A line as the snapshot gives it (left to right, each tile with its facing values),
    with doubles among the tiles."""
    rng = random.Random(seed)
    values = [rng.randrange(7)]
    for _ in range(length):
        values.append(values[-1] if rng.random() < 0.25 else rng.randrange(7))
    return [
        {"tile": f"{min(a, b)}|{max(a, b)}#{i}", "left": a, "right": b, "double": a == b}
        for i, (a, b) in enumerate(pairwise(values))
    ]


def halves(tile: dict[str, object]) -> list[tuple[Cell, int]]:
    """The two unit cells of a laid tile and the value on each."""
    x, y = float(tile["x"]), float(tile["y"])  # type: ignore[arg-type]
    second = (x, y + 1) if tile["vertical"] else (x + 1, y)
    return [((x, y), int(tile["first"])), (second, int(tile["second"]))]  # type: ignore[call-overload]


def touching(a: Cell, b: Cell) -> bool:
    """Two unit cells share an edge of positive length."""
    dx, dy = abs(a[0] - b[0]), abs(a[1] - b[1])
    return (abs(dx - 1) < 1e-6 and dy < 1 - 1e-6) or (abs(dy - 1) < 1e-6 and dx < 1 - 1e-6)


def overlap(a: Cell, b: Cell) -> bool:
    return abs(a[0] - b[0]) < 1 - 1e-6 and abs(a[1] - b[1]) < 1 - 1e-6


def test_the_line_turns_at_the_edges_without_overlaps_and_every_join_matches(
    peers: Callable[..., Peer], open_page: Callable[..., Page]
) -> None:
    page = open_page(peers("Ann", 47871))
    page.wait_for_selector("#lobby:not([hidden])")
    for seed in range(6):
        line = made_up_line(20 + seed, seed)
        lead = 3 + 2 * seed
        for half in (5, 8, 13):
            laid = page.evaluate(
                """async ([line, lead, half]) => {
                  const { layout } = await import("/static/board-line.js");
                  return layout(line, lead, half).tiles; }""",
                [line, lead, half],
            )
            by_key = {tile["key"]: tile for tile in laid}
            assert len(by_key) == len(line)
            first = by_key[line[lead]["tile"]]
            assert abs(first["x"] + (0.5 if first["vertical"] else 1)) < 1e-6  # centred
            cells = [cell for tile in laid for cell, _ in halves(tile)]
            for i, a in enumerate(cells):
                assert not any(overlap(a, b) for b in cells[i + 1 :]), (seed, half, a)
            for left, right in pairwise(line):
                value = left["right"]
                assert value == right["left"]
                joins = [
                    (a, b)
                    for a, va in halves(by_key[left["tile"]])
                    for b, vb in halves(by_key[right["tile"]])
                    if va == vb == value and touching(a, b)
                ]
                assert joins, (seed, half, left, right)
            turned = any(abs(y) >= 1.5 for _, y in cells)  # a row above or below the first
            assert turned or half == 13, (seed, half)  # a narrow board turns the line
            # Within the board's width (a double under a corner may stick out by half a unit).
            outside = [c for c in cells if not (-half - 0.5 <= c[0] and c[0] + 1 <= half + 0.5)]
            assert not outside, (seed, half, outside, laid)
