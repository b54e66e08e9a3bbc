"""The join code on the page, run in the browser on the real page's modules: the completion of
the code field (English and Russian words, `ё` as `е`, no completion for numbers or past the
third word), what a join command carries, and the host's table showing its code in the page's
language with its numbers."""

from __future__ import annotations

import re
from collections.abc import Callable

from playwright.sync_api import Page, expect

from p2p_dominoes.session.table_code import word_lists
from tests.ui.browser.conftest import Peer

COMPLETE = """async ([text]) => {
  const { completions } = await import("/static/join_code.js");
  return completions(text);
}"""


def test_the_code_field_completes_words_of_either_language(
    peers: Callable[..., Peer], open_page: Callable[..., Page]
) -> None:
    page = open_page(peers("Ann", 47951))
    page.wait_for_selector("#lobby:not([hidden])")
    en, ru = word_lists()["en"], word_lists()["ru"]

    def complete(text: str) -> list[str]:
        found: list[str] = page.evaluate(COMPLETE, [text])
        return found

    assert complete(en[0]) == [en[0]]  # a whole word completes to itself
    assert (
        complete(f"{en[0]} {en[1][:3].upper()}")
        == [f"{en[0]} {w}" for w in en if w.startswith(en[1][:3])][:8]
    )
    russian = next(w for w in ru if "е" in w)
    typed = russian[: russian.index("е") + 1].replace("е", "ё")
    assert f"{russian}" in complete(typed)  # ё typed for е
    assert complete("12") == [] and complete("") == []
    assert complete(f"{en[0]} {en[1]} {en[2]} a") == []  # three words are the whole code
    assert len(complete("a")) <= 8


def test_the_join_command_carries_the_typed_code_and_the_host_shows_its_own(
    peers: Callable[..., Peer], open_page: Callable[..., Page]
) -> None:
    page = open_page(peers("Ann", 47952))
    page.wait_for_selector("#lobby:not([hidden])")
    page.fill("#join-code", "apple")
    options = page.locator("#join-code-words option")
    expect(options.first).to_have_attribute("value", "apple")
    page.fill("#join-address", "127.0.0.1:9")  # nobody there: the join is only tried
    page.fill("#join-code", "no such words")
    page.click("#join-button")
    expect(page.locator("#lobby-error")).to_contain_text("join code")
    expect(page.locator("#join-code")).to_have_attribute("aria-invalid", "true")
    page.fill("#create-name", "Coded")
    page.select_option("#create-seats", "2")
    page.click("#create-button")
    expect(page.locator("#host-code")).to_be_visible()
    expect(page.locator("#host-code-words")).to_have_text(
        re.compile(r"^[a-z]+ [a-z]+ [a-z]+ \(\d{3}-\d{3}-\d{3}\)$")
    )
    expect(page.locator("#lobby-lines")).to_contain_text("Join code: ")
    assert not page.errors  # type: ignore[attr-defined]
