"""House rules in the browser: build a set, see switches that need a boneyard greyed on a game
without one, meet a conflict (named, Save refused), fix it, save it, create a table with it and
play a hand against a bot."""

from __future__ import annotations

import json
import time
from collections.abc import Callable

from playwright.sync_api import Page, expect

from p2p_dominoes.ui.rules_form import CONTROLS
from tests.ui.browser.conftest import Peer, screenshot
from tests.ui.browser.test_play_in_the_browser import take_turn


def choice(key: str, **sets: object) -> str:
    """The option value of the editor's `key` control whose choice sets `sets`."""
    control = next(c for c in CONTROLS if c.key == key)
    return str(next(i for i, c in enumerate(control.choices) if dict(c.sets) == sets))


def test_a_house_rule_set_is_built_checked_saved_and_played(
    peers: Callable[..., Peer], open_page: Callable[[Peer], Page]
) -> None:
    ann = peers("Ann", 47861)
    page = open_page(ann)
    expect(page.locator("#my-address")).to_contain_text("127.0.0.1:47861")
    page.click("#house-rules")
    expect(page.locator("body")).to_have_attribute("data-ready", "1")

    # Start from the block game (no boneyard).
    page.select_option("#start-from", "block")
    expect(page.locator("#status")).to_contain_text('Opened "block"')
    # «Можно ли покупать, когда ход и так есть» has no choice for "no boneyard": it says so.
    expect(page.locator('#in-buy_anyway option[value="other"]')).to_have_text("other: no boneyard")
    page.fill("#set-name", "quick-block")
    # Switches that need a boneyard have no effect here: greyed, never refused (issue 24).
    page.uncheck("#in-fish_counts")
    page.select_option("#in-reserve", choice("reserve", reserve=1))
    for control in ("fish_counts", "reserve"):
        expect(page.locator(f"#ctl-{control}")).to_have_class("control inert")
        expect(page.locator(f"#why-{control}")).not_to_contain_text("Conflict:")
    expect(page.locator("#why-fish_counts")).to_have_text(
        "No effect here: No boneyard, so a blocked hand counts (with 2, 3 and 4 players): it is "
        "redealt only where there is a boneyard."
    )
    expect(page.locator("#conflicts")).to_be_hidden()
    expect(page.locator("#save-set")).to_be_enabled()
    page.check("#in-fish_counts")
    page.select_option("#in-reserve", choice("reserve", reserve=0))

    # A cross grows from a double laid across: with every double along it is a conflict.
    page.select_option("#in-layout", choice("layout", layout="cross"))
    page.select_option("#in-doubles", choice("doubles", doubles="along"))
    conflicts = page.locator("#conflict-list li")
    expect(conflicts).to_have_count(1)
    expect(conflicts.first).to_contain_text("with every double lengthwise there is no centre")
    # Both switches are marked, and say why; Save is refused.
    for control in ("layout", "doubles"):
        expect(page.locator(f"#ctl-{control}")).to_have_class("control conflict")
        expect(page.locator(f"#why-{control}")).to_contain_text("Conflict:")
    expect(page.locator("#in-doubles")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#save-set")).to_be_disabled()
    expect(page.locator("#save-why")).to_contain_text("until the conflict above is resolved")
    screenshot(page, "house-rules-conflict")

    # A switch with no effect is greyed, its reason given to screen readers and on focus.
    draw_limit = page.locator("#in-draw_limit")
    expect(page.locator("#ctl-draw_limit")).to_have_class("control inert")
    assert draw_limit.get_attribute("aria-describedby") == "why-draw_limit"
    expect(page.locator("#why-draw_limit")).to_have_text(
        "No effect here: No boneyard: nothing to draw "
        "(with 2, 3 and 4 players the rules have none)."
    )
    draw_limit.focus()
    expect(page.locator("#why-draw_limit")).to_be_visible()

    # A conflict supersedes "no effect": wiping the winner's score where points are gains is a
    # conflict (K11), and with no ceremony on it also did nothing (N7); only the conflict shows.
    page.check("#in-winner_reset")
    expect(page.locator("#ctl-winner_reset")).to_have_class("control conflict")
    expect(page.locator("#why-winner_reset")).to_contain_text("Conflict:")
    expect(page.locator("#why-winner_reset")).not_to_contain_text("No effect here")
    page.uncheck("#in-winner_reset")
    expect(page.locator("#ctl-winner_reset")).to_have_class("control inert")

    # Fixed: doubles across, a line again. A short match: 30 points for two players.
    page.select_option("#in-doubles", choice("doubles", doubles="across"))
    page.select_option("#in-layout", choice("layout", layout="line"))
    expect(page.locator("#conflicts")).to_be_hidden()
    # Only the last check's answer greys the doubles (a line: N8), so once they are greyed no
    # answer is still on its way to redraw the target typed next (the test once lost it so).
    expect(page.locator("#ctl-doubles")).to_have_class("control inert")
    page.fill("#target-2", "30")
    page.locator("#target-2").dispatch_event("change")
    expect(page.locator("#save-set")).to_be_enabled()
    page.click("#save-set")
    expect(page.locator("#status")).to_contain_text('Saved as "quick-block"')

    # The rules screen says what the set plays, each switch linked to its control.
    page.click("#show-screen")
    expect(page.locator('.rule-value[data-field="fish_counts"]').first).to_contain_text("now: on")
    page.locator('.rule-link[data-field="fish_counts"]').first.click()
    expect(page.locator("#in-fish_counts")).to_be_focused()

    saved = json.loads((ann.data_dir / "rules" / "quick-block.json").read_text("utf-8"))
    assert saved["targets"][0] == [2, 30] and saved["drawing"] == "never"

    # Back in the lobby the saved set is a choice for a new table; play a hand against a bot.
    page.click("#to-lobby")
    expect(page.locator("#my-address")).to_contain_text("127.0.0.1:47861")
    page.select_option("#create-rules", "quick-block")
    page.fill("#create-name", "Kitchen")
    page.select_option("#create-seats", "2")
    page.fill("#create-bots", "1")
    page.fill("#create-hands", "1")
    page.click("#create-button")
    expect(page.locator("#table")).to_be_visible()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not page.locator("#summary").is_visible():
        take_turn(page)
        time.sleep(0.1)
    expect(page.locator("#summary")).to_be_visible()
    expect(page.locator("#summary")).to_contain_text(" of 30")  # the saved set's target
    screenshot(page, "house-rules-hand-played")
    assert not page.errors  # type: ignore[attr-defined]
