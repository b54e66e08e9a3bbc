"""What the page is told about each move (the last one, the recent ones with serials, where its
tile lies, a drawn tile on the drawer's own page) and the page's choice of language, over a real
`play` peer and its bot."""

from __future__ import annotations

from pathlib import Path

from tests.ui.web_peers import PlayProcess, State

TABLE = {"type": "host", "table": "Moves", "rules": "draw", "players": 2, "bots": 1, "hands": 1}


def _plays(state: State) -> bool:
    action = state.get("last_action")
    return bool(action and action["kind"] == "play" and len(state["line"]) >= 2)


def _my_turn_to_draw(state: State) -> bool:
    controls = state.get("controls") or {}
    return state.get("turn") == state.get("seat") and bool(controls.get("can_draw"))


def test_the_last_move_says_who_played_what_and_where(tmp_path: Path) -> None:
    ann = PlayProcess("Ann", tmp_path / "ann")
    try:
        page = ann.page(autoplay=False)
        page.wait_for(lambda p: p.lobby)
        page.send(TABLE)
        turn = page.wait_for(lambda p: _my_turn_to_draw(p.table) and p.table)
        page.send({"type": "draw"})  # drawing is allowed at any time under these rules
        drew = page.wait_for(
            lambda p: (p.table.get("last_action") or {}).get("kind") == "draw" and p.table
        )["last_action"]
        assert drew["seat"] == turn["seat"] and drew["end"] is None
        assert drew["drawn"] in [t["tile"] for t in page.table["hand"]]  # the new tile, named
        page.autoplay = True  # the next state (the turn clock, every 5 s) plays on
        state = page.wait_for(lambda p: _plays(p.table) and p.table)
        action = state["last_action"]
        line = state["line"]
        placed = line[0] if action["end"] == "left" else line[-1]
        assert action["end"] in ("left", "right") and placed["tile"] == action["tile"]
        assert action["value"] in (placed["left"], placed["right"])
        page.wait_for(lambda p: p.table.get("match", {}).get("over"))
        others = [
            m["last_action"]
            for m in page.messages
            if m.get("screen") == "table"
            and (m.get("last_action") or {}).get("kind") == "draw"
            and m["last_action"]["seat"] != turn["seat"]
        ]
        assert all(draw["drawn"] is None for draw in others)  # the bot's tiles stay hidden
        # Every move of the hand is listed, each once with a serial that grows by one, and the
        # last listed is the last move (a page told two moves at once captions both).
        listed: dict[int, State] = {}
        for message in page.messages:
            if message.get("screen") == "table" and message.get("hand_number") == 1:
                for move in message["recent_actions"]:
                    assert listed.setdefault(move["serial"], move)["tile"] == move["tile"]
                if message["recent_actions"]:
                    last = message["recent_actions"][-1]
                    assert {**last, "serial": 0} == {**message["last_action"], "serial": 0}
        serials = sorted(listed)
        assert serials == list(range(serials[0], serials[0] + len(serials))), serials
        plays = [m for m in listed.values() if m["kind"] == "play"]
        assert len(plays) == len(page.table["line"]) or page.table.get("final_board")
    finally:
        ann.stop()


def test_the_page_chooses_the_language_unless_play_was_given_one(tmp_path: Path) -> None:
    ann = PlayProcess("Ann", tmp_path / "ann", lang=None)
    try:
        page = ann.page()
        lobby = page.wait_for(lambda p: p.lobby)
        assert lobby["lang"] == "en" and lobby["lang_explicit"] is False
        page.send({"type": "lang", "lang": "ru"})
        page.wait_for(lambda p: p.lobby.get("lang") == "ru")
        page.send({"type": "host", "players": 9})
        page.wait_for(lambda p: p.refusals())
        assert page.refusals() == ["За столом от 2 до 4 игроков."]
        page.send({"type": "lang", "lang": "fr"})
        page.wait_for(lambda p: len(p.refusals()) == 2)
        assert page.refusals()[1] == "Команда языка называет «en» или «ru»."
    finally:
        ann.stop()
    anna = PlayProcess("Анна", tmp_path / "anna", lang="ru")
    try:
        lobby = anna.page().wait_for(lambda p: p.lobby)
        assert lobby["lang"] == "ru" and lobby["lang_explicit"] is True
    finally:
        anna.stop()


def test_fast_clicks_on_draw_draw_one_tile(tmp_path: Path) -> None:
    ann = PlayProcess("Ann", tmp_path / "ann")
    try:
        page = ann.page(autoplay=False)
        page.wait_for(lambda p: p.lobby)
        page.send(TABLE)
        turn = page.wait_for(lambda p: _my_turn_to_draw(p.table) and p.table["move"] and p.table)
        for _ in range(4):  # four clicks before the page hears anything back
            page.send({"type": "draw", "move": turn["move"]})
        after = page.wait_for(
            lambda p: p.table.get("move") not in (None, turn["move"]) and p.table
        )  # asked again: the draw is done
        assert len(after["hand"]) == len(turn["hand"]) + 1
        assert after["boneyard"] == turn["boneyard"] - 1
        assert after["move"] == turn["move"] + 1
        page.send({"type": "draw", "move": turn["move"]})  # a late click for the old ask
        page.send({"type": "pass", "move": after["move"] + 5})  # and one for no ask at all
        page.send({"type": "draw", "move": after["move"]})
        again = page.wait_for(
            lambda p: p.table.get("move") not in (None, after["move"]) and p.table
        )
        assert len(again["hand"]) == len(after["hand"]) + 1  # one more: the current ask's
        assert not page.refusals()
    finally:
        ann.stop()
