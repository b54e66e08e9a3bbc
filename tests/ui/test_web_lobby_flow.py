"""The lobby as a person meets it, over a real `play` peer's socket: a join of a host that does
not answer shows its progress and can be cancelled (the lobby is free again at once, not after
the dial's patience); the host's waiting room can be closed; a wrong setting is one clear line
in the player's language, kept in the lobby's state; every bot strategy is offered."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from p2p_dominoes.bots import BOTS
from tests.ports import unallocated_port
from tests.ui.web_peers import PlayProcess


@pytest.fixture
def ann(tmp_path: Path) -> Iterator[PlayProcess]:
    peer = PlayProcess("Ann", tmp_path / "ann")
    yield peer
    peer.stop()


def test_joining_a_silent_host_shows_progress_and_cancels(ann: PlayProcess) -> None:
    page = ann.page()
    page.wait_for(lambda p: p.lobby)
    nobody = f"127.0.0.1:{unallocated_port()}"  # nothing listens there
    page.send({"type": "join", "address": nobody})
    joining = page.wait_for(lambda p: p.lobby.get("joining") and p.lobby)["joining"]
    assert joining["address"] == nobody and joining["seconds"] >= 0
    page.wait_for(lambda p: (p.lobby.get("joining") or {}).get("line", "").startswith("Dialling"))
    page.send({"type": "cancel"})
    free = page.wait_for(lambda p: not p.lobby.get("busy") and p.lobby)
    assert free["joining"] is None and free["screen"] == "lobby"
    assert "Cancelled." in free["lines"]
    assert not any("gave up" in line for line in free["lines"])  # cancelled, not timed out
    page.send({"type": "cancel"})  # nothing left to cancel: one line, nothing else happens
    page.wait_for(lambda p: p.refusals())
    assert page.refusals() == ["Nothing to cancel: no table is being opened or joined."]


def test_the_host_closes_its_waiting_room(ann: PlayProcess) -> None:
    page = ann.page()
    page.wait_for(lambda p: p.lobby)
    page.send({"type": "host", "table": "Soon", "rules": "draw", "players": 3, "bots": 1})
    room = page.wait_for(
        lambda p: (p.lobby.get("host_lobby") or {}).get("seats", [])[1:] and p.lobby
    )["host_lobby"]
    assert room["players"] == 3 and [s["bot"] for s in room["seats"]] == [False, True]
    with socket.create_connection(("127.0.0.1", ann.lan_port), timeout=5):
        pass  # the table listens for players
    page.send({"type": "cancel"})
    closed = page.wait_for(lambda p: not p.lobby.get("busy") and p.lobby)
    assert closed["host_lobby"] is None and "Cancelled." in closed["lines"]
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", ann.lan_port), timeout=5)
    page.send({"type": "host", "table": "Again", "rules": "draw", "players": 2})
    page.wait_for(lambda p: p.lobby.get("host_lobby"))  # the lobby is free for a new table


@pytest.mark.parametrize(
    ("command", "field", "english"),
    [
        ({"players": 7}, "players", "A table has 2 to 4 players."),
        ({"players": 3, "bots": 3}, "bots", "Bots: from 0 to one fewer than the players (2)."),
        ({"players": 2, "bot": "genius"}, "bot", "Choose one of the listed bots."),
        ({"players": 3, "bots": 2, "bot": ["greedy"]}, "bot", "Choose one of the listed bots."),
        (
            {"players": 3, "bots": 2, "bot": ["greedy", "genius"]},
            "bot",
            "Choose one of the listed bots.",
        ),
        ({"players": 2, "rules": "chess"}, "rules", "Choose one of the listed rules."),
    ],
)
def test_a_wrong_setting_is_one_line_naming_its_field(
    ann: PlayProcess, command: dict[str, object], field: str, english: str
) -> None:
    page = ann.page()
    page.wait_for(lambda p: p.lobby)
    assert sorted(page.lobby["bot_strategies"]) == sorted(BOTS)
    assert page.lobby["bot_strategies"][:6] == [
        "random",
        "greedy",
        "easy",
        "medium",
        "hard",
        "expert",
    ]
    page.send({"type": "host", **command})
    shown = page.wait_for(lambda p: p.lobby.get("error") and p.lobby)
    assert shown["error"] == {"text": english, "field": field}
    assert page.refusals() == [english] and not shown["busy"]


def test_a_malformed_address_is_refused_in_russian(tmp_path: Path) -> None:
    anna = PlayProcess("Анна", tmp_path / "anna", lang="ru")
    try:
        page = anna.page()
        page.wait_for(lambda p: p.lobby)
        page.send({"type": "join", "address": "no port here"})
        error = page.wait_for(lambda p: p.lobby.get("error"))
        assert error == {"text": "Укажите адрес в виде АДРЕС:ПОРТ.", "field": "address"}
        page.send({"type": "host", "players": 2, "hands": 0})
        page.wait_for(lambda p: p.lobby["error"]["field"] == "hands")
        assert page.lobby["error"]["text"].startswith("Партий: целое число от 1 до ")
    finally:
        anna.stop()
