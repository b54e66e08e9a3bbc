"""The join code: three words a host with a person at it shows beside its table, and a joiner
gives to be asked about at all.

The code is three bytes from ``secrets`` (24 bits), shown as three words from the table code's
word lists (`session.table_code.word_lists`: English and Russian, the same meaning at the same
index) and as digits, the words' indices (``017-203-114``), for a table that mixes languages.
A joiner may type either language's words (any case, the Russian yo as ye), a word's unique
start, or the digits; all mean the same three bytes, which travel inside the joiner's encrypted
`join` (PROTOCOL.md §13) and are compared in constant time. Why three words and what a guess
costs: docs/threat-model.md, "Join code".

Pure: no I/O, no trio. The code is a secret of the lobby: never put it in a log line.
"""

from __future__ import annotations

import hmac
import re
import secrets
from typing import Final

from p2p_dominoes.session.table_code import LANGUAGES, word_lists
from p2p_dominoes.words import line, plural

JOIN_CODE_BYTES: Final = 3
"""Three words: 2^24 (16.8 million) codes."""

_SEPARATORS: Final = re.compile(r"[\s,;.\-_/]+")


_YO: Final = "\N{CYRILLIC SMALL LETTER IO}"
_YE: Final = "\N{CYRILLIC SMALL LETTER IE}"
"""Russian words are often typed with ye for yo: both read as ye."""


class JoinCodeError(ValueError):
    """Text that is not a join code: the message says why in English, for one line to the user;
    `said(lang)` says it in a player's language (the catalogues' ``join_code.*``)."""

    def __init__(self, key: str, count: int | None = None, **values: object) -> None:
        self.key, self.count, self.values = key, count, values
        super().__init__(self.said("en"))

    def said(self, lang: str) -> str:
        """Why the text is not a join code, in `lang` ("ru", else English)."""
        if self.count is None:
            return line(self.key, lang, **self.values)
        return plural(self.key, self.count, lang, **self.values)


def new_join_code() -> bytes:
    """A fresh join code (``JOIN_CODE_BYTES`` bytes from ``secrets``)."""
    return secrets.token_bytes(JOIN_CODE_BYTES)


def join_code_words(code: bytes, lang: str = "en") -> str:
    """The code as words in ``lang`` ("ru", else English), e.g. ``"apple river moon"``."""
    words = word_lists()["ru" if lang == "ru" else "en"]
    return " ".join(words[byte] for byte in code)


def join_code_digits(code: bytes) -> str:
    """The code as each word's index, e.g. ``"017-203-114"`` (the same in any language)."""
    return "-".join(f"{byte:03d}" for byte in code)


def join_code_line(code: bytes, lang: str = "en") -> str:
    """What a screen shows: the words in ``lang``, then the digits, e.g.
    ``"apple river moon (000-123-045)"``."""
    return f"{join_code_words(code, lang)} ({join_code_digits(code)})"


def _normal(word: str) -> str:
    return word.casefold().replace(_YO, _YE)


def _byte_of(token: str) -> int:
    """One typed word (either language, or its unique start) or index → the byte it stands for."""
    if token.isdigit():
        number = int(token)
        if number > 255:
            raise JoinCodeError("join_code.not_a_number", token=token)
        return number
    lists = word_lists()
    found = {i for lang in LANGUAGES for i, w in enumerate(lists[lang]) if _normal(w) == token}
    if not found:  # a word's start, as completion would finish it
        found = {
            i
            for lang in LANGUAGES
            for i, w in enumerate(lists[lang])
            if _normal(w).startswith(token)
        }
    if len(found) == 1:
        return found.pop()
    if not found:
        raise JoinCodeError("join_code.not_a_word", token=token)
    raise JoinCodeError("join_code.several", token=token)


def parse_join_code(text: str) -> bytes:
    """The code that ``text`` means: three words (English or Russian, any case, a word's unique
    start), or three numbers (``017-203-114``); JoinCodeError otherwise."""
    tokens = [t for t in _SEPARATORS.split(_normal(text.strip())) if t]
    if len(tokens) != JOIN_CODE_BYTES:
        raise JoinCodeError("join_code.count", JOIN_CODE_BYTES, given=len(tokens))
    if not all(t.isdigit() or t.isalpha() for t in tokens):
        raise JoinCodeError("join_code.words_or_numbers")
    return bytes(_byte_of(t) for t in tokens)


def codes_match(given: bytes | None, wanted: bytes) -> bool:
    """Whether a joiner's code is the host's, in constant time (no code given: no)."""
    if given is None:
        return False
    return hmac.compare_digest(given, wanted)
