"""One text in both languages: `Said`, a catalogue entry (p2p_dominoes/words, by its key), or
`Words`, the two strings inline (the form the labels not yet moved to the catalogues take);
`Text` is either, called with a language."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from p2p_dominoes import words
from p2p_dominoes.engine.errors import InvalidRecord

LANGUAGES: Final = ("en", "ru")


@dataclass(frozen=True)
class Words:
    """One text in both languages."""

    ru: str
    en: str

    def __call__(self, lang: str) -> str:
        return self.ru if check_lang(lang) == "ru" else self.en


def check_lang(lang: str) -> str:
    """`lang` when it is one of LANGUAGES, else a clear error."""
    if lang not in LANGUAGES:
        raise InvalidRecord(f"unknown language {lang!r} (languages: en, ru)")
    return lang


@dataclass(frozen=True)
class Said:
    """One text in both languages, kept in the catalogues under `key` (``engine.…``)."""

    key: str

    @property
    def ru(self) -> str:
        return words.line(self.key, "ru")

    @property
    def en(self) -> str:
        return words.line(self.key, "en")

    def __call__(self, lang: str) -> str:
        return words.line(self.key, check_lang(lang))


Text = Words | Said
"""A text in both languages, inline or in the catalogues."""

W = Words
