"""Words shared by several switches' records (the opening rules, yes/no, on/off) and the words
for values no table can list (numbers, pairs): each function takes a value and a language."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from p2p_dominoes import words
from p2p_dominoes.engine.words import Said, check_lang

OPENERS: Final = {
    "lottery": Said("engine.value.openers.lottery"),
    "rotate": Said("engine.value.openers.rotate"),
    "previous-winner": Said("engine.value.openers.previous_winner"),
    "lowest-double": Said("engine.value.openers.lowest_double"),
    "highest-double": Said("engine.value.openers.highest_double"),
    "assigned-double": Said("engine.value.openers.assigned_double"),
    "weekday-double": Said("engine.value.openers.weekday_double"),
    "heaviest-tile": Said("engine.value.openers.heaviest_tile"),
}
FALLBACKS: Final = {
    "heaviest-tile": Said("engine.value.fallbacks.heaviest_tile"),
    "lottery": Said("engine.value.fallbacks.lottery"),
    "previous-opener": Said("engine.value.fallbacks.previous_opener"),
    "rotate": Said("engine.value.fallbacks.rotate"),
    "redeal": Said("engine.value.fallbacks.redeal"),
}
YES_NO: Final = {True: Said("engine.value.yes_no.yes"), False: Said("engine.value.yes_no.no")}
ON_OFF: Final = {True: Said("engine.value.on_off.yes"), False: Said("engine.value.on_off.no")}
WEEKDAYS: Final = (
    Said("engine.value.weekdays.not_set"),
    Said("engine.value.weekdays.monday"),
    Said("engine.value.weekdays.tuesday"),
    Said("engine.value.weekdays.wednesday"),
    Said("engine.value.weekdays.thursday"),
    Said("engine.value.weekdays.friday"),
    Said("engine.value.weekdays.saturday"),
    Said("engine.value.weekdays.sunday"),
)
PLAYERS: Final = {
    2: Said("engine.value.players.2"),
    3: Said("engine.value.players.3"),
    4: Said("engine.value.players.4"),
}


def _said(key: str, lang: str, **values: object) -> str:
    """The catalogue's line `key` in `lang` (which must be "en" or "ru")."""
    return words.line(key, check_lang(lang), **values)


def per_count(pairs: Any, lang: str, text: Callable[[int], str]) -> str:
    """(players, number) pairs in words: one number for every count, or count by count."""
    values = {number for _, number in pairs}
    if len(values) == 1 and len(pairs) > 1:
        counts = ", ".join(PLAYERS[n](lang) if n in PLAYERS else str(n) for n, _ in pairs)
        return f"{text(next(iter(values)))} ({counts})"
    return " · ".join(
        f"{PLAYERS[n](lang) if n in PLAYERS else n}: {text(number)}" for n, number in pairs
    )


def hand_sizes_text(value: Any, lang: str) -> str:
    return per_count(value, lang, lambda size: _said("engine.value.each", lang, n=size))


def targets_text(value: Any, lang: str) -> str:
    if not value:
        return _said("engine.value.none", lang)
    return per_count(value, lang, str)


def reserve_text(value: Any, lang: str) -> str:
    if value == 0:
        return _said("engine.value.yes_no.yes", lang)
    if value == 1:
        return _said("engine.value.yes_no.no", lang)
    return _said("engine.value.reserve_stay", lang, n=value)


def draw_limit_text(value: Any, lang: str) -> str:
    if value == 0:
        return _said("engine.value.no_limit", lang)
    return _said("engine.value.up_to", lang, n=value)


def end_sum_text(value: Any, lang: str) -> str:
    return _said("engine.value.on_off.no", lang) if value == 0 else str(value)


def double_text(value: Any, lang: str) -> str:
    check_lang(lang)
    return f"{value}:{value}"


def weekday_text(value: Any, lang: str) -> str:
    check_lang(lang)
    return WEEKDAYS[value](lang) if 0 <= value <= 7 else str(value)


def min_record_text(value: Any, lang: str) -> str:
    if value == 0:
        return _said("engine.value.none", lang)
    if value == 13:
        return _said("engine.value.kozel_minimum", lang)
    return str(value)


def hands_limit_text(value: Any, lang: str) -> str:
    return _said("engine.value.not_set", lang) if value == 0 else str(value)


def seconds_text(value: Any, lang: str) -> str:
    return _said("engine.value.seconds", lang, n=value)


def bonus_text(value: Any, lang: str) -> str:
    return _said("engine.value.none", lang) if value == 0 else f"+{value}"
