"""The host decides on its page who sits: it refuses one joiner, seats another, removes a seat.

Ann hosts from her page, which shows a join code beside her table; the joiners are `join`
processes (Mallory without the code, Eve with it) and another page (Bob, who types it). Mallory is
refused without Ann being asked; Ann sees each other request with the joiner's short and full
fingerprint (Bob's page shows him his own short one while he waits), and every answer reaches
the joiner.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Page, expect

from p2p_dominoes.store import load_or_create_identity
from tests.ui.browser.conftest import Peer, approve_request, join_code, screenshot


def _join_process(
    name: str, port: int, data_dir: Path, out: Path, *code: str
) -> subprocess.Popen[bytes]:
    with out.open("wb") as sink:
        return subprocess.Popen(
            [
                sys.executable, "-m", "p2p_dominoes", "join",
                "--connect", f"127.0.0.1:{port}", "--name", name, "--bot", "random",
                "--ui", "none", "--interface", "127.0.0.1", "--port", "0", "--no-mdns",
                "--data-dir", str(data_dir), *code,
            ],
            stdin=subprocess.DEVNULL,
            stdout=sink,
            stderr=subprocess.STDOUT,
        )  # fmt: skip


def _create(page: Page, name: str, seats: str, bots: str) -> None:
    page.fill("#create-name", name)
    page.select_option("#create-seats", seats)
    page.fill("#create-bots", bots)
    page.fill("#create-hands", "1")
    page.click("#create-button")


def test_the_host_refuses_one_joiner_and_seats_another_on_its_page(
    peers: Callable[..., Peer], open_page: Callable[[Peer], Page], tmp_path: Path
) -> None:
    ann, bob = peers("Ann", 47851), peers("Bob", 47852)
    page_a, page_b = open_page(ann), open_page(bob)
    _create(page_a, "Approvals", "2", "0")
    expect(page_a.locator("#host-lobby")).to_be_visible()
    expect(page_a.locator("#host-seats li")).to_have_count(1)

    expect(page_a.locator("#host-code")).to_be_visible()
    shown = page_a.locator("#host-code-words").inner_text()
    words, digits = shown.split(" (")[0], shown.split("(")[1].rstrip(")")
    mallory = _join_process("Mallory", 47851, tmp_path / "mallory", tmp_path / "mallory.out")
    assert mallory.wait(30) != 0
    said = (tmp_path / "mallory.out").read_text()
    assert "no seat [code]" in said, said
    expect(page_a.locator("#requests li")).to_have_count(0)  # Ann was never asked

    eve_dir = tmp_path / "eve"
    eve_key = load_or_create_identity(eve_dir).public
    eve = _join_process("Eve", 47851, eve_dir, tmp_path / "eve.out", "--code", digits)
    try:
        request = page_a.locator("#requests li")
        expect(request).to_have_count(1)
        expect(request).to_contain_text("Eve asks for a seat")
        expect(request.locator(".fp")).to_have_text(eve_key.fingerprint)  # the full one
        expect(request.locator(".fp-short")).to_have_text(eve_key.short_fingerprint)
        screenshot(page_a, "host-asked")
        request.locator("button.refuse").click()
        assert eve.wait(30) != 0
    finally:
        if eve.poll() is None:
            eve.kill()
            eve.wait(10)
    said = (tmp_path / "eve.out").read_text()
    assert "no seat [refused]" in said, said
    expect(page_a.locator("#requests li")).to_have_count(0)
    expect(page_a.locator("#lobby-lines")).to_contain_text("Refused Eve")

    page_b.fill("#join-address", "127.0.0.1:47851")
    page_b.fill("#join-code", words.upper())
    page_b.click("#join-button")
    request = page_a.locator("#requests li")
    expect(request).to_contain_text("Bob asks for a seat")
    # Both screens show Bob's short fingerprint, to compare before Ann seats him.
    bobs_short = request.locator(".fp-short").inner_text()
    expect(page_b.locator("#joining")).to_contain_text(bobs_short)
    screenshot(page_b, "joiner-waiting-with-fingerprint")
    request.locator("button.approve").click()
    expect(page_a.locator("#table")).to_be_visible()
    expect(page_b.locator("#table")).to_be_visible()
    expect(page_b.locator("#players li")).to_have_count(1)  # the other player, across
    assert not page_a.errors and not page_b.errors  # type: ignore[attr-defined]


def test_the_host_removes_seated_players_before_the_start_and_everyone_sees_it(
    peers: Callable[..., Peer], open_page: Callable[[Peer], Page]
) -> None:
    ann, bob = peers("Ann", 47861), peers("Bob", 47862)
    page_a, page_b = open_page(ann), open_page(bob)
    _create(page_a, "Removals", "4", "1")
    seats = page_a.locator("#host-seats li")
    expect(seats).to_have_count(2)  # Ann and her bot, seated without asking
    expect(seats.nth(1)).to_contain_text("bot-1 (bot)")

    page_b.fill("#join-address", "127.0.0.1:47861")
    page_b.fill("#join-code", join_code(page_a)[0])
    page_b.click("#join-button")
    approve_request(page_a)
    expect(seats).to_have_count(3)
    expect(page_b.locator("#lobby-lines")).to_contain_text("3 of 4 seats")

    # The bot's seat is taken back: Bob's seat list follows.
    seats.nth(1).locator("button.remove").click()
    expect(seats).to_have_count(2)
    expect(seats.nth(1)).to_contain_text("Bob")
    expect(page_b.locator("#lobby-lines")).to_contain_text("2 of 4 seats")
    screenshot(page_a, "host-removed-a-seat")

    # Then Bob's: he is told, and Ann is alone again.
    seats.nth(1).locator("button.remove").click()
    expect(seats).to_have_count(1)
    expect(page_b.locator("#lobby-lines")).to_contain_text("no seat [removed]")
    expect(page_b.locator("#lobby")).to_be_visible()
    expect(page_a.locator("#lobby-lines")).to_contain_text("Removed Bob from seat 2")
    assert not page_a.errors and not page_b.errors  # type: ignore[attr-defined]
