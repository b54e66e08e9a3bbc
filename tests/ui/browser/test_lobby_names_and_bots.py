"""The lobby's defaults (issue 28 M1–M3): every game by its own name in both languages, the same
words as the rules editor's; bots that default to `partner` in Kozel and to `medium` elsewhere,
listed weakest first with a line each on how they play; and the table opening at its top
whatever the lobby's scroll position was."""

from __future__ import annotations

import re
from collections.abc import Callable

from playwright.sync_api import Page, expect

from p2p_dominoes.engine import PRESETS
from tests.ui.browser.conftest import Peer, approve_request, join_code
from tests.ui.browser.test_bots_of_every_kind import bot_strategies

PHONE = (390, 844)
BY_STRENGTH = ["random", "greedy", "easy", "medium", "hard", "expert"]
OPTIONS = "(s) => [...s.options].map((o) => [o.value, o.textContent])"
EDITOR_PRESETS = "() => [...document.querySelectorAll('#start-from optgroup')[0].children]" + (
    ".map((o) => [o.value, o.textContent])"
)


def test_every_game_has_its_name_in_both_languages_the_same_as_the_editors(
    peers: Callable[..., Peer], open_page: Callable[..., Page]
) -> None:
    for port, lang, locale in ((47971, "en", "en-US"), (47972, "ru", "ru-RU")):
        page = open_page(peers("Ann", port, lang=lang), locale=locale)
        rules = page.locator("#create-rules")
        expect(rules.locator("option")).to_have_count(len(PRESETS))
        lobby = dict(rules.evaluate(OPTIONS))
        assert set(lobby) == set(PRESETS)
        for name, words in lobby.items():
            assert words and words != name, (lang, name, words)  # a name, not the id
            if lang == "ru":
                assert re.search("[а-яё]", words, re.IGNORECASE), (name, words)
        assert lobby["kozel"] == ("Козёл" if lang == "ru" else "Kozel (the goat)")
        page.click("#house-rules")
        expect(page.locator("body")).to_have_attribute("data-ready", "1")
        editor = dict(page.evaluate(EDITOR_PRESETS))
        assert editor == {name: f"{words} ({name})" for name, words in lobby.items()}, lang
        assert not page.errors  # type: ignore[attr-defined]


def test_bots_default_to_partner_in_kozel_and_medium_elsewhere_weakest_first(
    peers: Callable[..., Peer], open_page: Callable[..., Page]
) -> None:
    ann = peers("Ann", 47973)
    page = open_page(ann)
    page.select_option("#create-seats", "4")
    page.fill("#create-bots", "3")
    kinds = page.locator("#bot-kinds select")
    expect(kinds).to_have_count(3)
    # The draw game: a middle level chosen, the levels by strength, each said in a line.
    options = kinds.first.evaluate(OPTIONS)
    assert [value for value, _ in options] == BY_STRENGTH  # no `partner` without partners
    assert [text for _, text in options] == [
        "at random — any tile that fits",
        "greedily — the most points now, else its heaviest tile",
        "easy — a beginner's play",
        "medium — keeps its ends, counts the tiles",
        "hard — looks ahead on 64 guessed deals",
        "expert — the strongest: 200 guessed deals",
    ]
    for n in (1, 2, 3):
        expect(page.locator(f"#create-bot-kind-{n}")).to_have_value("medium")
    # Kozel: partners, so `partner`, listed last; a bot the host picked keeps its choice.
    page.select_option("#create-bot-kind-3", "hard")
    page.select_option("#create-rules", "kozel")
    assert [value for value, _ in kinds.first.evaluate(OPTIONS)] == [*BY_STRENGTH, "partner"]
    expect(page.locator("#create-bot-kind-1")).to_have_value("partner")
    expect(page.locator("#create-bot-kind-2")).to_have_value("partner")
    expect(page.locator("#create-bot-kind-3")).to_have_value("hard")
    page.select_option("#create-bot-kind-3", "partner")
    # In Russian too.
    page.select_option("#lang-select", "ru")
    expect(page.locator("#create-bot-kind-1 option").last).to_have_text(
        "в паре (козёл) — выручает партнёра, запирает соперников"
    )
    expect(page.locator("#create-bot-kind-1 option").nth(3)).to_have_text(
        "средне — бережёт свои концы, считает кости"
    )
    expect(page.locator("#create-bot-kind-1")).to_have_value("partner")
    # The bots the peer starts play what the page chose by default.
    page.fill("#create-name", "Goats")
    page.click("#create-button")
    expect(page.locator("#table")).to_be_visible(timeout=30_000)
    expect(page.locator("#hand .tile-button")).to_have_count(7, timeout=30_000)
    assert bot_strategies(ann) == ["partner"] * 3

    bob = peers("Bob", 47974)
    page = open_page(bob)
    page.select_option("#create-seats", "2")
    page.fill("#create-bots", "1")
    page.fill("#create-hands", "1")
    page.click("#create-button")  # nothing chosen: the draw game's default
    expect(page.locator("#table")).to_be_visible(timeout=30_000)
    expect(page.locator("#hand .tile-button")).not_to_have_count(0, timeout=30_000)
    assert bot_strategies(bob) == ["medium"]


def test_the_table_opens_at_its_top_however_far_down_the_lobby_was(
    peers: Callable[..., Peer], open_page: Callable[..., Page]
) -> None:
    ann, bob = peers("Ann", 47975), peers("Bob", 47976)
    host = open_page(ann, PHONE, phone=True)
    guest = open_page(bob, PHONE, phone=True)
    host.fill("#create-name", "Top")
    host.select_option("#create-seats", "3")
    host.fill("#create-bots", "1")
    host.fill("#create-hands", "1")
    host.click("#create-button")  # far down the phone's lobby
    expect(host.locator("#host-lobby")).to_be_visible()
    expect(host.locator("#host-code")).to_be_visible()
    guest.fill("#join-address", "127.0.0.1:47975")
    guest.fill("#join-code", join_code(host)[0])
    guest.click("#join-button")
    expect(host.locator("#requests li")).to_have_count(1)
    for page in (host, guest):
        page.evaluate("scrollTo(0, document.body.scrollHeight)")
        assert page.evaluate("scrollY") > 300  # the lobby is long on a phone
    approve_request(host)  # (scrolls it into view)
    for page in (host, guest):
        expect(page.locator("#table")).to_be_visible()
        expect(page.locator("#turn")).not_to_be_empty(timeout=30_000)
        assert page.evaluate("scrollY") == 0
        expect(page.locator("#turn")).to_be_in_viewport()
        expect(page.locator("#board")).to_be_in_viewport()
    assert not host.errors and not guest.errors  # type: ignore[attr-defined]
