"""A page that joined a table whose host is lost while the genesis is being signed goes back to
the lobby, whose lines say in one line that the table never started (`net/setup_lost.py`).

The joiner is the `play` peer behind the page, started with the test hook that pauses it before
it signs the genesis (`P2P_DOMINOES_TEST_PAUSE_BEFORE_GENESIS_SIGN`); the host, a terminal peer,
is killed in that pause.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from p2p_dominoes.net.setup_lost import PAUSE_BEFORE_SIGNING, SETUP_LOST_GRACE
from tests.chaos.peers import Peer, wait_until
from tests.ui.web_peers import PageDriver, PlayProcess

LOST = "The table never started: the host host was lost while the table was being set up."


def test_a_page_whose_host_is_lost_during_the_setup_returns_to_the_lobby(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    host, other = Peer("host", tmp_path, "127.0.0.1"), Peer("j2", tmp_path, "127.0.0.1")
    # Ann (seat 2 of 3) waits longer than a joiner's grace for a lost host before she signs, so
    # the table cannot start without the host: j2's signature never comes (j2 gives up first).
    monkeypatch.setenv(PAUSE_BEFORE_SIGNING, str(SETUP_LOST_GRACE + 3))  # `play` inherits it
    other.env[PAUSE_BEFORE_SIGNING] = ""  # j2 does not pause
    ann = PlayProcess("Ann", tmp_path / "ann")
    try:
        host.host(3, 1)
        assert wait_until(lambda: host.port() is not None or not host.alive, 20), host.output()
        page = ann.page()
        page.wait_for(lambda p: p.lobby)
        page.send({"type": "join", "address": f"127.0.0.1:{host.port()}"})
        assert wait_until(lambda: "took a seat (2 of 3)" in host.output(), 20), host.output()
        other.join("127.0.0.1", host.port() or 0)
        page.wait_for(lambda p: any("test hook: pausing" in line for line in p.lobby["lines"]))
        host.kill()
        page.wait_for(lambda p: p.table, 30)  # she sits down once the pause is over
        lobby = page.wait_for(
            lambda p: p.messages[-1].get("screen") == "lobby" and not p.lobby["busy"] and p, 30
        ).lobby
        assert LOST in lobby["lines"], lobby["lines"]
        assert ann.process.poll() is None  # the page's peer goes on, in its lobby
        assert other.wait(30) == 3, other.all_output()
    finally:
        ann.stop()
        for peer in (host, other):
            if peer.alive:
                peer.kill()


def test_the_hosts_page_shows_a_seat_lost_during_the_setup_free_again(tmp_path: Path) -> None:
    """Ann hosts on her page; Bob, paused before signing the genesis, is killed: seconds after
    the setup's grace her page is back in the lobby with Bob's seat free (j1 kept), a new joiner
    takes it, and the match on a fresh genesis ends for everyone."""
    first, bob, newcomer = (Peer(label, tmp_path, "127.0.0.1") for label in ("j1", "bob", "j3"))
    bob.env[PAUSE_BEFORE_SIGNING] = "120"
    ann = PlayProcess("Ann", tmp_path / "ann")
    try:
        page = ann.page()
        page.wait_for(lambda p: p.lobby)
        page.send({"type": "host", "table": "Kitchen", "rules": "block", "players": 3, "hands": 1})
        page.wait_for(lambda p: p.lobby.get("host_lobby"))
        first.join("127.0.0.1", ann.lan_port)
        page.wait_for(lambda p: len(p.lobby["host_lobby"]["seats"]) == 2)
        bob.join("127.0.0.1", ann.lan_port)
        assert wait_until(lambda: "test hook: pausing" in bob.output(), 30), bob.all_output()
        page.wait_for(lambda p: p.table, 30)  # the genesis is being signed
        bob.kill()
        killed = time.monotonic()

        def seat_freed(p: PageDriver) -> object:
            desk = p.messages[-1].get("host_lobby") or {}
            names = [s["name"] for s in desk.get("seats", [])]
            return p.messages[-1].get("screen") == "lobby" and names == ["Ann", "j1"]

        page.wait_for(seat_freed, SETUP_LOST_GRACE + 10)
        freed_after = time.monotonic() - killed
        assert any("seat 3 is free again" in line for line in page.lobby["lines"])
        newcomer.join("127.0.0.1", ann.lan_port)
        page.wait_for(lambda p: p.table.get("match", {}).get("over"), 120)
        assert {p.label: p.wait(60) for p in (first, newcomer)} == {"j1": 0, "j3": 0}
        assert sorted(page.table["names"]) == ["Ann", "j1", "j3"]
        print(f"\n  the host's page showed the seat free {freed_after:.2f} s after kill -9")
    finally:
        ann.stop()
        for peer in (first, bob, newcomer):
            if peer.alive:
                peer.kill()
