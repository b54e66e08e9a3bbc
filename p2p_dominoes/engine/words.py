"""One text in both languages (`Words`): the form every label of the rules takes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

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


W = Words
