"""Kozel's score sheet for the page: Us / Them from this seat's side, one row per hand with
what each pair wrote (an amount under the minimum struck out, "not written"), the hand's
ceremony title and the winner's wipe, the running totals, and the 101 line. Its words are the
catalogues' (``page.kozel_sheet.*``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from p2p_dominoes.engine import HandEnd, HandResult, Rules
from p2p_dominoes.engine.ceremonies import title_text
from p2p_dominoes.engine.kozel_text import pair_name
from p2p_dominoes.words import template

_KEYS: Final[dict[str, str]] = {
    "title": "page.kozel_sheet.title",
    "us": "page.kozel_sheet.us",
    "them": "page.kozel_sheet.them",
    "hand": "page.kozel_sheet.hand",
    "total": "page.kozel_sheet.total",
    "line": "page.kozel_sheet.line",
    "not_written": "page.kozel_sheet.not_written",
    "wiped": "page.kozel_sheet.wiped",
    "fish_tie": "page.kozel_sheet.fish_tie",
}
"""The sheet's words and their catalogue keys (``page.kozel_sheet.*``)."""


def _words(lang: str) -> dict[str, str]:
    """The sheet's words in `lang` (any "ru…" is Russian, else English), fields not filled."""
    chosen = "ru" if lang.startswith("ru") else "en"
    return {name: template(key, chosen) for name, key in _KEYS.items()}


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
    words = _words(lang)
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
