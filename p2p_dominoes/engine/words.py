"""One text in both languages, kept in the catalogues (p2p_dominoes/words) under its key:
`Said`, the form every label of the rules takes (a switch's label and values, a preset's name,
a control's label), read with a language."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from p2p_dominoes import words
from p2p_dominoes.engine.errors import InvalidRecord
from p2p_dominoes.words import phrase

LANGUAGES: Final = ("en", "ru")


def check_lang(lang: str) -> str:
    """`lang` when it is one of LANGUAGES, else a clear error."""
    if lang not in LANGUAGES:
        raise InvalidRecord(phrase("engine.why.unknown_language", lang=repr(lang)))
    return lang


@dataclass(frozen=True)
class Said:
    """One text in both languages, kept in the catalogues under `key` (``engine.…``); read
    as it stands (a label has no fields to fill)."""

    key: str

    @property
    def ru(self) -> str:
        return words.template(self.key, "ru")

    @property
    def en(self) -> str:
        return words.template(self.key, "en")

    def __call__(self, lang: str) -> str:
        return words.template(self.key, check_lang(lang))


Text = Said
"""A text in both languages (the name the records' annotations use)."""
