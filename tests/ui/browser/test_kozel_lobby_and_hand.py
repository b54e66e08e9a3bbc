"""Kozel from the lobby to the end of a hand, with clicks: two people (two pages) and two bots.

Ann opens a Kozel table with two bots; her page shows the four seats as two pairs. Bob asks for
seat 3 (Ann's partner, across the table), which Ann freed by moving a bot from it to seat 4 (a
swap on her page). Both pages show the partner's badge and play the hand to its summary with
clicks, passing when stuck; the hand's words (which pair wrote what, and why) are read out.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable

from playwright.sync_api import Page, expect

from p2p_dominoes.engine import HandEnd, preset, result_text, score_hand
from p2p_dominoes.engine.actions import PASS, Play
from p2p_dominoes.engine.kozel_text import ceremonies_text
from p2p_dominoes.engine.tiles import parse_tile
from tests.ui.browser.conftest import Peer, screenshot
from tests.ui.browser.test_play_in_the_browser import take_turn


def test_two_people_and_two_bots_play_a_kozel_hand_from_the_lobby(
    peers: Callable[..., Peer], open_page: Callable[..., Page]
) -> None:
    ann, bob = peers("Ann", 47871), peers("Bob", 47872, lang="ru")
    page_a, page_b = open_page(ann), open_page(bob, locale="ru-RU")
    page_a.fill("#create-name", "Kozel")
    page_a.select_option("#create-rules", "kozel")
    page_a.select_option("#create-seats", "4")
    page_a.fill("#create-bots", "2")
    page_a.fill("#create-hands", "1")
    page_a.click("#create-button")
    seats = page_a.locator("#host-seats li")
    expect(seats).to_have_count(3)  # Ann and her two bots
    expect(page_a.locator("#host-seats-title")).to_contain_text("seats 1 and 3 play against")
    expect(seats.nth(0)).to_contain_text("(pair 1)")
    expect(seats.nth(1)).to_contain_text("(pair 2)")
    # Bots sit at seats 2 and 3; Ann moves the one at seat 3 to seat 4, to keep 3 for Bob.
    expect(seats.nth(2)).to_contain_text("seat 3: bot-2 (bot)")
    seats.nth(2).locator("select.swap").select_option("3")
    expect(seats.nth(2)).to_contain_text("seat 4: bot-2 (bot)")
    expect(page_a.locator("#host-empty li")).to_contain_text("seat 3: empty seat")

    page_b.fill("#join-address", "127.0.0.1:47871")
    code = page_a.locator("#host-code-words").inner_text()  # "words (000-000-000)"
    page_b.fill("#join-code", code.split("(")[1].rstrip(")"))  # its numbers, any language
    page_b.select_option("#join-seat", value="3")  # across from Ann
    page_b.click("#join-button")
    request = page_a.locator("#requests li")
    expect(request).to_contain_text("Bob asks for a seat")
    request.locator("button.approve").click()
    # Too quick to see: the table fills and starts. The seat order shows in both lobbies' lines
    # and at the table: Bob sits across from Ann (seat 3), the bot that was there moved to 4.
    for page in (page_a, page_b):
        expect(page.locator("#table")).to_be_visible()
        expect(page.locator("#hand .tile-button")).to_have_count(7)
    expect(page_b.locator("#lobby-lines")).to_contain_text("Пары: Ann и Bob против bot-1 и bot-2")
    for page, partner in ((page_a, "Bob"), (page_b, "Ann")):
        badge = page.locator("#players li.pos-top .partner-badge")  # across the table
        expect(badge).to_have_count(1)
        expect(page.locator("#players li.pos-top .seat-name")).to_contain_text(partner)
        expect(page.locator("#players .partner-badge")).to_have_count(1)
    expect(page_b.locator("#players .partner-badge")).to_have_text("партнёр")

    shot = False
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        if all(p.locator("#summary").is_visible() for p in (page_a, page_b)):
            break
        for page in (page_a, page_b):
            done = take_turn(page)
            if done == "play" and not shot and page is page_a:
                page.evaluate("scrollTo(0, 0)")
                screenshot(page, "kozel-table", docs="kozel-table", full_page=False)
                shot = True
        time.sleep(0.1)
    for page in (page_a, page_b):
        expect(page.locator("#summary")).to_be_visible()
    expect(page_a.locator("#summary")).to_contain_text("Ann & Bob")
    expect(page_b.locator("#summary")).to_contain_text("Ann & Bob")
    # The chart draws a line a pair (partners share a total), its legend named by the pair.
    for page in (page_a, page_b):
        expect(page.locator("#chart polyline")).to_have_count(2)
        expect(page.locator("#chart-legend li")).to_have_count(2)
        expect(page.locator("#chart-legend")).to_contain_text("Ann & Bob")
    # The live region says which pair wrote what and why, or (a fish with equal totals, the
    # deal is random) that nobody writes.
    said = re.compile(r"Ann & Bob|the pair totals are equal|суммы пар равны")
    for page in (page_a, page_b):
        expect(page.locator("#announce")).to_contain_text(said)
    page_a.locator("#sheet").scroll_into_view_if_needed()
    assert shot
    assert not page_a.errors and not page_b.errors  # type: ignore[attr-defined]


WORDS = """async ([prev, snapshot, lang]) => {
  const { setLang } = await import("/static/strings.js");
  const { kozelEndWords, isPartner } = await import("/static/kozel_live.js");
  setLang(lang);
  const partners = [0, 1, 2, 3].filter((seat) => isPartner(snapshot, seat));
  return { ...kozelEndWords(prev, snapshot), partners };
}"""


def test_a_ceremony_is_said_by_its_name_and_what_it_does_once_per_hand(
    peers: Callable[..., Peer], open_page: Callable[..., Page]
) -> None:
    """A General ending as the peer words it (the engine's text, in each language): the hand's
    pair sentence for the screen reader, the ceremony for the caption, once per hand."""
    page = open_page(peers("Ann", 47873))
    page.wait_for_selector("#lobby:not([hidden])")
    names = ["Ann", "Bob", "Cid", "Dan"]
    rules = preset("kozel-ceremonies")
    history = [(0, Play(parse_tile("5|6"))), (3, PASS), (1, Play(parse_tile("6|6")))]
    result = score_hand(rules, HandEnd.DOMINO, [7, 0, 9, 4], closer=1, history=history)
    for lang, name in (("en", "General"), ("ru", "Генерал")):
        end = {
            "pairs": True,
            "hand_number": 3,
            "words": result_text(result, lang, names),
            "ceremony_text": ceremonies_text(result, lang, names).strip(),
        }
        table = {"screen": "table", "names": names, "seat": 1, "pairs": True, "end": end}
        said = page.evaluate(WORDS, [{"screen": "table", "end": None}, table, lang])
        assert said["words"] == end["words"] and "Bob & Dan" in said["words"], said
        assert said["ceremony"].startswith("Ceremony! " if lang == "en" else "Церемония! ")
        assert name in said["ceremony"], said
        assert said["partners"] == [3]  # Bob's partner is Dan, across the table
        again = page.evaluate(WORDS, [table, table, lang])  # the same hand: said once
        assert again["words"] == again["ceremony"] == ""
