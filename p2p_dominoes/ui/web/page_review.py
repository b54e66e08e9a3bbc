"""The page's *Review this hand* (issue 27): once a hand has ended, the player asks for a review
of their own decisions in it, and the page shows what `expert` would have played at each from
the player's seat's view and what the choice cost (`bots/review.py`, as `replay --review`).

The search costs CPU, so it runs only on request, in a worker thread (`trio.to_thread`) with a
bounded number of samples, one review at a time: the table's event loop keeps running, and the
page shows a "working" state until the rows come. Only the player's own seat is reviewed (the
hand's tiles are public once it ended, but the review is the player's, not the others').
The rows are kept as data and put into words for each snapshot, so a change of language
applies to them too.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

import trio

from p2p_dominoes.bots.review import ReviewRow, review_hand
from p2p_dominoes.engine import action_text, seat_name
from p2p_dominoes.engine.record import HandRecord
from p2p_dominoes.ui.review_text import number
from p2p_dominoes.ui.web.refusals import refusal
from p2p_dominoes.words import line, plural

log = logging.getLogger("p2p_dominoes.ui.web")

PAGE_SAMPLES: Final = 100
"""Samples a reviewed decision searches on the page: bounded so a review takes a second or
two of one core (the command line's default is `REVIEW_SAMPLES`)."""


@dataclass
class PageReview:
    """A review the page asked for: which hand and seat, and its rows (None while working)."""

    hand: int
    seat: int
    samples: int = PAGE_SAMPLES
    rows: list[ReviewRow] | None = None
    failed: bool = False
    """The search failed (logged): the page says so instead of rows."""


async def work_out(review: PageReview, record: HandRecord, done: Callable[[], None]) -> None:
    """Run the review's search off the event loop, keep its rows, then call `done` (which
    publishes a snapshot). A failure is logged and shown, never raised: it must not end the
    page's peer. Cancelled (the peer closing), the thread is left to finish on its own."""
    try:
        rows = await trio.to_thread.run_sync(
            review_hand, record, review.seat, review.samples, abandon_on_cancel=True
        )
    except Exception as exc:
        log.warning("a hand's review failed: %s: %s", type(exc).__name__, exc)
        review.rows, review.failed = [], True
    else:
        review.rows = rows
    done()


def review_snapshot(
    review: PageReview | None, hand: int, lang: str, names: Sequence[str]
) -> dict[str, Any] | None:
    """The review for the page in `lang` (None unless one was asked for hand `hand`, the one
    the summary shows): its title, "working" until the rows come, then a row a decision (the
    action's number, what was played, expert's choice or None when it agrees, the cost in
    points and in percent of the match, whether it is one of the costliest) and the total."""
    if review is None or review.hand != hand:
        return None
    who = seat_name(review.seat, names, lang)
    out: dict[str, Any] = {
        "hand": review.hand,
        "title": line("review.title", lang, who=who, samples=review.samples),
        "working": review.rows is None,
        "rows": [],
        "total": "",
    }
    rows = review.rows
    if rows is None:
        return out
    if review.failed:
        out["total"] = refusal("failed", lang)
        return out
    if not rows:
        out["total"] = line("review.none", lang, who=who)
        return out
    for row in rows:
        agrees = row.played == row.best
        out["rows"].append(
            {
                "index": row.index,
                "played": action_text(row.seat, row.played, None, lang, names),
                "best": None if agrees else action_text(row.seat, row.best, None, lang, names),
                "points": number(row.points, lang),
                "chance": number(100 * row.chance, lang),
                "costly": row.costly,
            }
        )
    out["total"] = plural(
        "review.total",
        len(rows),
        lang,
        points=number(sum(r.points for r in rows), lang),
        chance=number(100 * sum(r.chance for r in rows), lang),
    )
    return out
