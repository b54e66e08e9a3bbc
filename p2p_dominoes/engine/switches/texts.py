"""Words shared by several switches' records (the opening rules, yes/no, on/off) and the words
for values no table can list (numbers, pairs): each function takes a value and a language."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from p2p_dominoes.engine.words import W, check_lang

OPENERS: Final = {
    "lottery": W("по жребию, любой костью", "by lot, any tile"),
    "rotate": W("следующий по кругу, любой костью", "the next seat clockwise, any tile"),
    "previous-winner": W("победитель прошлой партии", "the previous hand's winner"),
    "lowest-double": W("младший дубль", "the lowest double"),
    "highest-double": W("старший дубль", "the highest double"),
    "assigned-double": W("назначенный дубль", "the assigned double"),
    "weekday-double": W("очередь по дню недели", "the double of the weekday"),
    "heaviest-tile": W("самая тяжёлая кость", "the heaviest tile"),
}
FALLBACKS: Final = {
    "heaviest-tile": W("самая тяжёлая кость", "the heaviest tile"),
    "lottery": W("по жребию", "by lot"),
    "previous-opener": W("прошлый заходивший", "the previous opener"),
    "rotate": W("следующий по кругу", "the next seat clockwise"),
    "redeal": W("пересдать", "redeal"),
}
YES_NO: Final = {True: W("да", "yes"), False: W("нет", "no")}
ON_OFF: Final = {True: W("вкл", "on"), False: W("выкл", "off")}
WEEKDAYS: Final = (
    W("не задан", "not set"),
    W("понедельник", "Monday"),
    W("вторник", "Tuesday"),
    W("среда", "Wednesday"),
    W("четверг", "Thursday"),
    W("пятница", "Friday"),
    W("суббота", "Saturday"),
    W("воскресенье", "Sunday"),
)
PLAYERS: Final = {
    2: W("вдвоём", "2 players"),
    3: W("втроём", "3 players"),
    4: W("вчетвером", "4 players"),
}


def _ru(lang: str) -> bool:
    return check_lang(lang) == "ru"


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
    ru = _ru(lang)
    return per_count(value, lang, lambda size: f"по {size}" if ru else f"{size} each")


def targets_text(value: Any, lang: str) -> str:
    if not value:
        return "нет" if _ru(lang) else "none"
    return per_count(value, lang, str)


def reserve_text(value: Any, lang: str) -> str:
    ru = _ru(lang)
    if value == 0:
        return "да" if ru else "yes"
    if value == 1:
        return "нет" if ru else "no"
    return f"нет (последние {value} не берут)" if ru else f"no (the last {value} stay)"


def draw_limit_text(value: Any, lang: str) -> str:
    ru = _ru(lang)
    if value == 0:
        return "без предела" if ru else "no limit"
    return f"до {value}" if ru else f"up to {value}"


def end_sum_text(value: Any, lang: str) -> str:
    return ("выкл" if _ru(lang) else "off") if value == 0 else str(value)


def double_text(value: Any, lang: str) -> str:
    check_lang(lang)
    return f"{value}:{value}"


def weekday_text(value: Any, lang: str) -> str:
    check_lang(lang)
    return WEEKDAYS[value](lang) if 0 <= value <= 7 else str(value)


def min_record_text(value: Any, lang: str) -> str:
    ru = _ru(lang)
    if value == 0:
        return "нет" if ru else "none"
    if value == 13:
        return "13 (правило козла)" if ru else "13 (the Kozel rule)"
    return str(value)


def hands_limit_text(value: Any, lang: str) -> str:
    return ("не задано" if _ru(lang) else "not set") if value == 0 else str(value)


def seconds_text(value: Any, lang: str) -> str:
    return f"{value} с" if _ru(lang) else f"{value} s"


def bonus_text(value: Any, lang: str) -> str:
    return ("нет" if _ru(lang) else "none") if value == 0 else f"+{value}"
