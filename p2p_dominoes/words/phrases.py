"""A catalogue line with its values, carried as its English text: `Phrase`.

A lower layer (the engine, the mental-poker checks, the session's validators) says why it
refused something as a `Phrase`: to every caller it is the English string it always was (an
exception's message, a log line, a protocol reason, the bytes of a record are unchanged), and
a caller that shows it to a player reads it again in the player's language with
`reason_in(reason, lang)`. A `Phrase` among another phrase's values is read in the same
language, and so is an exception given as a value (its message, when that is a `Phrase`).
Text that came from elsewhere (a peer's own words, an operating system's error) is a plain
`str` and is shown as it is.

Pure: reads only the catalogues.
"""

from __future__ import annotations

from typing import Any

from p2p_dominoes.words.catalogue import language, line, plural


class Phrase(str):
    """The catalogue line `key` filled with `values`, as its English text; `in_(lang)` reads
    it in another language. Build one with `phrase` or `phrase_count`."""

    key: str
    values: dict[str, object]
    number: int | None

    def __new__(cls, key: str, count: int | None = None, /, **values: object) -> Phrase:
        english = line(key, "en", **values) if count is None else plural(key, count, "en", **values)
        self = super().__new__(cls, english)
        self.key = key
        self.values = values
        self.number = count
        return self

    def __getnewargs_ex__(self) -> tuple[tuple[Any, ...], dict[str, Any]]:
        # A copy or a pickle (an exception sent between processes) is built from the key.
        return (self.key, self.number), self.values

    def in_(self, lang: str) -> str:
        """The phrase in `lang` ("ru", else English); phrases among its values too."""
        if language(lang) == "en":
            return str(self)
        values = {
            name: reason_in(value, lang) if isinstance(value, (Phrase, BaseException)) else value
            for name, value in self.values.items()
        }
        if self.number is None:
            return line(self.key, lang, **values)
        return plural(self.key, self.number, lang, **values)


def phrase(key: str, /, **values: object) -> Phrase:
    """The line `key` filled with `values` (KeyError if the catalogue has no such line)."""
    return Phrase(key, None, **values)


def phrase_count(key: str, count: int, /, **values: object) -> Phrase:
    """The plural entry `key` in the form for `count` (its ``{n}``), filled with `values`."""
    return Phrase(key, count, **values)


def reason_in(reason: object, lang: str) -> str:
    """`reason` for a player reading `lang`: a `Phrase`, or an exception whose one argument
    is one (or whose `said` is one), in that language; any other text (a peer's words, an
    operating system's error) or exception as it is."""
    if isinstance(reason, BaseException):
        args, whole = reason.args, getattr(reason, "said", None)
        if isinstance(whole, Phrase):  # an error that says itself as one line (InvalidMessage)
            reason = whole
        else:
            reason = args[0] if len(args) == 1 and isinstance(args[0], Phrase) else str(reason)
    if isinstance(reason, Phrase):
        return reason.in_(lang)
    return str(reason)


def reason_of(error: BaseException) -> str:
    """Why `error` happened, kept to be read later in a player's language: its `Phrase` itself
    when it carries one as its one argument, else its text."""
    said = error.args[0] if len(error.args) == 1 else None
    return said if isinstance(said, Phrase) else str(error)
