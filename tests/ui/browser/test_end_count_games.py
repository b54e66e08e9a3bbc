"""Games that score during play, in the browser, against a bot (issue 14).

Fives: a double that fits is offered across or along, each way with its end total; the player
lays one along; a scoring move flashes "+N: S at the ends" over the board and the live region
says it; the hand's result is told as what play scored, not as a pip sum. Threes for luck: the
draw button is "Try my luck", the turn's draws are counted ("1 of 5 drawn"), and the result says
the nets and who takes the difference.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.ui.browser.conftest import Peer, screenshot
from tests.ui.browser.table_checks import accessibility_defects
from tests.ui.browser.test_axe import violations
from tests.ui.browser.test_play_in_the_browser import sent_commands

FLASH = re.compile(r"^(Ann|bot-1) \+\d+: (\d+ at the ends|a double, \d+ at the ends)$")
SAID_SCORE = re.compile(r": \+\d+ \((\d+ at the ends|a scoring|the first double|the drawn)")

# Everything the live region says, kept by the page (it is cleared before each new line).
LISTEN = """() => {
  window.said = [];
  const live = document.getElementById("announce");
  new MutationObserver(() => { if (live.textContent) window.said.push(live.textContent); })
    .observe(live, { childList: true, characterData: true, subtree: true });
}"""


def _host(page: Page, rules: str, hands: int) -> None:
    page.select_option("#create-rules", rules)
    page.fill("#create-name", rules)
    page.select_option("#create-seats", "2")
    page.fill("#create-bots", "1")
    page.fill("#create-hands", str(hands))
    page.click("#create-button")
    expect(page.locator("#table")).to_be_visible()
    page.evaluate(LISTEN)


def _is_double(key: str) -> bool:
    low, high = key.split("|")
    return low == high


def _play_preferring_a_double(page: Page, along_done: bool) -> str | None:
    """If it is this page's turn, play (a double first, laid along the first time both ways are
    offered), else draw, else pass. Returns "along", "play", "draw", "pass" or None."""
    if page.locator("#summary").is_visible():
        return None
    playable = page.locator(".tile-button.playable")
    keys = [playable.nth(i).get_attribute("data-tile") or "" for i in range(playable.count())]
    if keys:
        doubles = [k for k in keys if _is_double(k)]
        key = doubles[0] if doubles else keys[0]
        page.locator(f'.tile-button[data-tile="{key}"]').click()
        # (On a place of the line, not the lead: there the two ways leave different totals.)
        along = page.locator('.marker-button.way-along.target:not([data-end="lead"])')
        if along.count() and not along_done:
            end = along.first.get_attribute("data-end")
            across = page.locator(f'.marker-button.way-across.target[data-end="{end}"]')
            expect(page.locator(".marker-button.target").first).to_be_focused()
            expect(across).to_have_text(re.compile(r"^across · \d+( \+\d+)?$"))
            expect(along.first).to_have_text(re.compile(r"^along · \d+( \+\d+)?$"))
            label = along.first.get_attribute("aria-label") or ""
            assert re.search(r"lay it along, the ends total \d+", label), label
            assert accessibility_defects(page) == [] and violations(page) == []  # axe-core too
            screenshot(page, "fives-across-or-along", docs="web-fives-across-or-along")
            for _ in range(6):  # the keyboard: Tab from the first place to this one's "along"
                if along.first.evaluate("(node) => node === document.activeElement"):
                    break
                page.keyboard.press("Tab")
            expect(along.first).to_be_focused()
            page.keyboard.press("Enter")
            expect(page.locator(f'.tile-button[data-tile="{key}"]')).to_have_count(0)
            return "along"
        target = page.locator(".marker-button.target").first
        target.click()
        return "play"
    if page.locator("#draw").is_enabled():
        page.click("#draw")
        return "draw"
    if page.locator("#pass").is_enabled():
        page.click("#pass")
        return "pass"
    return None


def test_a_fives_hand_offers_across_or_along_and_flashes_each_scoring_move(
    peers: Callable[..., Peer], open_page: Callable[..., Page]
) -> None:
    ann = peers("Ann", 47871)
    page = open_page(ann)
    frames = sent_commands(page)
    expect(page.locator("#my-address")).to_contain_text("127.0.0.1:47871")
    _host(page, "fives", 10)
    expect(page.locator("#goal")).to_have_text("First to 25 wins.")
    along_done = False
    flashes: set[str] = set()
    hands_over = 0
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        # One read of the first flash's text: a flash may be gone by a second look.
        shown = page.evaluate(
            """() => { const f = document.querySelector("#score-flash .flash-item");
                       return f && f.checkVisibility() ? f.textContent : null; }"""
        )
        if shown is not None:
            if not flashes and not page.locator("#summary").is_visible():
                assert accessibility_defects(page) == []
                screenshot(page, "fives-score-flash", docs="web-fives-score-flash")
            flashes.add(shown)
        if page.locator("#summary").is_visible():
            if along_done and flashes:
                break
            if page.locator("#summary-winner").is_visible():  # the match ended: a new one
                page.click("#rematch")
                expect(page.locator("#table")).to_be_visible()
                page.evaluate(LISTEN)
            elif page.locator("#next-hand").is_enabled():
                hands_over += 1
                page.click("#next-hand")
            time.sleep(0.1)
            continue
        done = _play_preferring_a_double(page, along_done)
        along_done = along_done or done == "along"
        time.sleep(0.1)
    assert along_done, "no double could be laid either way in the hands played"
    assert flashes, "no move scored in the hands played"
    for text in flashes:
        assert FLASH.match(text), text
    # The along play went to the peer as such (and was taken: the tile left the hand).
    assert any('"along":true' in f for f in frames), frames[-5:]
    said = page.evaluate("window.said")
    assert any(SAID_SCORE.search(line) for line in said), said
    # Each seat's points this hand are in sight while it lasts; the summary tells what play
    # scored, not a pip sum.
    expect(page.locator("#summary")).to_be_visible()
    words = page.locator("#summary-points").text_content() or ""
    assert "points this hand: " in words and "'s " not in words, words
    screenshot(page, "fives-hand-over", docs="web-fives-summary")
    assert not page.errors  # type: ignore[attr-defined]


def test_a_threes_for_luck_hand_counts_the_draws_and_settles_the_difference(
    peers: Callable[..., Peer], open_page: Callable[..., Page]
) -> None:
    ann = peers("Ann", 47873)
    page = open_page(ann)
    expect(page.locator("#my-address")).to_contain_text("127.0.0.1:47873")
    _host(page, "threes-luck", 1)
    draw = page.locator("#draw")
    expect(draw).to_contain_text("Try my luck")
    counter = page.locator("#luck-draws")
    tally = page.locator("#me-bar .seat-tally")
    expect(tally).to_have_text(re.compile(r"^wins \d+, penalties \d+$"))
    tried = 0
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and not page.locator("#summary").is_visible():
        mine = page.locator("#turn.mine").count() > 0
        if mine and tried < 2 and draw.is_enabled():
            expect(counter).to_have_text(re.compile(r"^\d of 5 drawn$"))
            before = int((counter.text_content() or "0").split()[0])
            draw.click()
            tried += 1
            # The turn goes on (up to five): the count grows by the draw.
            expect(counter).to_have_text(f"{before + 1} of 5 drawn")
            if tried == 1:
                assert accessibility_defects(page) == [] and violations(page) == []
                screenshot(page, "threes-luck-try-my-luck", docs="web-threes-luck")
                # The page's own words in Russian: the button, the count and the tally.
                page.select_option("#lang-select", "ru")
                expect(draw).to_contain_text("Попытать счастья")
                expect(counter).to_have_text("взято 1 из 5")
                expect(tally).to_have_text(re.compile(r"^выигрыш \d+, штраф \d+$"))
                page.select_option("#lang-select", "en")
                expect(draw).to_contain_text("Try my luck")
            continue
        _play_preferring_a_double(page, along_done=True)
        time.sleep(0.1)
    assert tried >= 1, "Ann never had a turn that allowed a draw"
    expect(page.locator("#summary")).to_be_visible()
    words = page.locator("#summary-points").text_content() or ""
    assert "nets (wins − penalties): " in words, words
    assert re.search(r"takes the difference: -?\d+( − \(?−?\d+\)?)+ = \d+\.$", words) or (
        "nobody records" in words
    ), words
    # One hand, no target: no "of 0" after the scores, no target line on the chart.
    expect(page.locator("#summary-rows")).not_to_contain_text(" of ")
    expect(page.locator("#chart .target-line")).to_have_count(0)
    screenshot(page, "threes-luck-hand-over", docs="web-threes-luck-summary")
    assert not page.errors  # type: ignore[attr-defined]
