"""The house-rules editor on a 390 px phone (issue 28 M4): the page is no wider than the phone,
axe-core finds nothing with a conflict showing (the conflict list is a real list inside a live
region), in English and Russian, and loading the page logs no error (no 404 for an icon)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from p2p_dominoes.words import line
from tests.ui.browser.conftest import Peer, screenshot
from tests.ui.browser.test_axe import violations
from tests.ui.browser.test_house_rules import choice

PHONE = (390, 844)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_rules_editor_fits_a_phone_and_axe_finds_nothing(
    peers: Callable[..., Peer], open_page: Callable[..., Page], lang: str
) -> None:
    ann = peers("Ann", 47871 if lang == "en" else 47872, lang=lang)
    page = open_page(ann, PHONE, locale="ru-RU" if lang == "ru" else "en-US", phone=True)
    console_errors: list[str] = []
    page.on("console", lambda m: console_errors.append(m.text) if m.type == "error" else None)
    expect(page.locator("#house-rules")).to_be_visible()
    page.click("#house-rules")
    expect(page.locator("body")).to_have_attribute("data-ready", "1")
    page.select_option("#start-from", "block")
    expect(page.locator("#status")).to_contain_text("block")  # opened (a change before is lost)
    # The editor's words, from the catalogues in the page's language (page_js.editor_*).
    opened = line("page_js.editor_opened", lang, name="block")
    expect(page.locator("#status")).to_have_text(opened)
    expect(page.locator("h1")).to_have_text(line("page_js.editor_title", lang))
    page.select_option("#in-layout", choice("layout", layout="cross"))
    page.select_option("#in-doubles", choice("doubles", doubles="along"))
    expect(page.locator("#conflict-list li")).to_have_count(1)
    page.evaluate("scrollTo(0, 0)")
    screenshot(page, f"rules-editor-phone-{lang}", full_page=False)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE[0], f"the editor is {width} px wide on a {PHONE[0]} px phone"
    wide = page.evaluate(
        """(w) => [...document.querySelectorAll("main *")].filter((e) => e.checkVisibility()
             && e.getBoundingClientRect().right > w + 0.5).map((e) => e.id || e.tagName)""",
        PHONE[0],
    )
    assert wide == [], wide
    assert violations(page) == []
    assert console_errors == [], console_errors
    assert not page.errors  # type: ignore[attr-defined]
