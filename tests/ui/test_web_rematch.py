"""A rematch keeps the seats: after a whole match the host's page reopens the table and the
joiner's page dials the same host again; the joiner is seated without the host being asked."""

from __future__ import annotations

from pathlib import Path

from tests.ui.web_peers import PageDriver, PlayProcess

TABLE = {"type": "host", "table": "Again", "rules": "block", "players": 2, "hands": 1}


def _over(page: PageDriver) -> bool:
    return bool(page.table.get("match", {}).get("over") and page.table.get("rematch"))


def test_a_rematch_seats_the_same_players_without_asking(tmp_path: Path) -> None:
    ann = PlayProcess("Ann", tmp_path / "ann")
    bob = PlayProcess("Bob", tmp_path / "bob")
    try:
        ann_page, bob_page = ann.page(), bob.page()
        ann_page.wait_for(lambda p: p.lobby)
        ann_page.send({"type": "rematch"})  # nothing to rematch yet
        ann_page.wait_for(lambda p: p.refusals())
        assert ann_page.refusals() == ["A rematch is offered once a whole match is over."]
        ann_page.send(TABLE)
        ann_page.wait_for(lambda p: p.lobby.get("host_lobby"))
        bob_page.send({"type": "join", "address": f"127.0.0.1:{ann.lan_port}"})
        first = ann_page.wait_for(lambda p: _over(p) and p.table)
        assert first["rematch"] == {"role": "host", "seats": ["Ann", "Bob"]}
        assert bob_page.wait_for(lambda p: _over(p) and p.table)["rematch"]["role"] == "join"
        ann_page.approve = False  # from now on only the rematch may seat anyone
        bob_page.send({"type": "rematch"})  # Bob first: his peer dials until Ann reopens
        bob_page.wait_for(lambda p: p.lobby.get("joining"))
        ann_page.send({"type": "rematch"})
        second = ann_page.wait_for(
            lambda p: (
                p.table.get("code") != first["code"] and p.table.get("phase") == "turns" and p.table
            )
        )
        assert sorted(second["names"]) == ["Ann", "Bob"]
        assert not [c for c in ann_page.sent if c["type"] == "approve"][1:]  # one, at table 1
        for page in (ann_page, bob_page):
            page.wait_for(lambda p: _over(p) and p.table["code"] != first["code"])
    finally:
        ann.stop()
        bob.stop()
