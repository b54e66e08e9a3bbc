"""A `play` peer killed mid-hand (with the bot it started) and started again on the same data
directory: its lobby lists the unfinished table by id, and the page's resume command for that
id takes the table up again and plays it to the end."""

from __future__ import annotations

from pathlib import Path

from tests.ui.web_peers import PlayProcess

TABLE = {"type": "host", "table": "Comeback", "rules": "block", "players": 2, "bots": 1}


def test_a_killed_play_resumes_its_table_from_the_page(tmp_path: Path) -> None:
    data = tmp_path / "ann"
    first = PlayProcess("Ann", data)
    try:
        page = first.page(autoplay=False)
        page.wait_for(lambda p: p.lobby)
        assert page.lobby["unfinished_tables"] == []
        page.send({**TABLE, "hands": 1})
        page.wait_for(lambda p: p.table.get("phase") == "turns")
    finally:
        first.kill()
    again = PlayProcess("Ann", data, "--next-hand-after", "0")
    try:
        page = again.page()
        lobby = page.wait_for(lambda p: p.lobby.get("unfinished_tables") and p.lobby)
        [row] = lobby["unfinished_tables"]
        assert row["name"] == "Comeback" and row["seat"] == 1 and len(row["id"]) == 32
        assert lobby["unfinished"] == row
        page.send({"type": "resume", "table": "0" * 32})  # not one of ours: refused
        page.wait_for(lambda p: p.refusals())
        assert page.refusals() == ["That unfinished table is not here (any more)."]
        page.send({"type": "resume", "table": row["id"]})
        over = page.wait_for(lambda p: p.table.get("match", {}).get("over") and p.table, 90)
        assert over["names"][0] == "Ann" and len(over["history"]) == 1
        back = page.wait_for(lambda p: p.table.get("busy") is False and p.table, 30)
        assert back["stopped"] is None  # a whole match, not a stop
        page.send({"type": "lobby"})
        page.wait_for(lambda p: p.lobby.get("unfinished_tables") == [] and not p.lobby["busy"])
    finally:
        again.stop()
