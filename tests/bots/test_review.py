"""A hand's review (bots/review.py, `replay --review`): a known mistake is named and marked."""

from __future__ import annotations

import json
import random
from pathlib import Path

from p2p_dominoes.bots.review import review_hand
from p2p_dominoes.bots.strategies import greedy_bot
from p2p_dominoes.engine import PRESETS, HandState, HandView, Match, Play, placement_points
from p2p_dominoes.engine.record import HandRecord, record_of
from p2p_dominoes.simulation import deal
from p2p_dominoes.ui.review_text import review_lines
from tests.commands.records import run

SAMPLES = 24
"""Enough for a blunder this size; keeps the tests quick."""


def _blundered_hand() -> tuple[HandRecord, int]:
    """A 2-player Fives hand, both seats greedy, except that once seat 0 could score 3 points
    or more with a play it lays a tile that scores nothing instead; then played to its end.
    The record and the blunder's action number."""
    rules = PRESETS["fives"]
    rng = random.Random("review")
    while True:
        match = Match(rules, 2)
        hands, boneyard = deal(rules, 2, rng)
        state: HandState | None = match.start_hand(hands, boneyard, lottery=rng.getrandbits(64))
        if state is None:
            continue
        blunder = None
        while state.result is None:
            seat = state.turn
            view = HandView(state, seat)
            if seat == 0 and blunder is None:
                scores = {p: placement_points(rules, state.line, p) for p in view.legal_plays()}
                nothing = [p for p, points in scores.items() if not points]
                if nothing and max(scores.values()) >= 3:
                    blunder = len(state.history)
                    state.apply(seat, nothing[0])
                    continue
            state.apply(seat, greedy_bot(view, rng))
        if blunder is not None:
            return record_of(state, (0, 0)), blunder


def test_the_review_names_the_points_left_on_the_table() -> None:
    record, blunder = _blundered_hand()
    rows = review_hand(record, 0, SAMPLES)
    assert rows and all(r.seat == 0 for r in rows)
    row = next(r for r in rows if r.index == blunder)
    assert isinstance(row.played, Play) and isinstance(row.best, Play)
    assert row.best.tile != row.played.tile or row.best.place != row.played.place
    assert row.costly and row.chance > 0.02 and row.points > 1
    # The costliest three are marked, and no more; decisions where expert agrees cost nothing.
    assert 1 <= sum(r.costly for r in rows) <= 3
    assert all(r.chance == 0 and r.points == 0 for r in rows if r.played == r.best)
    # The same seed reviews the same way.
    assert review_hand(record, 0, SAMPLES) == rows


def test_the_review_in_words_marks_the_mistake_in_both_languages() -> None:
    record, blunder = _blundered_hand()
    rows = review_hand(record, 0, SAMPLES)
    english = review_lines(rows, 0, SAMPLES, "en")
    marked = [t for t in english if t.startswith(f"{blunder}: seat 1 plays ")]
    assert len(marked) == 1 and "one of the three costliest" in marked[0], english
    russian = review_lines(rows, 0, SAMPLES, "ru")
    marked = [t for t in russian if t.startswith(f"{blunder}: ")]
    assert "одна из трёх самых дорогих ошибок" in marked[0] and "кладёт" in marked[0]
    assert russian[-1].startswith("Всего:")


def test_replay_review_on_the_command_line(tmp_path: Path) -> None:
    record, blunder = _blundered_hand()
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(record.to_dict()))
    out = run("replay", str(path), "--review", "1", "--samples", str(SAMPLES))
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert any(
        t.startswith(f"{blunder}: seat 1 plays ") and "expert: seat 1 plays" in t for t in lines
    )
    assert any(t.startswith("Review of seat 1's decisions") for t in lines)
    as_json = run("replay", str(path), "--review", "1", "--samples", str(SAMPLES), "--json")
    rows = json.loads(as_json.stdout)["review"]["rows"]
    assert [r["costly"] for r in rows if r["index"] == blunder] == [True]
    wrong = run("replay", str(path), "--review", "3")
    assert wrong.returncode == 2 and wrong.stderr.count("\n") == 1 and "1 to 2" in wrong.stderr
