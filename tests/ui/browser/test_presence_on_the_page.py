"""A player who closes the tab, then whose peer goes too, as the others' page shows it: thinking,
then away with the page closed (his peer says so, PROTOCOL.md §14) in his seat and in the
waiting notice, warned about with a countdown that the page ticks itself every second (the peer
re-sends its counters only every few seconds), then away with the peer gone, then the stop with
its next steps."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable

from playwright.sync_api import Page, WebSocket, expect

from p2p_dominoes.net.going_on import STOP_ON_STALL
from tests.ui.browser.conftest import Peer, approve_request, join_code
from tests.ui.browser.test_play_in_the_browser import take_turn

STALL = 20  # seconds: the warning shows for the last 10


def count_snapshots(page: Page) -> list[float]:
    """The times at which the page's socket brings a table snapshot, from now on (the page is
    reloaded so that its new socket is watched from its first frame)."""
    times: list[float] = []

    def watch(socket: WebSocket) -> None:
        def heard(payload: str | bytes) -> None:
            message = json.loads(payload)
            if message.get("type") == "state":
                times.append(time.monotonic())

        socket.on("framereceived", heard)

    page.on("websocket", watch)
    page.reload()
    return times


def countdown(page: Page, snapshots: list[float], pattern: str, seconds: float) -> list[int]:
    """The numbers `#stall` shows over `seconds` (each distinct, in order), asserting that the
    number went down at least once with no snapshot arriving since the last look: the page
    counts on its own (a count of snapshots against numbers failed on a loaded machine)."""
    start, seen = time.monotonic(), []
    alone = 0
    came = len(snapshots)
    while time.monotonic() - start < seconds:
        found = re.search(pattern, page.locator("#stall").text_content() or "")
        if found and (not seen or seen[-1] != int(found.group(1))):
            alone += bool(seen) and len(snapshots) == came
            seen.append(int(found.group(1)))
        came = len(snapshots)
        page.wait_for_timeout(200)
    assert alone >= 1, (seen, len(snapshots))
    assert seen == sorted(seen, reverse=True), seen  # it counts down
    return seen


def test_a_player_who_closes_the_tab_is_warned_about_then_shown_away(
    peers: Callable[..., Peer], open_page: Callable[..., Page]
) -> None:
    # The §15 stop on the page: since v4 a person's peer asks whether to go on without a seat
    # that stalled (tests/ui/browser/test_leave_table.py); the test hook keeps the verdict.
    env = {STOP_ON_STALL: "1"}
    ann, bob = peers("Ann", 47901, env=env), peers("Bob", 47902, env=env)
    page, bobs = open_page(ann), open_page(bob, (390, 844), phone=True)
    page.fill("#create-name", "Presence")
    page.select_option("#create-seats", "2")
    page.fill("#create-hands", "1")
    page.fill("#create-stall", str(STALL))
    page.click("#create-button")
    expect(page.locator("#lobby-lines")).to_contain_text("is open on port 47901")
    bobs.fill("#join-address", "127.0.0.1:47901")
    bobs.fill("#join-code", join_code(page)[0])
    bobs.click("#join-button")
    approve_request(page)
    expect(page.locator("#table")).to_be_visible()
    expect(bobs.locator("#table")).to_be_visible()
    # Ann plays until it is Bob's turn; then Bob closes his tab (his peer still runs).
    deadline = time.monotonic() + 30
    while not bobs.locator("#me-bar.turn").count():
        assert time.monotonic() < deadline
        take_turn(page)
        page.wait_for_timeout(200)
    bob_seat = page.locator("#players .seat.turn")
    expect(bob_seat.locator(".presence")).to_have_text(re.compile(r"^thinking, \d+ s$"))
    expect(page.locator("#players .seat.away")).to_have_count(0)
    bobs.close()
    snapshots = count_snapshots(page)
    # His peer tells Ann's that his page closed: away, with the page closed, in his seat and in
    # the waiting notice; and he has to come back before the stall timeout.
    expect(bob_seat.locator(".presence")).to_have_text(
        re.compile(r"^away — page closed \(\d+ s\)$"), timeout=10_000
    )
    expect(page.locator("#players .seat.away")).to_have_count(1)
    expect(page.locator("#waiting")).to_have_text(
        re.compile(r"^Waiting for Bob \(\d+ s\): away — page closed$")
    )
    stall = page.locator("#stall")
    expect(stall).to_have_text(
        re.compile(r"^Bob has \d+ s to come back before the table stops\.$"),
        timeout=STALL * 1000,
    )
    countdown(page, snapshots, r"Bob has (\d+) s to come back", 3.5)
    # Bob's peer goes too (his machine is off): shown away, and he has to come back.
    bob.process.kill()
    bob.process.wait(10)
    expect(bob_seat.locator(".presence")).to_have_text(re.compile(r"^away for \d+ s$"))
    expect(page.locator("#players .seat.away")).to_have_count(1)
    seen = countdown(page, snapshots, r"Bob has (\d+) s to come back", 3.5)
    assert seen[-1] < 10
    # The stall timeout ends the table for Ann, with what she can do next.
    expect(page.locator("#summary-stopped")).to_have_text(
        "The table stopped: Bob is not responding — it was Bob's turn to play.",
        timeout=STALL * 1000,
    )
    expect(page.locator("#to-lobby")).to_be_visible()
    expect(page.locator("#download")).to_be_visible()
    # A stall ends the table for every seat (its log is closed): nothing to resume.
    expect(page.locator("#resume-table")).to_be_hidden()
    assert not page.errors  # type: ignore[attr-defined]
