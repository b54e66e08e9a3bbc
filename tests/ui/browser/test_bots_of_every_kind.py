"""The host picks how each bot plays, seat by seat, among every strategy the program has: the
bot processes the peer starts play those strategies (their command lines say so)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Page, expect

from p2p_dominoes.bots import BOTS
from tests.ui.browser.conftest import Peer


def bot_strategies(peer: Peer) -> list[str]:
    """The `--bot` of every process in the peer's session (the bots it started), sorted."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if os.getsid(int(entry.name)) != peer.process.pid:
                continue
            argv = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"--bot" in argv:
            found.append(argv[argv.index(b"--bot") + 1].decode())
    return sorted(found)


def test_each_empty_seat_gets_the_bot_the_host_chose(
    peers: Callable[..., Peer], open_page: Callable[..., Page]
) -> None:
    ann = peers("Ann", 47931, lang="ru")
    page = open_page(ann)
    page.fill("#create-name", "Bots")
    page.select_option("#create-seats", "4")
    page.fill("#create-bots", "3")
    choices = page.locator("#bot-kinds select")
    expect(choices).to_have_count(3)  # one per bot
    offered = choices.first.evaluate("(s) => [...s.options].map((o) => o.value)")
    assert sorted([*offered, "partner"]) == sorted(BOTS)  # every strategy (partner: Kozel's)
    expect(choices.first.locator("option")).to_have_text(  # weakest first, each explained
        [
            "наугад — любая подходящая кость",
            "жадно — больше очков сейчас, иначе самая тяжёлая кость",
            "легко — игра новичка",
            "средне — бережёт свои концы, считает кости",
            "сложно — смотрит вперёд на 64 возможных раскладах",
            "эксперт — сильнейший: 200 возможных раскладов",
        ]
    )
    # Where the bots are chosen, the page says they cannot see other hands.
    expect(page.locator("#bot-kinds .bot-fair")).to_have_text(
        "Боты играют честно: бот видит только свои кости."
    )
    page.fill("#create-bots", "2")
    expect(choices).to_have_count(2)  # the count follows the number of bots
    page.select_option("#create-seats", "3")
    page.select_option("#create-bot-kind-1", "greedy")
    page.select_option("#create-bot-kind-2", "random")
    page.fill("#create-hands", "1")
    page.click("#create-button")
    expect(page.locator("#table")).to_be_visible()
    expect(page.locator("#players li")).to_have_count(2)
    # Each bot's seat card says so too (the host knows the seats of the bots it started).
    expect(page.locator("#players li .seat-fair")).to_have_count(2)
    assert bot_strategies(ann) == ["greedy", "random"]
    assert not page.errors  # type: ignore[attr-defined]
