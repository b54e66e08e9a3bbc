"""What the peer runtime tells its player during a table, in English or Russian."""

from __future__ import annotations

from typing import Final

_LINES: Final[dict[str, tuple[str, str]]] = {
    # Seat numbers in these lines count from 1, as players do.
    "seated": ("Seated at seat {seat} of {of}: {names}", "Место {seat} из {of}: {names}"),
    "fingerprint": (
        "  seat {seat} {name}: fingerprint {fingerprint}",
        "  место {seat} {name}: отпечаток {fingerprint}",
    ),
    "not_allowed": ("That move is not allowed: {rule}", "Так ходить нельзя: {rule}"),
    "again": ("Connected again to {name}.", "Снова на связи: {name}."),
    "lost": ("Lost the connection to {name}.", "Пропала связь с {name}."),
    "code": ("Table code: {code}", "Код стола: {code}"),
    "compare": (
        "Compare the table code aloud: every player's screen must show the same words. "
        "If any differs, someone is in the middle: leave the table.",
        "Сверьте код стола вслух: у всех игроков на экране должны быть те же слова. "
        "Если хоть одно отличается, между вами кто-то есть: уйдите из-за стола.",
    ),
    "lottery_stall": (
        "Note for everyone at this table: {name} stopped an earlier table ('{table}') by going "
        "silent during the opener lottery, when only they knew who would open.",
        "Внимание всем за этим столом: {name} остановил(а) прошлый стол ('{table}'), замолчав "
        "во время жеребьёвки первого хода, когда только он(а) знал(а), кто начнёт.",
    ),
}


def said(key: str, lang: str, **values: object) -> str:
    """The line `key` in `lang` ("ru", else English)."""
    english, russian = _LINES[key]
    return (russian if lang == "ru" else english).format(**values)
