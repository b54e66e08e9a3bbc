"""Kozel on the page: the «Мы / Они» score sheet (Us / Them) drawn from the peer's own sheet —
an amount under 13 struck out as not written, a ceremony's title on its row, the winner's wipe,
the totals and the 101 line — and the hand's summary saying which pair wrote what and which
ceremony triggered. The page's own modules run in the browser, on the real page."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page, expect

from p2p_dominoes.engine import HandEnd, Match, preset, result_text, score_hand
from p2p_dominoes.engine.actions import PASS, Play
from p2p_dominoes.engine.tiles import parse_tile
from p2p_dominoes.ui.web.kozel_sheet import SheetRow, sheet_json
from tests.ui.browser.conftest import Peer, screenshot

NAMES = ["Ann", "Bob", "Cid", "Dan"]
RULES = preset("kozel-ceremonies")
DOMINO = HandEnd.DOMINO


def _sheet(lang: str, seat: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """Three hands: Bob & Dan write 21; a 9 not written; Bob closes on 6:6 (generals)."""
    match = Match(RULES, 4)
    hands = [
        score_hand(RULES, DOMINO, [0, 8, 5, 13], closer=0),
        score_hand(RULES, DOMINO, [4, 0, 5, 2], closer=1),
        score_hand(
            RULES,
            DOMINO,
            [7, 0, 9, 4],
            closer=1,
            history=[(0, Play(parse_tile("5|6"))), (3, PASS), (1, Play(parse_tile("6|6")))],
        ),
    ]
    rows = []
    for number, result in enumerate(hands, start=1):
        match.openers.append(result.closer)
        match.finish_result(result, result.closer or 0)
        rows.append(SheetRow(number, result, tuple(match.scores)))
    sheet = sheet_json(RULES, seat, rows, NAMES, lang, 4)
    assert sheet is not None
    last = hands[-1]
    end = {
        "hand_number": 3,
        "end": "domino",
        "pairs": True,
        "winner": last.winner,
        "points": [last.points[s % 2] for s in range(4)],
        "pips": list(last.seat_pips),
        "words": result_text(last, lang, NAMES),
        "arithmetic": last.arithmetic(),
        "hands": [["3|4"], [], ["4|5"], ["1|3"]],
        "audit": "clean",
    }
    return sheet, end


def _table(lang: str, seat: int) -> dict[str, Any]:
    sheet, end = _sheet(lang, seat)
    totals = [sheet["rows"][-1]["cells"][0]["total"], sheet["rows"][-1]["cells"][1]["total"]]
    return {
        "screen": "table",
        "names": NAMES,
        "seat": seat,
        "turn": 1,
        "scores": [totals[(s + seat) % 2] for s in range(4)],
        "target": 101,
        "counts": [0, 0, 0, 0],
        "history": [],
        "code": None,
        "presence": [],
        "end": end,
        "match": {"over": False, "winner": None, "draw": False},
        "next_hand": {"number": 4, "seconds_left": 8, "ready": False},
        "stopped": None,
        "sheet": sheet,
    }


RENDER = """async ([snapshot]) => {
  const { renderSheet } = await import("/static/sheet.js");
  const { renderOverlay } = await import("/static/overlays.js");
  document.getElementById("lobby").hidden = true;
  document.getElementById("table").hidden = false;
  renderSheet(document.getElementById("sheet"), snapshot);
  renderOverlay(snapshot, { send: () => {}, codeText: () => "", onClose: () => {} });
}"""


def test_the_score_sheet_is_us_and_them_with_the_101_line(
    peers: Callable[..., Peer], open_page: Callable[..., Page]
) -> None:
    page = open_page(peers("Ann", 47941))
    page.wait_for_selector("#lobby:not([hidden])")
    page.evaluate(RENDER, [_table("en", 0)])
    sheet = page.locator("#sheet")
    expect(sheet).to_be_visible()
    head = sheet.locator("thead th")
    expect(head.nth(1)).to_have_text("Us (Ann & Cid)")
    expect(head.nth(2)).to_have_text("Them (Bob & Dan)")
    rows = sheet.locator("tbody tr")
    expect(rows).to_have_count(4)  # three hands and the totals line
    expect(rows.nth(0)).to_contain_text("21")  # Bob 8 + Dan 13 against them
    struck = rows.nth(1).locator("s")
    expect(struck).to_have_text("9")  # Ann 4 + Cid 5: not written
    expect(rows.nth(1)).to_contain_text("not written: under 13")
    expect(rows.nth(2).locator("th")).to_have_text("3: generals' goats")
    expect(rows.nth(2)).to_contain_text("wiped to 0")
    expect(rows.nth(3)).to_have_text("Total160")  # ours 16, theirs wiped
    expect(sheet.locator(".sheet-target")).to_have_text("101: whoever reaches it is the goat")
    points = page.locator("#summary-points")
    expect(points).to_contain_text("Domino by Bob (Bob & Dan); Ann & Cid record 7 + 9 = 16.")
    expect(points).to_contain_text("General: the hand was closed on 6:6")
    expect(points).to_contain_text("The winner's score is wiped: Bob & Dan now have 0.")
    winners = page.locator("#summary-rows tr.winner th")
    expect(winners).to_have_text(["Bob", "Dan"])  # the pair that went out
    screenshot(page, "kozel-summary", docs="kozel-summary")


def test_the_sheet_in_russian_is_my_pair_first(
    peers: Callable[..., Peer], open_page: Callable[..., Page]
) -> None:
    page = open_page(peers("Bob", 47942, lang="ru"))
    page.wait_for_selector("#lobby:not([hidden])")
    page.evaluate(RENDER, [_table("ru", 1)])
    page.evaluate("document.getElementById('summary').hidden = true")
    sheet = page.locator("#sheet")
    head = sheet.locator("thead th")
    expect(head.nth(1)).to_have_text("Мы (Bob & Dan)")
    expect(head.nth(2)).to_have_text("Они (Ann & Cid)")
    rows = sheet.locator("tbody tr")
    expect(rows.nth(1)).to_contain_text("не пишут: меньше 13")
    expect(rows.nth(2).locator("th")).to_have_text("3: генеральские козлы")
    expect(rows.nth(3)).to_have_text("Итого016")
    expect(sheet.locator(".sheet-target")).to_have_text("101: кто дойдёт — козёл")
    screenshot(page, "kozel-sheet-ru", docs="kozel-sheet-ru")
