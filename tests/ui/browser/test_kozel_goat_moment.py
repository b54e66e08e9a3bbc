"""Kozel's goat gets its moment at the match's end, and a ceremony is stamped onto the hand's
summary (issue 28): the pair that reached the line by name and title, in both languages, with a
goat that runs in and hops, and bleats once (its own short cue, only with sound on and a
volume above nothing); their rows marked; none of it moving with prefers-reduced-motion,
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


HEARD = """() => { window.__heard = [];
  document.addEventListener("p2p-sound", (e) => window.__heard.push(e.detail)); }"""

CLOSE = """async () => {
  const { renderOverlay } = await import("/static/overlays.js");
  renderOverlay({ screen: "table", names: ["Ann", "Bob", "Cid", "Dan"], seat: 0, end: null,
    scores: [0, 0, 0, 0], history: [], hand_number: 1, turn: 0, code: null, pairs: true,
    match: { over: false } }, { send() {}, codeText() { return ""; }, onClose() {} });
}"""

# The goat's cue rendered offline: how loud it gets, for how long it is heard, and how many
# times its loudness wobbles (a bleat: "meh-eh-eh"), against the plain "your turn" chime.
LISTEN = """async (name) => {
  const { rendered } = await import("/static/sound.js");
  const samples = await rendered(name, 2);
  const rate = 22050, frame = Math.round(rate / 200);  // 5 ms frames
  const loud = [];
  for (let i = 0; i + frame <= samples.length; i += frame) {
    let sum = 0;
    for (let j = i; j < i + frame; j += 1) sum += samples[j] * samples[j];
    loud.push(Math.sqrt(sum / frame));
  }
  const peak = Math.max(...loud);
  const heard = loud.map((v, i) => [v, i]).filter(([v]) => v > peak / 20).map(([, i]) => i);
  let wobbles = 0;
  for (let i = 2; i < loud.length - 2; i += 1) {
    if (loud[i] > peak / 8 && loud[i] > loud[i - 2] * 1.05 && loud[i] >= loud[i - 1]
      && loud[i] > loud[i + 2] * 1.05 && loud[i] >= loud[i + 1]) wobbles += 1;
  }
  return { peak, seconds: (heard.at(-1) - heard[0] + 1) / 200, wobbles };
}"""


def test_the_goat_bleats_at_its_moment_only_with_sound_on(
    peers: Callable[..., Peer], open_page: Callable[..., Page]
) -> None:
    page = open_page(peers("Ann", 48033))
    expect(page.locator("#create-button")).to_be_visible()
    page.evaluate(HEARD)
    goat = page.locator("#summary-goat")
    heard = "window.__heard"
    page.evaluate(MATCH_END, "goat")  # sound off (as it is until the player turns it on)
    expect(goat).to_be_visible()
    assert page.evaluate(heard) == []
    page.evaluate(CLOSE)
    expect(goat).to_be_hidden()
    page.evaluate("async () => (await import('/static/sound.js')).setSound(true)")  # the switch
    page.evaluate(MATCH_END, "goat")
    expect(goat).to_be_visible()
    assert page.evaluate(heard) == ["goat"]  # the goat's own cue, once
    page.evaluate(MATCH_END, "goat")  # the page redrawn (the clock, a snapshot): no second bleat
    assert page.evaluate(heard) == ["goat"]
    page.evaluate(CLOSE)
    page.evaluate("localStorage.setItem('p2p-dominoes-volume', '0')")  # the player's volume
    page.evaluate(MATCH_END, "general")
    expect(goat).to_be_visible()
    assert page.evaluate(heard) == ["goat"]
    page.evaluate(CLOSE)
    page.evaluate("localStorage.setItem('p2p-dominoes-volume', '60')")
    page.evaluate(MATCH_END, "snotty_goat")  # a rematch's goat bleats anew
    expect(goat).to_be_visible()
    assert page.evaluate(heard) == ["goat", "goat"]
    bleat = page.evaluate(LISTEN, "goat")
    chime = page.evaluate(LISTEN, "turn")
    assert 0.5 <= bleat["seconds"] <= 1.2, bleat  # short
    assert chime["peak"] / 3 < bleat["peak"] < chime["peak"] * 3, (bleat, chime)  # as loud
    assert bleat["wobbles"] >= 7, bleat  # it bleats ("meh-eh-eh")
    assert chime["wobbles"] < 4, chime  # where a chime does not
    assert not page.errors  # type: ignore[attr-defined]
