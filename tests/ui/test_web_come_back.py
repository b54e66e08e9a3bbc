"""v4 (PROTOCOL.md §16.1) on the page, between real `play` peers: Bob, a page joiner, is killed
in hand 2; Ann says yes to going on, and "Bob (bot)" takes his seat. Bob's `play` starts again on
the same data directory and his page resumes the table: while his peer asks for the seat back,
his page says so (never that the table went on without him); once the seat is his again, his
score history holds the whole match, the hands before he left included, as Ann's does."""

from __future__ import annotations

from pathlib import Path

from p2p_dominoes.net.said import said
from p2p_dominoes.store import save_rule_set
from tests.ui.web_peers import PageDriver, PlayProcess, State

LONG_DRAW = {"base": "draw", "targets": [[2, 1000], [3, 1000], [4, 1000]]}
"""Nobody reaches these targets: the hands end the match, after Bob is back."""
TABLE = {
    "type": "host",
    "table": "Coming back",
    "rules": "long-draw",
    "players": 3,
    "bots": 1,
    "hands": 5,
    "stall_timeout": 10,
}


def bob_killed_and_his_seat_taken(ann: PlayProcess, bob: PlayProcess) -> tuple[PageDriver, int]:
    """Ann hosts `TABLE`, Bob joins from his page; hand 1 is played to its end and Bob is killed
    once hand 2 is dealt; Ann says yes to going on and "Bob (bot)" takes his seat. Ann's page
    (driven over its socket) and Bob's seat."""
    ann_page, bob_page = ann.page(), bob.page()
    ann_page.wait_for(lambda p: p.lobby)
    ann_page.send(TABLE)
    ann_page.wait_for(lambda p: p.lobby.get("host_lobby"))
    bob_page.send({"type": "join", "address": f"127.0.0.1:{ann.lan_port}"})
    seat: int = bob_page.wait_for(lambda p: p.table.get("seat") is not None and p.table)["seat"]
    bob_page.wait_for(
        lambda p: p.table.get("hand_number", 0) >= 2 and p.table.get("phase") == "turns", 120
    )
    bob.kill()
    ann_page.wait_for(lambda p: p.table.get("go_on"), 60)
    ann_page.send({"type": "go_on", "answer": True})
    ann_page.wait_for(lambda p: (p.table.get("names") or [""] * 3)[seat] == "Bob (bot)", 60)
    return ann_page, seat


def _seated_again(page: PageDriver, seat: int) -> State | None:
    """Bob's page once his seat is his again (his name on it, nothing stopped)."""
    table = page.table
    names = table.get("names") or []
    if table.get("seat") == seat and names[seat] == "Bob" and table.get("stopped") is None:
        return table
    return None


def _over(page: PageDriver) -> State | None:
    """The page's table once the match is over."""
    table = page.table
    return table if (table.get("match") or {}).get("over") else None


def _stopped(page: PageDriver, reason: str) -> State | None:
    """The first table state the page got that shows a stop for `reason`, if any."""
    for message in list(page.messages):
        if (
            message.get("screen") == "table"
            and (message.get("stopped") or {}).get("reason") == reason
        ):
            return message
    return None


def test_a_returner_s_page_asks_for_its_seat_then_shows_the_whole_match(
    tmp_path: Path,
) -> None:
    save_rule_set(tmp_path / "ann", "long-draw", LONG_DRAW)
    ann = PlayProcess("Ann", tmp_path / "ann", "--next-hand-after", "0")
    bob = PlayProcess("Bob", tmp_path / "bob", "--next-hand-after", "0")
    again: PlayProcess | None = None
    try:
        ann_page, seat = bob_killed_and_his_seat_taken(ann, bob)
        again = PlayProcess("Bob", tmp_path / "bob", "--next-hand-after", "0")
        back_page = again.page()
        [row] = back_page.wait_for(lambda p: p.lobby.get("unfinished_tables"))
        back_page.send({"type": "resume", "table": row["id"]})
        # While his peer asks for the seat back, his page says so (the seat comes back at the
        # next hand's start: the state may not last, so every state the page got is read).
        asking = back_page.wait_for(lambda p: _stopped(p, "asking_back"), 90)
        assert asking["stopped"]["text"] == said("asking_back", "en")
        back = back_page.wait_for(lambda p: _seated_again(p, seat), 180)
        stops = [(m.get("stopped") or {}).get("reason") for m in back_page.messages]
        assert "went_on" not in stops, stops  # never told the table went on without him
        # His score history is the match's so far: hand 1 (his own), and the bot's hands after
        # it when the bot finished any before the seat came back (on a loaded machine the seat
        # can come back at the first hand the bot would have played: then hand 1 alone).
        history = back["history"]
        assert history, history
        assert ann_page.table["history"][: len(history)] == history
        # And it goes on to the match's end with the hands he plays again (the seat is given
        # back at a hand's start, so he plays at least that one; on a loaded machine it may be
        # the last): both pages end on the same history, the whole match's.
        end = back_page.wait_for(lambda p: _over(p), 180)
        ann_end = ann_page.wait_for(lambda p: _over(p), 60)
        assert end["history"] == ann_end["history"]
        assert len(end["history"]) >= len(history)
    finally:
        bob.kill()
        if again is not None:
            again.stop()
        ann.stop()
