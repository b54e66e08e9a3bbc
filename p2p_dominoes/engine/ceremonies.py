"""Kozel's old ceremonies (seed 003): which titles a hand's ending gives its losers.

Read only from public plays (which tile was laid, by whom, in which order), so every peer
computes them alike. A ceremony counts only when the hand ends by domino; the key doubles are
6:6 (the boar) and 0:0 (the blank) (RULES_V2 §2.3). Seniority: admiral > snotty goat > general.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from p2p_dominoes import words
from p2p_dominoes.engine.actions import Action, Play
from p2p_dominoes.engine.rules import Rules
from p2p_dominoes.engine.tiles import Tile, parse_tile

SIX_SIX: Final[Tile] = parse_tile("6|6")
BLANK_BLANK: Final[Tile] = parse_tile("0|0")

SENIORITY: Final = ("admiral", "snotty_goat", "general")
"""The title ceremonies, most senior first."""

GOAT: Final = "goat"
"""The plain title of the pair (or player) that reaches a target that loses."""

TITLES: Final[dict[str, str]] = {
    GOAT: "engine.title.goat",
    "general": "engine.title.general",
    "admiral": "engine.title.admiral",
    "snotty_goat": "engine.title.snotty_goat",
}
"""Each title's words (their catalogue key)."""

CEREMONIES: Final[dict[str, str]] = {
    "general": "engine.ceremony.general",
    "admiral": "engine.ceremony.admiral",
    "snotty_goat": "engine.ceremony.snotty_goat",
}
"""Each ceremony's name and what made it trigger (their catalogue key)."""


def laid_tiles(history: Iterable[tuple[int, Action]]) -> list[tuple[int, Tile]]:
    """(seat, tile) of every tile laid, in order, from a hand's actions."""
    return [(seat, action.tile) for seat, action in history if type(action) is Play]


def triggered(rules: Rules, closer: int | None, laid: Sequence[tuple[int, Tile]]) -> list[str]:
    """The enabled ceremonies a hand that `closer` ended by domino triggers, most senior first
    (empty for a hand that did not end by domino: pass `closer` None)."""
    if closer is None or not laid or not rules.ceremonies:
        return []
    last = laid[-1][1]
    before = laid[-2][1] if len(laid) > 1 else None
    found: list[str] = []
    if rules.admiral and {last, before} == {SIX_SIX, BLANK_BLANK}:
        found.append("admiral")
    if rules.snotty_goat and last is BLANK_BLANK:
        found.append("snotty_goat")
    if rules.general:
        own = {tile for seat, tile in laid if seat == closer}
        if last is SIX_SIX or {SIX_SIX, BLANK_BLANK} <= own:
            found.append("general")
    return found


def title_text(title: str, lang: str = "en") -> str:
    """A title in words: "generals' goats" (Russian for any `lang` starting "ru")."""
    return words.line(TITLES[title], _language(lang))


def ceremony_text(name: str, lang: str = "en") -> str:
    """A ceremony's name and why it triggered: "Admiral: the hand was closed by …"."""
    return words.line(CEREMONIES[name], _language(lang))


def _language(lang: str) -> str:
    return "ru" if lang.startswith("ru") else "en"
