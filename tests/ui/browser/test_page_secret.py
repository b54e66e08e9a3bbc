"""The page's secret in a real browser: the redirect file and the one-time link give this
browser an HttpOnly, SameSite=Strict cookie and a clean URL; reloads keep the game; another
browser with the old link gets "open elsewhere"; a second tab can take the session over."""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import Browser, BrowserContext, Page, expect

from p2p_dominoes.ui.web import cookie_name
from tests.ui.browser.conftest import Peer, screenshot


def new_context(browser: Browser) -> BrowserContext:
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    context.set_default_timeout(20_000)
    return context


def watch_errors(page: Page) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    return errors


def test_the_redirect_file_opens_the_page_with_a_cookie_and_reloads_keep_the_game(
    peers: Callable[..., Peer], browser: Browser
) -> None:
    ann = peers("Ann", 47851)
    context = new_context(browser)
    try:
        page = context.new_page()
        errors = watch_errors(page)
        page.goto(ann.file_url)  # what `play` opens the browser on
        expect(page.locator("#lobby")).to_be_visible()
        expect(page.locator("#connection")).to_have_text("Connected to your peer.")
        assert page.url == f"{ann.origin}/"  # the token is gone from the address bar
        [cookie] = [c for c in context.cookies() if c["name"] == cookie_name(ann.port)]
        assert cookie["httpOnly"] and cookie["sameSite"] == "Strict" and cookie["path"] == "/"
        assert cookie["domain"] == "127.0.0.1"
        assert page.evaluate("document.cookie") == ""  # HttpOnly: no script can read it
        # The socket key, in this origin's (port-scoped) localStorage.
        assert len(page.evaluate("localStorage.getItem('p2p-dominoes-key')") or "") >= 43

        # A table with a bot; a reload (the page's own and the browser's) comes back to it.
        page.fill("#create-name", "Reload")
        page.select_option("#create-seats", "2")
        page.fill("#create-bots", "1")
        page.fill("#create-hands", "1")
        page.click("#create-button")
        expect(page.locator("#table")).to_be_visible()
        expect(page.locator("#players li")).to_have_count(1)  # the bot, across the board
        expect(page.locator("#hand .tile-button").first).to_be_visible()
        hand = page.locator("#hand .tile-button").count()
        page.reload()
        expect(page.locator("#table")).to_be_visible()
        expect(page.locator("#players li")).to_have_count(1)  # the bot, across the board
        expect(page.locator("#elsewhere")).to_be_hidden()
        page.evaluate("location.reload()")
        expect(page.locator("#table")).to_be_visible()
        expect(page.locator("#hand .tile-button")).to_have_count(hand)
        expect(page.locator("#elsewhere")).to_be_hidden()
        assert page.url == f"{ann.origin}/"
        assert not errors, errors
    finally:
        context.close()


def test_an_old_link_elsewhere_gets_open_elsewhere_and_a_second_tab_can_take_over(
    peers: Callable[..., Peer], browser: Browser
) -> None:
    ann = peers("Ann", 47852)
    mine, stranger = new_context(browser), new_context(browser)
    try:
        first = mine.new_page()
        errors = watch_errors(first)
        first.goto(ann.url)
        expect(first.locator("#lobby")).to_be_visible()

        # The same link in another browser (another user who read it): "open elsewhere",
        # nothing of the game, and no way to take it over.
        thief = stranger.new_page()
        thief_errors = watch_errors(thief)
        response = thief.goto(ann.url)
        assert response is not None and response.status == 403
        expect(thief.locator("#elsewhere")).to_be_visible()
        expect(thief.locator("#elsewhere-title")).to_have_text("This page is open elsewhere")
        expect(thief.locator("#elsewhere-link")).to_contain_text("works only once")
        expect(thief.locator("#take-over")).to_be_hidden()
        expect(thief.locator("#lobby")).to_be_hidden()
        expect(thief.locator("#me")).to_have_text("")
        assert not stranger.cookies()
        screenshot(thief, "open-elsewhere")
        assert thief.goto(f"{ann.origin}/") is not None
        expect(thief.locator("#elsewhere")).to_be_visible()

        # A second tab of this browser (it has the cookie) is offered "use it here".
        second = mine.new_page()
        second_errors = watch_errors(second)
        second.goto(f"{ann.origin}/")
        expect(second.locator("#elsewhere")).to_be_visible()
        expect(second.locator("#elsewhere-tab")).to_be_visible()
        expect(second.locator("#take-over")).to_be_visible()
        expect(second.locator("#lobby")).to_be_hidden()
        expect(first.locator("#lobby")).to_be_visible()  # the first tab still holds it
        screenshot(second, "open-in-another-tab")

        second.click("#take-over")
        expect(second.locator("#lobby")).to_be_visible()
        expect(second.locator("#elsewhere")).to_be_hidden()
        expect(first.locator("#elsewhere")).to_be_visible()
        expect(first.locator("#take-over")).to_be_visible()
        expect(first.locator("#lobby")).to_be_hidden()
        expect(first.locator("#connection")).to_have_text("")

        # The holder reloads: still its session; then the first tab takes it back.
        second.reload()
        expect(second.locator("#lobby")).to_be_visible()
        first.click("#take-over")
        expect(first.locator("#lobby")).to_be_visible()
        expect(second.locator("#elsewhere")).to_be_visible()
        assert not errors and not second_errors and not thief_errors
    finally:
        mine.close()
        stranger.close()


def test_open_elsewhere_speaks_russian(peers: Callable[..., Peer], browser: Browser) -> None:
    anna = peers("Анна", 47853, lang="ru")
    mine, stranger = new_context(browser), new_context(browser)
    try:
        page = mine.new_page()
        page.goto(anna.url)
        expect(page.locator("#lobby-title")).to_have_text("Лобби")
        second = mine.new_page()
        second.goto(f"{anna.origin}/")
        expect(second.locator("#elsewhere-title")).to_have_text(
            "Эта страница открыта в другом месте"
        )
        expect(second.locator("#take-over")).to_have_text("Открыть здесь")
        thief = stranger.new_page()
        thief.goto(anna.url)
        expect(thief.locator("#elsewhere-link")).to_contain_text("действует один раз")
        assert thief.evaluate("document.documentElement.lang") == "ru"
    finally:
        mine.close()
        stranger.close()
