"""The page of a peer whose seat the table went on without (v4, PROTOCOL.md §16) says so in
its language: when another seat said it was gone (a goodbye in its name), and when a new holder
took the seat. (The page offers the record itself, so the line names no file.)"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from p2p_dominoes.net import ComingBack
from p2p_dominoes.net.take_seat import replayed
from p2p_dominoes.session.events import Event, HandAbandoned, SeatReplaced
from p2p_dominoes.ui.web import Hub
from p2p_dominoes.ui.web.score_words import seat_scores
from p2p_dominoes.ui.web.snapshot import stopped_json
from p2p_dominoes.ui.web.web_ui import WebUI
from p2p_dominoes.words import line
from tests.session.tables import play_table


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


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_returners_page_says_it_asks_for_its_seat_back_until_it_does_not_get_it(
    lang: str,
) -> None:
    """Ann resumed (§16.1): while her peer asks for the seat a bot took, her page says so; once
    the peer did not get it back, the page says the table went on without her."""
    ui = WebUI(Hub(), lang, SimpleNamespace(publish=lambda: None))  # type: ignore[arg-type]
    ui.comes_back(ComingBack.MAY_ASK)
    ui.events([SeatReplaced(0, "Ann", "Ann (bot)", 3, False)], ["Ann (bot)", "Bob"], 0)
    asking = stopped_json(None, ui.progress, ["Ann (bot)", "Bob"], lang)
    assert asking is not None and asking["reason"] == "asking_back"
    assert asking["text"] == line("net.asking_back", lang)
    ui.comes_back(ComingBack.ASKING)
    assert stopped_json(None, ui.progress, ["Ann (bot)", "Bob"], lang) == asking
    ui.comes_back(ComingBack.NOT_BACK)
    went_on = stopped_json(None, ui.progress, ["Ann (bot)", "Bob"], lang)
    assert went_on is not None and went_on["reason"] == "went_on"
    assert went_on["text"] == line("net.went_on", lang, bot="Ann (bot)", record="")


def test_a_returners_page_says_it_asks_even_when_its_session_never_saw_the_seat_go() -> None:
    """The records parted where Ann left (a message of hers the others never got): her session
    never sees the goodbye or the bot, only her peer does; as it asks, her page says so."""
    ui = WebUI(Hub(), "en", SimpleNamespace(publish=lambda: None))  # type: ignore[arg-type]
    ui.comes_back(ComingBack.MAY_ASK)
    assert stopped_json(None, ui.progress, ["Ann", "Bob"], "en") is None
    ui.comes_back(ComingBack.ASKING)
    asking = stopped_json(None, ui.progress, ["Ann", "Bob"], "en")
    assert asking is not None and asking["reason"] == "asking_back"
    ui.comes_back(ComingBack.NOT_BACK)  # and when the peer did not get it back, it says so
    went_on = stopped_json(None, ui.progress, ["Ann", "Bob"], "en")
    assert went_on is not None and went_on["reason"] == "went_on"
    assert went_on["text"] == line("net.not_given_back", "en")


def test_a_page_seated_in_the_middle_of_a_match_shows_every_hand_so_far() -> None:
    """A page seated on a session that already holds audited hands (a resumed table, a seat
    taken back, §16.1) shows them all in its score history and Kozel's sheet, as a page seated
    from the start does."""
    played = play_table("kozel", 4, hands=2, seed=8)
    ended = played.hands_ended()
    assert len(ended) == 2
    messages = [entry.encoded for entry in played.sessions[0].transcript.entries]
    follower = replayed(messages)
    controller = SimpleNamespace(publish=lambda: None, screen="lobby", joining=None)
    ui = WebUI(Hub(), "en", controller)  # type: ignore[arg-type]
    ui.seated(follower, follower.names)
    rules = follower.rules
    assert ui.progress.history == [seat_scores(rules, e.scores, 4) for e in ended]
    assert [(row.number, row.totals) for row in ui.progress.sheet] == [
        (e.number, e.scores) for e in ended
    ]
