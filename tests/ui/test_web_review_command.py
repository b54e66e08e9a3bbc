"""The page's "review" command (issue 27's *Review this hand*): checked where it comes in, run
off the event loop for the player's own seat only, "working" until its rows come, and the rows
name the hand's known mistake, marked, in English and Russian."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import trio

from p2p_dominoes.session import Identity
from p2p_dominoes.session.hand_messages import MAX_HANDS
from p2p_dominoes.ui.web import Hub, PlayController
from p2p_dominoes.ui.web.page_commands import Problem, check_review
from p2p_dominoes.ui.web.page_review import review_snapshot
from p2p_dominoes.ui.web.refusals import refusal
from p2p_dominoes.ui.web.web_ui import WebUI
from tests.bots.test_review import _blundered_hand

IDENTITY = Identity.generate()


def test_a_review_command_names_a_hand_and_nothing_else() -> None:
    assert check_review({"type": "review", "hand": 1}) == 1
    assert check_review({"type": "review", "hand": MAX_HANDS}) == MAX_HANDS
    for bad in (
        {"type": "review"},
        {"type": "review", "hand": 0},
        {"type": "review", "hand": MAX_HANDS + 1},
        {"type": "review", "hand": True},
        {"type": "review", "hand": "1"},
        {"type": "review", "hand": 1.0},
        {"type": "review", "hand": 1, "seat": 1},  # never another seat's review
    ):
        assert check_review(bad) == Problem("review"), bad


def test_the_review_runs_off_the_loop_for_the_own_seat_and_marks_the_mistake() -> None:
    record, blunder = _blundered_hand()
    names = ("Ann", "Bob")

    async def main() -> tuple[list[str], Any]:
        hub = Hub()
        page = hub.subscribe("test")
        controller = PlayController(IDENTITY, "Ann", "en", hub, mdns=False)
        refused: list[str] = []

        async def send(command: dict[str, Any], nursery: trio.Nursery) -> None:
            await controller._command(command, nursery)

        async with trio.open_nursery() as nursery:
            await send({"type": "review", "hand": 1}, nursery)  # no table: nothing to review
            ui = WebUI(hub, "en", controller)
            controller.ui = ui
            ui.session = SimpleNamespace(seat=0)  # type: ignore[assignment]
            ui.names = names
            await send({"type": "review", "hand": 1}, nursery)  # no hand has ended yet
            ui.progress.last_record, ui.progress.last_hand_number = record, 1
            await send({"type": "review", "hand": 2}, nursery)  # not the hand that ended
            await send({"type": "review", "hand": 1}, nursery)
            review = ui.progress.review
            assert review is not None and review.seat == 0 and review.rows is None
            working = review_snapshot(review, 1, "en", names)
            assert working is not None and working["working"] and not working["rows"]
            await send({"type": "review", "hand": 1}, nursery)  # once at a time
            while review.rows is None:  # the loop runs on while the thread searches
                message = await page.receive()
                if message["type"] == "refused":
                    refused.append(message["text"])
            assert not review.failed
        while True:
            try:
                message = page.receive_nowait()
            except trio.WouldBlock:
                break
            if message["type"] == "refused":
                refused.append(message["text"])
        return refused, review

    refused, review = trio.run(main)
    no_review, reviewing = refusal("no_review", "en"), refusal("reviewing", "en")
    assert refused == [no_review, no_review, no_review, reviewing]
    assert review.rows and all(row.seat == 0 for row in review.rows)
    for lang, title, point in (("en", "Review of Ann", "."), ("ru", "Разбор ходов (Ann)", ",")):
        shown = review_snapshot(review, 1, lang, names)
        assert shown is not None and not shown["working"] and shown["title"].startswith(title)
        mistake = next(row for row in shown["rows"] if row["index"] == blunder)
        assert mistake["costly"] and mistake["best"] is not None
        assert point in mistake["points"] and float(mistake["points"].replace(",", ".")) > 0
        assert 1 <= sum(row["costly"] for row in shown["rows"]) <= 3
        assert shown["total"]
    assert review_snapshot(review, 2, "en", names) is None  # another hand's summary: no review
