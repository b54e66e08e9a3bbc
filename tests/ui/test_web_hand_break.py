"""Between hands a person's peer pauses: the final board and the summary stay, and the next hand
is dealt when the player sends "next_hand" or the countdown runs out (`play --next-hand-after`).
A `play` peer and its greedy bot seat over real sockets; the bot never waits."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.ui.web_peers import PageDriver, PlayProcess, State

TABLE = {"type": "host", "table": "Pause", "rules": "block", "players": 2, "bots": 1}
"""Block: no drawing, so no hand scores the 100 points that would end the match after one."""


@pytest.fixture
def ann(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[PlayProcess]:
    peer = PlayProcess("Ann", tmp_path / "ann", "--next-hand-after", str(request.param))
    yield peer
    peer.stop()


def _paused(page: PageDriver) -> State | None:
    table = page.table
    pause = table.get("next_hand")
    return table if pause and pause["number"] == 2 and not pause["ready"] else None


def _dealt(page: PageDriver) -> State | None:
    table = page.table
    return table if table.get("hand_number") == 2 and table.get("hand") else None


def _host(ann: PlayProcess) -> PageDriver:
    page = ann.page()
    page.wait_for(lambda p: p.lobby)
    page.send({**TABLE, "bot": "greedy", "hands": 2})
    return page


@pytest.mark.parametrize("ann", [60], indirect=True)
def test_the_next_hand_waits_for_next_hand_and_the_final_board_stays(ann: PlayProcess) -> None:
    page = _host(ann)
    paused = page.wait_for(_paused)
    assert paused["end"]["hand_number"] == 1  # the summary of hand 1
    words = paused["end"]["words"]  # "Ann went out: bot-1's 12 = 12 to Ann." or the like
    assert words.startswith(("Ann went out", "bot-1 went out", "Blocked")) and " = " in words
    assert paused["final_board"] is True and paused["line"]  # the last board, not wiped
    assert paused["hand"] == [] and paused["phase"] == "commit"
    assert 0 < paused["next_hand"]["seconds_left"] <= 60
    # The countdown goes on while the table holds: a later state, still no tiles dealt.
    later = page.wait_for(
        lambda p: (
            _paused(p)
            and p.table["next_hand"]["seconds_left"] < paused["next_hand"]["seconds_left"]
            and p.table
        )
    )
    assert later["hand"] == [] and later["line"] == paused["line"]
    assert later["waiting"] is None  # the bot waits for us, not we for it
    page.send({"type": "next_hand"})
    dealt = page.wait_for(_dealt)
    assert dealt["next_hand"] is None and not dealt.get("final_board")
    over = page.wait_for(lambda p: p.table.get("match", {}).get("over") and p.table)
    assert len(over["history"]) == 2
    assert not page.refusals()


@pytest.mark.parametrize("ann", [1], indirect=True)
def test_the_countdown_starts_the_next_hand_by_itself(ann: PlayProcess) -> None:
    page = _host(ann)
    page.wait_for(_paused)
    page.wait_for(_dealt)  # nobody sent "next_hand"
    assert {"type": "next_hand"} not in page.sent
    page.wait_for(lambda p: p.table.get("match", {}).get("over"))
    assert not page.refusals()


def test_the_next_hand_starts_once_every_person_is_ready(tmp_path: Path) -> None:
    ann = PlayProcess("Ann", tmp_path / "ann", "--next-hand-after", "60")
    bob = PlayProcess("Bob", tmp_path / "bob", "--next-hand-after", "60")
    try:
        ann_page, bob_page = ann.page(), bob.page()
        ann_page.wait_for(lambda p: p.lobby)
        ann_page.send({**TABLE, "bots": 0, "hands": 2})
        ann_page.wait_for(lambda p: p.lobby.get("host_lobby"))
        bob_page.send({"type": "join", "address": f"127.0.0.1:{ann.lan_port}"})
        ann_page.wait_for(_paused)
        bob_page.wait_for(_paused)
        bob_page.send({"type": "next_hand"})  # Bob is ready; Ann (seat 0, who begins) is not
        waiting = bob_page.wait_for(
            lambda p: (p.table.get("waiting") or {}).get("name") == "Ann" and p.table
        )
        assert waiting["next_hand"] == {"number": 2, "seconds_left": 0, "ready": True}
        assert waiting["hand"] == [] and ann_page.table["hand"] == []
        assert _paused(ann_page) is not None
        ann_page.send({"type": "next_hand"})
        bob_page.wait_for(_dealt)
        ann_page.wait_for(_dealt)
        for page in (ann_page, bob_page):
            page.wait_for(lambda p: p.table.get("match", {}).get("over"))
            assert not page.refusals()
    finally:
        ann.stop()
        bob.stop()
