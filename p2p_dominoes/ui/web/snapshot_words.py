"""The sentences of the table screen that the snapshot makes itself, in English and Russian:
why the draw or pass button is off, the stall warnings, why a table stopped, a hand's points in
words and what a move scored (the flash).

One table of words for the snapshot's modules (`snapshot.py`, `page_moves.py`,
`score_words.py`), looked up by key with `snapshot_said`.
"""

from __future__ import annotations

_REASONS = {
    "en": {
        "not_turn": "It is not your turn.",
        "must_play": "Play the tile you drew: it fits.",
        "no_drawing": "These rules have no drawing.",
        "reserve": "The boneyard is down to its last {r} tiles, which are never drawn.",
        "empty": "The boneyard is empty.",
        "stuck_only": "You may draw only when no tile fits.",
        "holds": "You hold a tile that fits.",
        "must_draw": "You must draw while the boneyard allows it.",
        "come_back": "{name} has {s} s to come back before the table stops.",
        "to_move": "{name} has {s} s to move before the table stops.",
        "you_move": "You have {s} s to move before the table stops for everyone.",
        "stopped_cheat": "The table stopped: {name} broke the rules ({reason}).",
        "stopped_failure": "The table stopped here: {reason}.",
        "went_out": "{winner} went out: {sum} = {points} to {winner}.",
        "blocked": "Blocked; {winner} holds the fewest pips: {sum} = {points} to {winner}.",
        "blocked_tie": "Blocked, with a tie for the fewest pips: nobody scores.",
        "pips_of": "{name}'s {pips}",
        "luck_settles": "{winner} takes the difference: {sum} = {points}.",
        "luck_nothing": "{winner} has the best net, but {sum} = {raw}: nobody records.",
        "flash_ends": "{total} at the ends",
        "flash_placed-tile": "the tile's pips",
        "flash_first-double": "the first double",
        "flash_scoring-double": "a double, {total} at the ends",
        "flash_scoring-move": "{total} at the ends",
        "flash_lucky-draw": "a drawn tile, {total} at the ends",
        "flash_penalty": "{count} drawn, no score",
    },
    "ru": {
        "not_turn": "Сейчас не ваш ход.",
        "must_play": "Положите взятую кость: она подходит.",
        "no_drawing": "В этих правилах нет добора.",
        "reserve": "На базаре последние {r} кости, их не берут.",
        "empty": "Базар пуст.",
        "stuck_only": "Брать можно, только если ходить нечем.",
        "holds": "У вас есть подходящая кость.",
        "must_draw": "Нужно брать из базара, пока это разрешено.",
        "come_back": "У игрока {name} {s} с, чтобы вернуться, иначе стол остановится.",
        "to_move": "У игрока {name} {s} с на ход, иначе стол остановится.",
        "you_move": "У вас {s} с на ход, иначе стол остановится для всех.",
        "stopped_cheat": "Стол остановлен: {name} нарушает правила ({reason}).",
        "stopped_failure": "Стол остановлен на этом компьютере: {reason}.",
        "went_out": "{winner} выходит: {sum} = {points} очк. игроку {winner}.",
        "blocked": "Рыба; меньше всех на руке у {winner}: {sum} = {points} очк. игроку {winner}.",
        "blocked_tie": "Рыба, и меньше всех на руке поровну у нескольких: очков никто не получает.",
        "pips_of": "{name} {pips}",
        "luck_settles": "{winner} забирает разницу: {sum} = {points}.",
        "luck_nothing": "Лучший итог у игрока {winner}, но {sum} = {raw}: никто не записывает.",
        "flash_ends": "сумма концов {total}",
        "flash_placed-tile": "очки выложенной кости",
        "flash_first-double": "первый дубль",
        "flash_scoring-double": "дубль, сумма концов {total}",
        "flash_scoring-move": "сумма концов {total}",
        "flash_lucky-draw": "взятая кость, сумма концов {total}",
        "flash_penalty": "взято {count}, без очков",
    },
}


def snapshot_said(key: str, lang: str, **values: object) -> str:
    """The sentence `key` in `lang` ("ru", else English), its fields filled from `values`."""
    return _REASONS["ru" if lang == "ru" else "en"][key].format(**values)
