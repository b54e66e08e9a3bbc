"""Scores for the page: each seat's total, what a move scored (the flash), and the end of a
hand and of a match in words and numbers (the summary the page shows between hands).

Apart from `snapshot.py` because it is its own question: how a hand's points came about, said
so a player can check them (the plain pip sum with names, or the engine's sentence where the
points are not that sum).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from p2p_dominoes.engine import (
    HandEnd,
    HandResult,
    HandScoring,
    TurnNote,
    match_text,
    result_text,
)
from p2p_dominoes.engine.kozel_text import ceremonies_text
from p2p_dominoes.engine.rules import Rules
from p2p_dominoes.session import TableSession
from p2p_dominoes.ui.web.snapshot_words import snapshot_said
from p2p_dominoes.ui.web.table_progress import TableProgress


def score_flash(notes: Sequence[TurnNote], lang: str) -> list[dict[str, Any]]:
    """What the last move scored, for the page's flash: "+2: 10 at the ends" per scoring note
    (and "−10: 2 drawn, no score" for a Threes-for-luck penalty)."""
    flashes = []
    for note in notes:
        if note.kind == "score":
            why = snapshot_said(f"flash_{note.why}", lang, total=note.total)
            text = f"+{note.points}: {why}"
        elif note.kind == "penalty":
            text = f"−{note.points}: " + snapshot_said("flash_penalty", lang, count=note.count)
        else:
            continue
        flashes.append({"seat": note.seat, "kind": note.kind, "points": note.points, "text": text})
    return flashes


def seat_scores(rules: Rules, scores: Sequence[int], players: int) -> list[int]:
    """Each seat's match total: with partners (Kozel) a seat shows its pair's."""
    if rules.pairs and len(scores) == 2:
        return [scores[seat % 2] for seat in range(players)]
    return list(scores)


def result_words(result: HandResult, names: Sequence[str], lang: str) -> str:
    """The hand's points in words, with names: "Ann went out: Bob's 8 + bot-1's 20 = 28 to Ann."
    (empty for an unfinished hand); the engine's sentence when the points are not that plain
    sum (a void hand, house scoring)."""
    if result.end is HandEnd.UNFINISHED:
        return ""
    if result.during_play is not None:  # Fives, Threes, Threes for luck: not a pip sum
        return _during_play_words(result, names, lang)
    winner = result.winner
    if result.seat_pips:  # partners (Kozel): the engine names the pairs
        return result_text(result, lang, names)
    if result.end is HandEnd.BLOCK and winner is None and not any(result.points):
        return snapshot_said("blocked_tie", lang)
    if winner is None or result.end not in (HandEnd.DOMINO, HandEnd.BLOCK):
        return result_text(result, lang, names)
    others = sum(p for seat, p in enumerate(result.pips) if seat != winner)
    own = result.pips[winner] if result.end is HandEnd.BLOCK else 0
    if result.points[winner] != others - own or any(
        p for seat, p in enumerate(result.points) if seat != winner
    ):
        return result_text(result, lang, names)
    parts = [
        snapshot_said("pips_of", lang, name=names[seat], pips=pips)
        for seat, pips in enumerate(result.pips)
        if seat != winner
    ]
    total = " + ".join(parts)
    key = "went_out"
    if result.end is HandEnd.BLOCK:
        key = "blocked"
        total += " − " + snapshot_said(
            "pips_of", lang, name=names[winner], pips=result.pips[winner]
        )
    return snapshot_said(key, lang, winner=names[winner], sum=total, points=result.points[winner])


def _during_play_words(result: HandResult, names: Sequence[str], lang: str) -> str:
    """A hand scored during play: the engine's sentence (how it ended, bonuses, points), and
    under Threes for luck the settlement's arithmetic: the winner takes the difference."""
    text = result_text(result, lang, names)
    if result.scoring is not HandScoring.LUCK_SETTLEMENT:
        return text
    winner = result.winner
    if winner is None:
        return text
    nets = result.points
    terms = [str(nets[winner])] + [
        f"(−{-n})" if n < 0 else str(n) for seat, n in enumerate(nets) if seat != winner
    ]
    arithmetic = " − ".join(terms)
    raw = nets[winner] - sum(n for seat, n in enumerate(nets) if seat != winner)
    key = "luck_settles" if raw > 0 else "luck_nothing"
    settled = result.settlement[winner] if result.settlement else max(0, raw)
    return f"{text} " + snapshot_said(
        key, lang, winner=names[winner], sum=arithmetic, points=settled, raw=raw
    )


def pairs_match_json(
    progress: TableProgress, session: TableSession, names: Sequence[str], lang: str
) -> dict[str, Any]:
    """Under Kozel: the match's end in the engine's words (the goat pair and its title)."""
    outcome = progress.match_outcome
    if outcome is None or not outcome.pairs:
        return {}
    return {
        "pairs": True,
        "losers": list(outcome.losers),
        "title": outcome.title,
        "text": match_text(outcome, session.scores, lang, names),
    }


def end_json(
    progress: TableProgress, lang: str, names: Sequence[str] = (), seat: int | None = None
) -> dict[str, Any] | None:
    """The last hand's end for the page's summary (None before one): how it ended, each
    seat's points and pips, the arithmetic, the hands shown, and its words (a Kozel fish's
    totals in the order of `seat`'s sheet, "us : them")."""
    result = progress.last_result
    if result is None:
        return None
    if result.seat_pips:  # Kozel: the pairs' amounts, each seat shown with its pair's
        words = result_text(result, lang, names, seat)
        return {
            "words": words,
            "text": words,
            "hand_number": progress.last_hand_number,
            "end": result.end.value,
            "pairs": True,
            "winner": result.winner,
            "points": [result.points[seat % 2] for seat in range(len(result.seat_pips))],
            "pips": list(result.seat_pips),
            "pair_points": list(result.points),
            "pair_pips": list(result.pips),
            "ceremonies": list(result.ceremonies),
            "ceremony_text": ceremonies_text(result, lang, names).strip(),
            "title": result.title,
            "arithmetic": result.arithmetic(),
            "hands": progress.last_hands,
            "audit": "clean",
        }
    return {
        "words": result_words(result, names, lang) if names else "",
        "text": result_text(result, lang, names),
        "hand_number": progress.last_hand_number,
        "end": result.end.value,
        "winner": result.winner,
        "points": list(result.points),
        "pips": list(result.pips),
        "arithmetic": result.arithmetic() if result.end is not HandEnd.UNFINISHED else "",
        "during_play": result.during_play is not None,
        "recorded": list(result.recorded),
        "hands": progress.last_hands,
        "audit": "clean",
    }
