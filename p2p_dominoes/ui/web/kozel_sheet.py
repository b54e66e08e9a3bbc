"""Kozel's score sheet for the page: «Мы / Они» (Us / Them) from this seat's side, one row per
hand with what each pair wrote (an amount under the minimum struck out, "not written"), the
hand's ceremony title and the winner's wipe, the running totals, and the 101 line."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from p2p_dominoes.engine import HandEnd, HandResult, Rules
from p2p_dominoes.engine.ceremonies import title_text
from p2p_dominoes.engine.kozel_text import pair_name

_WORDS: Final[dict[str, dict[str, str]]] = {
    "en": {
        "title": "Score sheet",
        "us": "Us",
        "them": "Them",
        "hand": "Hand",
        "total": "Total",
        "line": "{target}: whoever reaches it is the goat",
        "not_written": "not written: under {minimum}",
        "wiped": "wiped to 0",
        "fish_tie": "fish, equal totals",
    },
    "ru": {
        "title": "Запись",
        "us": "Мы",
        "them": "Они",
        "hand": "Сдача",  # as the summary says ("Сдача 3"), not «Партия» (issue 28 L8)
        "total": "Итого",
        "line": "{target}: кто дойдёт — козёл",
        "not_written": "не пишут: меньше {minimum}",
        "wiped": "стёрто до 0",
        "fish_tie": "рыба, поровну",
    },
}


@dataclass(frozen=True)
class SheetRow:
    """One counted hand as the sheet keeps it: its result and the pairs' totals after it."""

    number: int
    result: HandResult
    totals: tuple[int, ...]


def sheet_json(
    rules: Rules,
    seat: int,
    rows: Sequence[SheetRow],
    names: Sequence[str],
    lang: str,
    players: int,
) -> dict[str, Any] | None:
    """The sheet from `seat`'s side (None unless partners play)."""
    if not rules.pairs:
        return None
    words = _WORDS["ru" if lang.startswith("ru") else "en"]
    us, them = seat % 2, 1 - seat % 2
    target = rules.target(players)
    out_rows = []
    for row in rows:
        result = row.result
        if result.end is HandEnd.VOID:
            continue
        amounts = result.amounts or result.points
        cells = []
        for pair in (us, them):
            amount = amounts[pair]
            written = bool(result.points[pair])
            wiped = result.winner_reset and result.winner == pair
            cells.append(
                {
                    "amount": amount,
                    "written": written,
                    "note": words["not_written"].format(minimum=rules.min_record)
                    if amount and not written
                    else (words["wiped"] if wiped else ""),
                    "total": row.totals[pair],
                }
            )
        out_rows.append(
            {
                "hand": row.number,
                "cells": cells,
                "title": title_text(result.title, lang) if result.title else "",
                "note": words["fish_tie"]
                if result.end is HandEnd.BLOCK and result.winner is None
                else "",
            }
        )
    return {
        "words": {k: words[k] for k in ("title", "us", "them", "hand", "total")},
        "pairs": [pair_name(us, names, lang), pair_name(them, names, lang)],
        "target": target,
        "line": words["line"].format(target=target),
        "rows": out_rows,
    }
