"""The sentences of the table screen that the snapshot makes itself, in English and Russian:
why the draw or pass button is off, the stall warnings, why a table stopped, a hand's points in
words and what a move scored (the flash).

The words are the catalogues' (``page.snapshot.*`` in p2p_dominoes/words/en.po and ru.po);
this module names each sentence's key for the snapshot's modules (`snapshot.py`,
`page_moves.py`, `score_words.py`), which look them up with `snapshot_said`.
"""

from __future__ import annotations

from typing import Final

from p2p_dominoes.words import line, plural

_KEYS: Final[dict[str, str]] = {
    "not_turn": "page.snapshot.not_turn",
    "must_play": "page.snapshot.must_play",
    "no_drawing": "page.snapshot.no_drawing",
    "reserve": "page.snapshot.reserve",
    "empty": "page.snapshot.empty",
    "stuck_only": "page.snapshot.stuck_only",
    "holds": "page.snapshot.holds",
    "must_draw": "page.snapshot.must_draw",
    "come_back": "page.snapshot.come_back",
    "to_move": "page.snapshot.to_move",
    "you_move": "page.snapshot.you_move",
    "stopped_cheat": "page.snapshot.stopped_cheat",
    "stopped_failure": "page.snapshot.stopped_failure",
    "went_out": "page.snapshot.went_out",
    "blocked": "page.snapshot.blocked",
    "blocked_tie": "page.snapshot.blocked_tie",
    "pips_of": "page.snapshot.pips_of",
    "luck_settles": "page.snapshot.luck_settles",
    "luck_nothing": "page.snapshot.luck_nothing",
    "flash_ends": "page.snapshot.flash_ends",
    "flash_placed-tile": "page.snapshot.flash_placed_tile",
    "flash_first-double": "page.snapshot.flash_first_double",
    "flash_scoring-double": "page.snapshot.flash_scoring_double",
    "flash_scoring-move": "page.snapshot.flash_scoring_move",
    "flash_lucky-draw": "page.snapshot.flash_lucky_draw",
    "flash_penalty": "page.snapshot.flash_penalty",
}
"""Each sentence's catalogue key (a flash's key is ``flash_`` and the note's reason)."""

_COUNTED: Final[dict[str, str]] = {"reserve": "r"}
"""The sentences that are plural entries, and the value that counts (the catalogue's ``{n}``):
the reserve's tiles (Russian has three forms for them)."""


def snapshot_said(key: str, lang: str, **values: object) -> str:
    """The sentence `key` in `lang` ("ru", else English), its fields filled from `values`."""
    counted = _COUNTED.get(key)
    if counted is None:
        return line(_KEYS[key], lang, **values)
    count = values.pop(counted)
    if not isinstance(count, int):
        raise TypeError(f"{key}: {counted} counts, so it is a whole number, not {count!r}")
    return plural(_KEYS[key], count, lang, **values)
