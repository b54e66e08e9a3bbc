"""A hand's review in words (`bots/review.py`'s rows): one line a decision, the costliest three
marked, and the sum; English and Russian from the words catalogue. The page can show the same
lines (the rows are plain data; this module does not import the bots)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from p2p_dominoes.engine import Action, action_text, seat_name
from p2p_dominoes.words import line, plural


class Reviewed(Protocol):
    """What a review row holds (`bots.review.ReviewRow`)."""

    @property
    def index(self) -> int: ...
    @property
    def seat(self) -> int: ...
    @property
    def played(self) -> Action: ...
    @property
    def best(self) -> Action: ...
    @property
    def chance(self) -> float: ...
    @property
    def points(self) -> float: ...
    @property
    def costly(self) -> bool: ...


def number(value: float, lang: str) -> str:
    """One decimal, with a decimal comma in Russian."""
    text = f"{value:.1f}"
    return text.replace(".", ",") if lang == "ru" else text


def review_lines(
    rows: Sequence[Reviewed], seat: int, samples: int, lang: str, names: Sequence[str] = ()
) -> list[str]:
    """The review of `seat`'s decisions as lines: a title, a line a decision (the action's
    number as `replay` prints it), the costliest marked, and the total cost."""
    who = seat_name(seat, names, lang)
    lines = [line("review.title", lang, who=who, samples=samples)]
    if not rows:
        return [*lines, line("review.none", lang, who=who)]
    for row in rows:
        played = action_text(row.seat, row.played, None, lang, names)
        if row.played == row.best:
            lines.append(line("review.agrees", lang, index=row.index, played=played))
            continue
        text = line(
            "review.row",
            lang,
            index=row.index,
            played=played,
            best=action_text(row.seat, row.best, None, lang, names),
            points=number(row.points, lang),
            chance=number(100 * row.chance, lang),
        )
        lines.append(line("review.costly", lang, row=text) if row.costly else text)
    points = sum(r.points for r in rows)
    chance = sum(r.chance for r in rows)
    lines.append(
        plural(
            "review.total",
            len(rows),
            lang,
            points=number(points, lang),
            chance=number(100 * chance, lang),
        )
    )
    return lines
