"""Presence on the page, between real `play` peers: whom the table waits for and since when, who
is thinking, a player whose peer died shown away with a countdown before the stall timeout,
the stop that follows with its next steps, and the dead player's own page told at once."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from p2p_dominoes.net.going_on import STOP_ON_STALL
from tests.ui.web_peers import PageDriver, PlayProcess, State, seat_of

TABLE = {"type": "host", "table": "Presence", "rules": "draw", "players": 2, "hands": 1}


@pytest.fixture
def ann_and_bob(tmp_path: Path) -> Iterator[tuple[PlayProcess, PlayProcess]]:
    # The §15 verdict on the page: since v4 a person's peer asks whether to go on without a
    # seat that stalled (issue 29, tests/ui/browser/test_leave_table.py); the test hook keeps
    # these peers on the verdict's path.
    env = {STOP_ON_STALL: "1"}
    ann = PlayProcess("Ann", tmp_path / "ann", env=env)
    bob = PlayProcess("Bob", tmp_path / "bob", env=env)
    yield ann, bob
    ann.stop()
    bob.stop()


def _seat_bob(
    ann: PlayProcess, bob: PlayProcess, **settings: object
) -> tuple[PageDriver, PageDriver]:
    """Ann hosts a two-seat table and plays her turns; Bob joins and never moves."""
    ann_page, bob_page = ann.page(), bob.page(autoplay=False)
    ann_page.wait_for(lambda p: p.lobby)
    ann_page.send({**TABLE, **settings})
    ann_page.wait_for(lambda p: p.lobby.get("host_lobby"))
    bob_page.send({"type": "join", "address": f"127.0.0.1:{ann.lan_port}"})
    return ann_page, bob_page


def _bobs_turn(page: PageDriver) -> State | None:
    table = page.table
    return table if table.get("turn") == 1 and table.get("phase") == "turns" else None


def test_the_page_names_whom_the_table_waits_for_and_since_when(
    ann_and_bob: tuple[PlayProcess, PlayProcess],
) -> None:
    ann, bob = ann_and_bob
    ann_page, bob_page = _seat_bob(ann, bob)
    ann_page.wait_for(_bobs_turn)
    first = ann_page.wait_for(lambda p: _bobs_turn(p) and p.table.get("waiting") and p.table)
    assert first["waiting"]["name"] == "Bob" and first["waiting"]["seat"] == 1
    assert first["waiting"]["seconds"] >= 2
    later = ann_page.wait_for(
        lambda p: (
            (p.table.get("waiting") or {}).get("seconds", 0) > first["waiting"]["seconds"]
            and p.table
        )
    )
    assert later["waiting"]["name"] == "Bob"  # still Bob, for longer: the count goes on
    me, other = later["presence"]
    assert me == {
        "seat": 0,
        "state": "me",
        "away_seconds": None,
        "turn_seconds": None,
        "page": None,
        "page_seconds": None,
        "bot": None,
    }
    assert other["state"] == "connected" and other["away_seconds"] is None
    assert other["turn_seconds"] is not None and other["turn_seconds"] >= 2  # Bob is thinking
    assert later["stall_warning"] is None  # 180 s is far away
    # On Bob's own page it is his turn: nobody is waited for, and he is the one thinking.
    mine = bob_page.wait_for(
        lambda p: p.table.get("turn") == 1 and p.table.get("presence") and p.table
    )
    assert mine["waiting"] is None
    assert mine["presence"][1]["state"] == "me"
    assert mine["presence"][1]["turn_seconds"] is not None
    assert mine["presence"][0]["turn_seconds"] is None
    # The page hears from its peer even when nothing happens at the table.
    bob_page.wait_for(lambda p: any(m["type"] == "heartbeat" for m in p.messages), 15)


def test_a_lost_player_is_shown_away_with_a_countdown_then_the_table_stops(
    ann_and_bob: tuple[PlayProcess, PlayProcess],
) -> None:
    ann, bob = ann_and_bob
    ann_page, bob_page = _seat_bob(ann, bob, stall_timeout=12)
    ann_page.wait_for(_bobs_turn)
    bob.kill()
    bob_page.wait_for(lambda p: p.closed)  # Bob's own page knows at once: its socket closed
    away = ann_page.wait_for(
        lambda p: (p.table.get("presence") or [{}, {}])[1].get("state") == "away" and p.table
    )
    assert away["presence"][1]["away_seconds"] is not None
    warned = ann_page.wait_for(lambda p: p.table.get("stall_warning") and p.table)
    warning = warned["stall_warning"]
    assert warning["seat"] == 1 and warning["name"] == "Bob" and warning["away"] is True
    assert 0 <= warning["seconds_left"] <= 6  # half of the 12 s timeout
    assert warning["text"] == (
        f"Bob has {warning['seconds_left']} s to come back before the table stops."
    )
    stopped = ann_page.wait_for(lambda p: p.table.get("stopped") and p.table)["stopped"]
    assert stopped["reason"] == "stall" and stopped["name"] == "Bob"
    # The sentence every peer shows (net/verdict.py): what Bob had to do, in players' words.
    said = "The table stopped: Bob is not responding — it was Bob's turn to play."
    assert stopped["text"] == said
    assert stopped["next"][:2] == ["lobby", "record"]
    # The next steps work: the record downloads, and the lobby comes back.
    ann_page.send({"type": "record"})
    record = ann_page.wait_for(lambda p: [m for m in p.messages if m["type"] == "record"])
    assert record[0]["name"].endswith(".p2pd")
    ann_page.send({"type": "lobby"})
    ann_page.wait_for(lambda p: p.messages[-1].get("screen") == "lobby")


def test_a_player_who_does_not_move_is_warned_on_their_own_page(tmp_path: Path) -> None:
    ann = PlayProcess("Ann", tmp_path / "ann")
    try:
        page = ann.page(autoplay=False)
        page.wait_for(lambda p: p.lobby)
        page.send({**TABLE, "bots": 1, "stall_timeout": 12})
        page.wait_for(lambda p: p.table.get("move") is not None)  # Ann's turn; she waits
        warning = page.wait_for(lambda p: p.table.get("stall_warning"))
        assert warning["me"] is True and warning["seat"] == page.table["seat"]
        assert 0 <= warning["seconds_left"] <= 6
        assert warning["text"] == (
            f"You have {warning['seconds_left']} s to move before the table stops for everyone."
        )
    finally:
        ann.stop()


def _page_of(page: PageDriver, seat: int) -> State:
    presence = page.table.get("presence") or []
    return presence[seat] if len(presence) > seat else {}


def test_a_closed_page_alone_shows_its_player_away_until_it_opens_again(
    ann_and_bob: tuple[PlayProcess, PlayProcess],
) -> None:
    """Bob's `play` stays up, only his page closes: the others' peers hear it (PROTOCOL.md §14)
    and Ann's page shows him away, page closed, in his seat and in the waiting notice, warns
    that he has to come back, and shows him back once his page opens again. Her bot has no
    page; her own seat says nothing of hers."""
    ann, bob = ann_and_bob
    ann_page, bob_page = _seat_bob(ann, bob, players=3, bots=1, stall_timeout=30)
    seated = ann_page.wait_for(lambda p: p.table.get("names") and p.table)
    bob_seat, bot_seat = seat_of(seated, "Bob"), seat_of(seated, "bot-1")
    ann_page.wait_for(lambda p: _page_of(p, bob_seat).get("page") == "open")
    ann_page.wait_for(lambda p: _page_of(p, bot_seat).get("page") == "none")
    assert _page_of(ann_page, 0)["page"] is None  # our own seat: "me"
    ann_page.wait_for(lambda p: p.table.get("turn") == bob_seat)
    assert bob_page.wait_for(lambda p: p.table.get("move") is not None)  # asked, never answers

    bob_page.close()
    closed = ann_page.wait_for(
        lambda p: _page_of(p, bob_seat).get("page") == "closed" and p.table, 30
    )
    seat = closed["presence"][bob_seat]
    assert seat["state"] == "connected" and seat["page_seconds"] is not None
    waiting = ann_page.wait_for(lambda p: (p.table.get("waiting") or {}).get("page_closed"))
    assert waiting is True and ann_page.table["waiting"]["name"] == "Bob"
    # Near the stall timeout (half of 30 s) the warning says he has to come back.
    warning = ann_page.wait_for(lambda p: p.table.get("stall_warning"), 30)
    assert warning["seat"] == bob_seat and warning["away"] is True
    assert warning["text"] == (
        f"Bob has {warning['seconds_left']} s to come back before the table stops."
    )

    bob_again = bob_page.reopen(autoplay=True)  # he comes back, and plays on
    ann_page.wait_for(lambda p: _page_of(p, bob_seat).get("page") == "open", 30)
    bob_again.wait_for(lambda p: p.table.get("match", {}).get("over"), 90)
    assert not ann_page.table.get("stopped")
