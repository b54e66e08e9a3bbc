"""Kozel's goat gets its moment at the match's end, and a ceremony is stamped onto the hand's
summary (issue 28): the pair that reached the line by name and title, in both languages, with a
goat that runs in and hops; their rows marked; none of it moving with prefers-reduced-motion,
and none of it in the way of a click. A match that ends on a goat takes many hands, so the
page's own summary module draws the end as the peer sends it."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from tests.ui.browser.conftest import Peer, screenshot
from tests.ui.browser.test_kozel_ceremony_moment import DRAW as DRAW_CEREMONY

MATCH_END = """async (title) => {
  const { renderOverlay } = await import("/static/overlays.js");
  const names = ["Ann", "Bob", "Cid", "Dan"];
  const end = { hand_number: 9, pairs: true, winner: 0, end: "domino",
    words: "Ann & Cid write 25.", text: "", ceremony_text: "", title: "",
    hands: [[], ["5|6"], [], ["6|6"]], pips: [0, 11, 0, 12], points: [25, 0, 25, 0],
    audit: "clean" };
  const s = { screen: "table", names, seat: 0, scores: [60, 104, 60, 104], target: 101,
    history: [[35, 104, 35, 104], [60, 104, 60, 104]], end, hand_number: 9, turn: null,
    code: null, pairs: true, match: { over: true, pairs: true, winner: 0, losers: [1], title,
      text: "Bob & Dan reach the line. Ann & Cid win the match: 60, 104." } };
  document.getElementById("table").hidden = false;
  renderOverlay(s, { send() {}, codeText() { return ""; }, onClose() {} });
}"""

MOVING = "(selector) => document.querySelector(selector).getAnimations().length"

HIT = """(id) => {
  const r = document.getElementById(id).getBoundingClientRect();
  const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return Boolean(at && document.getElementById(id).contains(at));
}"""


@pytest.mark.parametrize(
    ("lang", "title", "words"),
    [
        ("en", "goat", "The goat: Bob & Dan!"),
        ("ru", "goat", "Козёл: Bob & Dan!"),
        ("en", "general", "The generals' goats: Bob & Dan!"),
        ("ru", "snotty_goat", "Сопливые козлы: Bob & Dan!"),
    ],
)
def test_the_goat_has_its_moment_at_the_match_end(
    peers: Callable[..., Peer], open_page: Callable[..., Page], lang: str, title: str, words: str
) -> None:
    port = 48021 + ["goat", "general", "snotty_goat"].index(title) * 2 + (lang == "ru")
    page = open_page(peers("Ann", port, lang=lang))
    expect(page.locator("#create-button")).to_be_visible()
    page.emulate_media(reduced_motion="no-preference")  # (the tests' pages reduce it)
    page.evaluate(MATCH_END, title)
    goat = page.locator("#summary-goat")
    expect(goat).to_be_visible()  # (after the tiles left have had their moment)
    expect(page.locator("#summary-goat-words")).to_have_text(words)
    rows = page.locator("#summary-rows tr.goat th")
    expect(rows).to_have_count(2)
    assert [rows.nth(i).text_content() for i in range(2)] == [
        f"Bob ({'the goat' if lang == 'en' else 'козёл'})",
        f"Dan ({'the goat' if lang == 'en' else 'козёл'})",
    ]
    assert page.evaluate(MOVING, ".goat-figure") > 0  # it runs in and hops
    assert page.evaluate(HIT, "to-lobby")  # and takes no clicks meanwhile
    page.wait_for_function("() => !document.querySelector('.goat-figure').getAnimations().length")
    screenshot(page, f"kozel-goat-{lang}-{title}", full_page=False)
    assert not page.errors  # type: ignore[attr-defined]


def test_with_reduced_motion_the_goat_and_the_ceremony_stand_still(
    peers: Callable[..., Peer], open_page: Callable[..., Page]
) -> None:
    page = open_page(peers("Ann", 48031))
    expect(page.locator("#create-button")).to_be_visible()
    page.emulate_media(reduced_motion="no-preference")
    page.evaluate(DRAW_CEREMONY, "General: all four tiles of a kind")
    expect(page.locator("#summary-ceremony")).to_be_visible()
    assert page.evaluate(MOVING, "#summary-ceremony") > 0  # stamped on, normally
    page.emulate_media(reduced_motion="reduce")
    page.evaluate(DRAW_CEREMONY, "")
    page.evaluate(DRAW_CEREMONY, "Admiral: the hand was closed by a double")
    expect(page.locator("#summary-ceremony")).to_be_visible()
    assert page.evaluate(MOVING, "#summary-ceremony") == 0
    page.evaluate(MATCH_END, "goat")
    expect(page.locator("#summary-goat")).to_be_visible()
    assert page.evaluate(MOVING, ".goat-figure") == 0
    assert page.evaluate(HIT, "to-lobby")
    assert not page.errors  # type: ignore[attr-defined]
