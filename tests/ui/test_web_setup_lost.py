"""A page that joined a table whose host is lost while the genesis is being signed goes back to
the lobby, whose lines say in one line that the table never started (`net/setup_lost.py`).

The joiner is the `play` peer behind the page, started with the test hook that pauses it before
it signs the genesis (`P2P_DOMINOES_TEST_PAUSE_BEFORE_GENESIS_SIGN`); the host, a terminal peer,
is killed in that pause.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from p2p_dominoes.net.setup_lost import PAUSE_BEFORE_SIGNING, SETUP_LOST_GRACE
from tests.chaos.peers import Peer, wait_until
from tests.ui.web_peers import PlayProcess

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
