"""The page's parts drawn from made-up snapshots (the fields of the snapshot contract with the
peer): presence on the seats, the pause between hands with its countdown and "Next hand", the
stop with its next steps. The page's own modules run in the browser, on the real page."""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.ui.browser.conftest import Peer

TABLE = {
    "screen": "table",
    "names": ["Ann", "Bob", "Dan"],
    "seat": 0,
    "turn": 1,
    "scores": [10, 0, 28],
    "target": 61,
    "counts": [5, 4, 6],
    "history": [[10, 0, 28]],
    "code": None,
    "presence": [
        {"seat": 0, "state": "me", "away_seconds": None, "turn_seconds": None},
        {"seat": 1, "state": "connected", "away_seconds": None, "turn_seconds": 12},
        {"seat": 2, "state": "away", "away_seconds": 35, "turn_seconds": None},
    ],
    "end": {
        "hand_number": 1,
        "end": "domino",
        "winner": 2,
        "points": [0, 0, 28],
        "pips": [8, 20, 0],
        "arithmetic": "8 + 20 = 28",
        "hands": [["2|6"], ["4|6", "4|6"], []],
        "audit": "clean",
    },
    "match": {"over": False, "winner": None, "draw": False},
    "next_hand": {"number": 2, "seconds_left": 8, "ready": False},
    "stopped": None,
}

RENDER = """async ([snapshot]) => {
  const { renderSeats } = await import("/static/seats.js");
  const { renderOverlay, renderPause } = await import("/static/overlays.js");
  window.sent = [];
  document.getElementById("lobby").hidden = true;
  document.getElementById("table").hidden = false;
  renderSeats(document.getElementById("players"), snapshot, { 1: { kind: "pass", count: 0 } });
  const send = (message) => window.sent.push(message);
  renderOverlay(snapshot, { send, codeText: () => "", onClose: () => {} });
  renderPause(snapshot);
}"""


def test_presence_the_pause_between_hands_and_a_stop_are_drawn_from_the_snapshot(
    peers: Callable[..., Peer], open_page: Callable[..., Page]
) -> None:
    page = open_page(peers("Ann", 47881))
    page.wait_for_selector("#lobby:not([hidden])")
    page.evaluate(RENDER, [TABLE])
    seats = page.locator("#players li")
    expect(seats).to_have_count(2)
    expect(seats.nth(0)).to_contain_text("Bob")
    expect(seats.nth(0)).to_contain_text("thinking, 12 s")
    expect(seats.nth(0)).to_contain_text("passed")
    expect(seats.nth(0)).to_contain_text("to play")
    expect(seats.nth(1)).to_contain_text("away for 35 s")
    expect(seats.nth(1)).to_have_class("seat pos-right away")

    # The pause: the summary with the countdown; "Next hand" tells the peer, once.
    expect(page.locator("#summary")).to_be_visible()
    expect(page.locator("#summary-title")).to_have_text("Hand 1 is over")
    expect(page.locator("#summary-points")).to_have_text(
        "Dan went out: Ann's 8 + Bob's 20 = 28 to Dan"
    )
    expect(page.locator("#summary-next")).to_have_text("The next hand starts in 8 s.")
    expect(page.locator("#summary-rows tr").nth(2)).to_contain_text("28 of 61")
    page.click("#next-hand")
    assert page.evaluate("window.sent") == [{"type": "next_hand"}]
    ready = {**TABLE, "next_hand": {"number": 2, "seconds_left": 5, "ready": True}}
    page.evaluate(RENDER, [ready])
    expect(page.locator("#summary-next")).to_have_text("Ready. Waiting for the others…")
    expect(page.locator("#next-hand")).to_be_disabled()
    # The next hand has begun: the summary goes.
    page.evaluate(RENDER, [{**TABLE, "next_hand": None}])
    expect(page.locator("#summary")).to_be_hidden()

    # A stop: what happened, and the next steps the peer offers.
    stopped = {
        **TABLE,
        "next_hand": None,
        "stopped": {
            "reason": "stall",
            "seat": 2,
            "name": "Dan",
            "text": "The table stopped: Dan sent nothing for 180 s.",
            "next": ["lobby", "record", "resume"],
        },
    }
    page.evaluate(RENDER, [stopped])
    expect(page.locator("#summary-title")).to_have_text("The table has stopped")
    expect(page.locator("#summary-stopped")).to_have_text(
        "The table stopped: Dan sent nothing for 180 s."
    )
    for button in ("#to-lobby", "#download", "#resume-table"):
        expect(page.locator(button)).to_be_visible()
    expect(page.locator("#next-hand")).to_be_hidden()


BOARD = """async ([snapshot]) => {
  const { renderBoneyard } = await import("/static/seats.js");
  const { renderBoard } = await import("/static/board.js");
  document.getElementById("lobby").hidden = true;
  document.getElementById("table").hidden = false;
  renderBoneyard(document.getElementById("boneyard"), snapshot);
  renderBoard(document.getElementById("board"), {
    shape: "line", line: snapshot.line, lead: 0, last: "2|2", arrive: false, ends: snapshot.ends,
    closed: snapshot.closed, leadOpen: false, fits: ["left", "right"], onPlay: () => {},
  });
}"""


def test_a_closed_end_and_a_game_without_boneyard_are_drawn_as_such(
    peers: Callable[..., Peer], open_page: Callable[..., Page]
) -> None:
    page = open_page(peers("Ann", 47882))
    page.wait_for_selector("#lobby:not([hidden])")
    snapshot = {
        **TABLE,
        "line": [
            {"tile": "2|2", "left": 2, "right": 2, "double": True},
            {"tile": "2|5", "left": 2, "right": 5, "double": False},
        ],
        "ends": [
            {"end": "left", "tile": "2|2", "value": 2},
            {"end": "right", "tile": "2|5", "value": 5},
        ],
        "closed": [{"tile": "2-2", "value": 2}],
        "boneyard": 14,
        "reserve": 0,
        "boneyard_in_play": False,
    }
    page.evaluate(BOARD, [snapshot])
    expect(page.locator("#boneyard")).to_have_text("No boneyard (14 tiles out of play)")
    expect(page.locator("#boneyard .back")).to_have_count(0)
    closed = page.locator('.marker-button[data-end="left"]')
    expect(closed).to_have_attribute("aria-label", "left end, closed")
    expect(closed).to_be_disabled()
    expect(page.locator('.marker-button[data-end="right"]')).to_have_class("marker-button target")
    expect(page.locator(".board .tile.last")).to_have_count(1)
    # With a boneyard: face-down tiles, the ones never drawn set apart.
    page.evaluate(BOARD, [{**snapshot, "boneyard_in_play": True, "drawable": 12}])
    expect(page.locator("#boneyard .drawable .back")).to_have_count(12)
    expect(page.locator("#boneyard .kept .back")).to_have_count(2)
    expect(page.locator("#boneyard")).to_contain_text("2 never drawn")


OBSERVE = """async ([before, after]) => {
  const { moves, observe } = await import("/static/moves.js");
  observe(null, before);
  const said = observe(before, after);
  const seen = { said, recent: [...moves.recent], last: moves.last, badges: moves.badges };
  return { ...seen, again: observe(after, { ...after }) };
}"""


def _hand(line: list[str], serials: list[dict[str, object]]) -> dict[str, object]:
    tiles = [{"tile": k, "left": int(k[0]), "right": int(k[2]), "double": False} for k in line]
    return {
        "screen": "table", "names": ["Ann", "Bob", "bot-1"], "seat": 0, "turn": 0,
        "hand_number": 1, "line": tiles, "hand": [{"tile": "0|1", "fits": []}],
        "counts": [1, 5, 5], "recent_actions": serials,
    }  # fmt: skip


def test_two_moves_in_one_snapshot_are_both_captioned(
    peers: Callable[..., Peer], open_page: Callable[..., Page]
) -> None:
    page = open_page(peers("Ann", 47883))
    page.wait_for_selector("#lobby:not([hidden])")
    lead = {"seat": 0, "kind": "play", "tile": "2|5", "value": None, "end": "lead", "serial": 7}
    before = _hand(["2|5"], [lead])
    bob = {"seat": 1, "kind": "play", "tile": "5|6", "value": 5, "end": "right", "serial": 8}
    bot = {"seat": 2, "kind": "pass", "tile": None, "value": None, "end": None, "serial": 9}
    after = _hand(["2|5", "5|6"], [lead, bob, bot])
    seen = page.evaluate(OBSERVE, [before, after])
    assert seen["said"] == "Bob played [5|6] on the 5. bot-1 passed"
    assert seen["recent"] == ["bot-1 passed", "Bob played [5|6] on the 5"]
    assert seen["last"] == "5|6" and seen["badges"] == {"2": {"kind": "pass", "count": 0}}
    assert seen["again"] == ""  # the same moves in the next snapshot: nothing new to tell


SEATS_AND_BAR = """async ([snapshot]) => {
  const { renderSeats, renderMe } = await import("/static/seats.js");
  document.getElementById("lobby").hidden = true;
  document.getElementById("table").hidden = false;
  renderSeats(document.getElementById("players"), snapshot, {});
  renderMe(document.getElementById("me-bar"), snapshot, {});
}"""


def test_points_scored_during_play_and_the_ends_total_are_in_sight(
    peers: Callable[..., Peer], open_page: Callable[..., Page]
) -> None:
    """Fives: each seat's points of this hand and the open ends' total; Threes for luck: wins
    and penalties apart."""
    page = open_page(peers("Ann", 47884))
    page.wait_for_selector("#lobby:not([hidden])")
    fives = {**TABLE, "end": None, "next_hand": None, "hand_points": [2, 0, 1], "end_total": 10}
    page.evaluate(SEATS_AND_BAR, [fives])
    seats = page.locator("#players li")
    expect(seats.nth(0)).to_contain_text("+0 this hand")
    expect(seats.nth(1)).to_contain_text("+1 this hand")
    expect(page.locator("#me-bar")).to_contain_text("+2 this hand")
    expect(page.locator("#me-bar .end-total")).to_have_text("ends total 10")
    luck = {**fives, "hand_points": None, "end_total": 6, "luck": [[18, 0], [0, 10], [5, 0]]}
    page.evaluate(SEATS_AND_BAR, [luck])
    expect(seats.nth(0)).to_contain_text("wins 0, penalties 10")
    expect(page.locator("#me-bar")).to_contain_text("wins 18, penalties 0")
    plain = {**fives, "hand_points": None, "end_total": None}
    page.evaluate(SEATS_AND_BAR, [plain])
    expect(page.locator("#me-bar .end-total")).to_have_text("")
    expect(seats.nth(0).locator(".seat-tally")).to_have_text("")
