"""Checks of the table screen shared by the browser tests: what must be on screen, and how big."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Page

from tests.ui.latin_words import without_kept

MIN_TARGET = 44  # px: the smallest thing a finger can hit
# Latin words a Russian page may show: network terms, key names, the program's name; and single
# letters (the shortcut keys D, P, B; a double's sides A and B in the board description).
ALLOWED_LATIN = {"Wi-Fi", "VPN", "Escape", "p2p-dominoes"}
# The peer's own lines (the lobby's status lines and the log) come from net/ and the narration,
# in the peer's language; they are checked too, with what may stay Latin in them set aside
# (fingerprints, the command to type, the table code's English words: tests/ui/latin_words.py).
PEER_LINES = "#lobby-lines, #log"
_PEER_TEXT = """(selector) => [...document.querySelectorAll(`${selector}`)]
  .filter((e) => e.checkVisibility())
  .flatMap((e) => [...e.querySelectorAll("p")].map((p) => p.textContent))"""

_BOXES = """(selector) => [...document.querySelectorAll(selector)]
  .filter((e) => e.checkVisibility())
  .map((e) => { const r = e.getBoundingClientRect();
    return { id: e.id || e.className, left: r.left, top: r.top,
             right: r.right, bottom: r.bottom }; })"""

_VISIBLE_TEXT = """(skip) => {
  const parts = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walk.nextNode()) {
    const node = walk.currentNode;
    const host = node.parentElement;
    if (!host || !host.checkVisibility()) continue;
    if (host.closest(`[translate="no"], script, style, ${skip}`)) continue;
    parts.push(node.textContent);
  }
  for (const node of document.querySelectorAll("[aria-label], [title]")) {
    if (node.closest(`[translate="no"], ${skip}`) || !node.checkVisibility()) continue;
    parts.push(node.getAttribute("aria-label") || "", node.getAttribute("title") || "");
  }
  return parts.join(" ");
}"""


def boxes(page: Page, selector: str) -> list[dict[str, float]]:
    """The visible elements matching `selector`, as viewport rectangles."""
    result: list[dict[str, float]] = page.evaluate(_BOXES, selector)
    return result


def assert_on_screen_unscrolled(page: Page, selector: str, *, at_least: int = 1) -> None:
    """Every visible `selector` lies inside the viewport with the page scrolled to the top."""
    page.evaluate("scrollTo(0, 0)")
    viewport = page.viewport_size
    assert viewport is not None
    found = boxes(page, selector)
    assert len(found) >= at_least, (selector, found)
    for box in found:
        assert box["left"] >= -0.5 and box["top"] >= -0.5, (selector, box, viewport)
        assert box["right"] <= viewport["width"] + 0.5, (selector, box, viewport)
        assert box["bottom"] <= viewport["height"] + 0.5, (selector, box, viewport)


def assert_big_enough(page: Page, selector: str) -> None:
    """Every visible `selector` is at least 44 × 44 px."""
    for box in boxes(page, selector):
        width, height = box["right"] - box["left"], box["bottom"] - box["top"]
        assert width >= MIN_TARGET - 0.5 and height >= MIN_TARGET - 0.5, (selector, box)


def assert_table_fits(page: Page) -> None:
    """The hand, the draw/pass buttons and any open target: on screen without scrolling, and
    big enough to tap."""
    assert_on_screen_unscrolled(page, "#hand .tile-button", at_least=0)  # none after going out
    assert_on_screen_unscrolled(page, "#pass", at_least=1)
    assert_on_screen_unscrolled(page, "#draw", at_least=0)  # none where nobody draws (Kozel)
    assert_on_screen_unscrolled(page, ".marker-button", at_least=0)
    assert_big_enough(page, "#hand .tile-button, #draw, #pass, .marker-button.target")


def english_words(page: Page, names: list[str]) -> list[str]:
    """Latin words in the page's visible text and labels, outside `translate="no"` parts
    (fingerprints, addresses, the table code), and in the peer's visible lines outside what may
    stay Latin there, once `names` are removed."""
    text: str = page.evaluate(_VISIBLE_TEXT, PEER_LINES)
    lines: list[str] = page.evaluate(_PEER_TEXT, PEER_LINES)
    text = " ".join([text, *(without_kept(line) for line in lines)])
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, " ")
    words = re.findall(r"[A-Za-z][A-Za-z0-9-]*", text)
    return [word for word in words if word not in ALLOWED_LATIN and len(word) > 1]


_HERE = Path(__file__).resolve().parent


def _script(name: str) -> str:
    """A function from a .js file here, without its leading comment lines."""
    lines = (_HERE / name).read_text().splitlines()
    return "\n".join(line for line in lines if not line.startswith("//"))


def accessibility_defects(page: Page) -> list[str]:
    """Cheap checks run at every step of a match (test_axe.py runs axe-core itself at three
    moments): text under 4.5:1 (3:1 large), an empty table header, the fullwidth plus glyph
    (which axe-core does not check), a scrolling log that cannot take focus, a nameless button."""
    low: list[str] = page.evaluate(_script("low_contrast.js"))
    other: list[str] = page.evaluate(_script("page_defects.js"))
    return low + other
