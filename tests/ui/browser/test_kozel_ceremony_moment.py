"""A Kozel ceremony gets its moment at the hand's end (issue 28): its own large line at the top
of the summary, in both languages, beside the pairs' words. Ceremonies are rare in play, so the
page's own summary module draws a Kozel hand's end that has one, as the peer sends it."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from tests.ui.browser.conftest import Peer

DRAW = """async (ceremony) => {
  const { renderOverlay } = await import("/static/overlays.js");
  const names = ["Ann", "bot-1", "bot-2", "bot-3"];
  const end = { hand_number: 3, pairs: true, winner: 0, end: "domino",
    words: "Ann & bot-2 write 25.", text: "", ceremony_text: ceremony, title: "",
    hands: [[], ["5|6"], [], ["6|6"]], pips: [0, 11, 0, 12], points: [25, 0, 25, 0],
    audit: "clean" };
  const s = { screen: "table", names, seat: 0, scores: [25, 0, 25, 0], target: 101,
    history: [[25, 0, 25, 0]], end, next_hand: { number: 4, seconds_left: 9, ready: false },
    match: { over: false }, hand_number: 4, turn: null, code: null, pairs: true };
  document.getElementById("table").hidden = false;  // (the summary sits at the table)
  renderOverlay(s, { send() {}, codeText() { return ""; }, onClose() {} });
}"""


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_ceremony_has_its_own_line_on_the_summary(
    peers: Callable[..., Peer], open_page: Callable[..., Page], lang: str
) -> None:
    page = open_page(peers("Ann", 48011 if lang == "en" else 48012, lang=lang))
    expect(page.locator("#create-button")).to_be_visible()
    page.evaluate(DRAW, "General: all four tiles of a kind")
    line = page.locator("#summary-ceremony")
    expect(line).to_be_visible()
    word = "Ceremony!" if lang == "en" else "Церемония!"
    expect(line).to_have_text(f"{word} General: all four tiles of a kind")
    size = float(line.evaluate("(e) => parseFloat(getComputedStyle(e).fontSize)"))
    points = float(
        page.locator("#summary-points").evaluate("(e) => parseFloat(getComputedStyle(e).fontSize)")
    )
    assert size > points, (size, points)  # larger than the hand's words
    page.evaluate(DRAW, "")  # a hand with no ceremony: no such line
    expect(line).to_be_hidden()
    assert not page.errors  # type: ignore[attr-defined]
