"""Kozel's old ceremonies («Старые церемонии»): which titles a hand's ending gives its losers.

Read only from public plays (which tile was laid, by whom, in which order), so every peer
computes them alike. A ceremony counts only when the hand ends by domino; the key doubles are
6:6 («кабан») and 0:0 («пустышка») (RULES_V2 §2.3). Seniority: admiral > snotty goat > general.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from p2p_dominoes.engine.actions import Action, Play
from p2p_dominoes.engine.rules import Rules
from p2p_dominoes.engine.tiles import Tile, parse_tile

SIX_SIX: Final[Tile] = parse_tile("6|6")
BLANK_BLANK: Final[Tile] = parse_tile("0|0")

SENIORITY: Final = ("admiral", "snotty_goat", "general")
"""The title ceremonies, most senior first."""

GOAT: Final = "goat"
"""The plain title of the pair (or player) that reaches a target that loses."""

TITLES: Final[dict[str, tuple[str, str]]] = {
    GOAT: ("козёл", "goat"),
    "general": ("генеральские козлы", "generals' goats"),
    "admiral": ("адмиралы", "admirals"),
    "snotty_goat": ("сопливые козлы", "snotty goats"),
}
"""Each title in Russian and English."""

CEREMONY_NAMES: Final[dict[str, tuple[str, str]]] = {
    "general": ("Генерал", "General"),
    "admiral": ("Адмирал", "Admiral"),
    "snotty_goat": ("Сопливый козёл", "Snotty goat"),
}
"""Each ceremony's name in Russian and English."""

CEREMONY_WHY: Final[dict[str, tuple[str, str]]] = {
    "general": (
        "партия закрыта дублем 6:6 или закрывший сам выложил оба ключевых дубля",
        "the hand was closed on 6:6, or the closer laid both key doubles himself",
    ),
    "admiral": (
        "партия закрыта двумя ключевыми дублями подряд (6:6 и 0:0)",
        "the hand was closed by the two key doubles in a row (6:6 and 0:0)",
    ),
    "snotty_goat": ("партия закрыта пустышкой 0:0", "the hand was closed on the blank 0:0"),
}
"""What made each ceremony trigger, in Russian and English."""


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
    """A title in words: «генеральские козлы» / "generals' goats"."""
    ru, en = TITLES[title]
    return ru if lang.startswith("ru") else en


def ceremony_text(name: str, lang: str = "en") -> str:
    """A ceremony's name and why it triggered: "Admiral: the hand was closed by …"."""
    ru = lang.startswith("ru")
    label = CEREMONY_NAMES[name][0 if ru else 1]
    why = CEREMONY_WHY[name][0 if ru else 1]
    return f"{label}: {why}"
