"""What the page is told when a command is refused: one plain line, in English or Russian."""

from __future__ import annotations

from typing import Final

from p2p_dominoes.words import line

_TEXTS: Final[dict[str, tuple[str, str]]] = {
    "no_type": ('A command has a "type".', "У команды должен быть «type»."),
    "failed": ("That command could not be carried out.", "Эту команду не удалось выполнить."),
    "running": ("A table is already running.", "Стол уже идёт."),
    "settings": ("Those table settings are not valid.", "Такие настройки стола не подходят."),
    "table_name": (
        "The table's name must be printable text of at most 64 characters.",
        "Название стола — обычный текст, не длиннее 64 знаков.",
    ),
    "rules": ("Choose one of the listed rules.", "Выберите правила из списка."),
    "players": ("A table has 2 to 4 players.", "За столом от 2 до 4 игроков."),
    "bots": (
        "Bots: from 0 to one fewer than the players ({most}).",
        "Ботов: от 0 до числа игроков без одного ({most}).",
    ),
    "bot": ("Choose one of the listed bots.", "Выберите бота из списка."),
    "hands": (
        "Hands: a whole number from 1 to {most}, or empty for a match to the target.",
        "Партий: целое число от 1 до {most} или пусто — до нужного счёта.",
    ),
    "stall_timeout": (
        "The stall timeout is a whole number of seconds from {low} to {high}.",
        "Время ожидания — целое число секунд от {low} до {high}.",
    ),
    "rule_set": ("{reason}", "{reason}"),
    "address": (
        "Give an address as HOST:PORT.",
        "Укажите адрес в виде АДРЕС:ПОРТ.",
    ),
    "fingerprint": (
        "That fingerprint is malformed: copy it from the host's screen.",
        "Отпечаток записан неверно: перепишите его с экрана создателя стола.",
    ),
    "join_code": (
        "A join code is the three words shown beside the host's table (or their three numbers).",
        "Код для входа — три слова рядом со столом хозяина (или три их номера).",
    ),
    "seat": (
        "A seat to ask for is 2, 3 or 4 (seat 1 is the host's), or any.",
        "Место можно попросить 2, 3 или 4 (место 1 — хозяина) или любое.",
    ),
    "resume_fields": (
        "A resume command has no other fields.",
        "У команды «resume» нет других полей.",
    ),
    "nothing_to_resume": (
        "There is no unfinished table to resume.",
        "Недоигранного стола нет.",
    ),
    "no_such_table": (
        "That unfinished table is not here (any more).",
        "Такого недоигранного стола здесь нет.",
    ),
    "lang": (
        'A language command names "en" or "ru".',
        "Команда языка называет «en» или «ru».",
    ),
    "no_rematch": (
        "A rematch is offered once a whole match is over.",
        "Реванш можно предложить, когда матч доигран.",
    ),
    "unknown": ("That command is not known here now.", "Эта команда сейчас не к месту."),
    "answer": ("That answer is not valid.", "Такой ответ не подходит."),
    "no_desk": ("No table is waiting for players.", "Ни один стол не ждёт игроков."),
    "gone": ("That request or seat is gone.", "Этого запроса или места уже нет."),
    "illegal": ("That move is not legal now.", "Так сейчас ходить нельзя."),
    "nothing_to_cancel": (
        "Nothing to cancel: no table is being opened or joined.",
        "Отменять нечего: стол не создаётся и не ждёт ответа.",
    ),
    "not_paused": ("No hand is waiting to start.", "Новая партия не ждёт начала."),
    "cancelled": ("Cancelled.", "Отменено."),
}


CATALOGUED: Final[dict[str, str]] = {
    "review": "review.refused.command",
    "no_review": "review.refused.none",
    "reviewing": "review.refused.busy",
}
"""Refusals whose words are in the catalogues (p2p_dominoes/words/*.po): key to message id."""


def refusal(key: str, lang: str, **values: object) -> str:
    """The line for refusal `key` in `lang` ("ru", else English)."""
    if key in CATALOGUED:
        return line(CATALOGUED[key], lang, **values)
    english, russian = _TEXTS[key]
    return (russian if lang == "ru" else english).format(**values)
