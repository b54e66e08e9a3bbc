"""The page of a peer whose seat the table went on without (v4, PROTOCOL.md §16) says so in
its language: when another seat said it was gone (a goodbye in its name), and when a new holder
took the seat. (The page offers the record itself, so the line names no file.)"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from p2p_dominoes.session.events import Event, HandAbandoned, SeatReplaced
from p2p_dominoes.ui.web import Hub
from p2p_dominoes.ui.web.web_ui import WebUI
from p2p_dominoes.words import line


def _went_on(lang: str, event: Event) -> str:
    """What Ann's page (seat 1 of Ann and Bob) says after `event`."""
    ui = WebUI(Hub(), lang, SimpleNamespace(publish=lambda: None))  # type: ignore[arg-type]
    ui.events([event], ["Ann", "Bob"], 0)
    return ui.progress.went_on


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_seat_said_gone_by_another_says_who_said_it(lang: str) -> None:
    said = _went_on(lang, HandAbandoned(2, 0, "stalled", 1))
    assert said == line("net.said_gone", lang, name="Bob", record="")
    assert "Bob" in said


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_seat_with_a_new_holder_names_it(lang: str) -> None:
    said = _went_on(lang, SeatReplaced(0, "Ann", "Ann (bot)", 3, False))
    assert said == line("net.went_on", lang, bot="Ann (bot)", record="")
    assert "Ann (bot)" in said


def test_a_seat_given_back_to_its_player_loses_the_bots_mark() -> None:
    """Bob's seat went to "Bob (bot)" and came back to Bob (§16.1): Ann's page no longer marks
    it as a bot's seat whose score was carried over (`replaced` feeds the badge and the mark)."""
    ui = WebUI(Hub(), "en", SimpleNamespace(publish=lambda: None))  # type: ignore[arg-type]
    ui.events([SeatReplaced(1, "Bob", "Bob (bot)", 3, False)], ["Ann", "Bob (bot)"], 0)
    assert ui.progress.replaced == {1: "Bob"}
    ui.events([SeatReplaced(1, "Bob (bot)", "Bob", 5, True)], ["Ann", "Bob"], 0)
    assert ui.progress.replaced == {}
    assert ui.progress.went_on == ""
