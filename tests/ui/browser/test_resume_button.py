"""The lobby offers an unfinished table found in the data directory: the button (en and ru)
sends the page's `resume` command, and what the peer answers shows in the lobby."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Page, expect

from p2p_dominoes.store import table_dir
from tests.store.logs import played_transcript, write_log
from tests.ui.browser.conftest import Peer


def _unfinished_table(data: Path) -> None:
    """An unfinished log of a table 'Kitchen' (seat 2) kept for another identity than the
    peer's own: resuming it is refused with a sentence, which the lobby shows."""
    write_log(table_dir(data, played_transcript().table_id), count=5)


def test_the_lobby_offers_to_resume_and_says_why_it_cannot(
    tmp_path: Path, peers: Callable[..., Peer], open_page: Callable[[Peer], Page]
) -> None:
    _unfinished_table(tmp_path / "peer-47851")
    page = open_page(peers("Ann", 47851))
    expect(page.locator("#unfinished")).to_be_visible()
    expect(page.locator("#unfinished-text")).to_contain_text("Table 'Kitchen' was not finished")
    button = page.locator("#resume-button")
    expect(button).to_have_text("Resume the unfinished table")
    button.click()
    expect(page.locator("#lobby-lines")).to_contain_text(
        "this identity does not hold the seat this log was kept for"
    )
    expect(button).to_be_enabled()


def test_the_resume_button_and_its_refusal_speak_russian(
    tmp_path: Path, peers: Callable[..., Peer], open_page: Callable[[Peer], Page]
) -> None:
    _unfinished_table(tmp_path / "peer-47852")
    page = open_page(peers("Анна", 47852, lang="ru"))
    expect(page.locator("#resume-button")).to_have_text("Вернуться за недоигранный стол")
    expect(page.locator("#unfinished-text")).to_contain_text("Стол «Kitchen» не доигран")
    page.locator("#resume-button").click()  # the peer's refusal, a phrase, in the page's words
    expect(page.locator("#lobby-lines")).to_contain_text(
        "у этого ключа нет места, для которого велась эта запись"
    )


def test_no_unfinished_table_no_button(
    peers: Callable[..., Peer], open_page: Callable[[Peer], Page]
) -> None:
    page = open_page(peers("Ann", 47853))
    expect(page.locator("#create-button")).to_be_visible()
    expect(page.locator("#unfinished")).to_be_hidden()
