"""The words a player reads, in English and Russian, from one gettext catalogue per language
(`en.po`, `ru.po` here): `line(key, lang, **values)` and `plural(key, count, lang, **values)`."""

from p2p_dominoes.words.catalogue import (
    LANGUAGES,
    keys,
    language,
    line,
    plural,
    plural_forms,
    plural_template,
    template,
    texts,
)

__all__ = [
    "LANGUAGES",
    "keys",
    "language",
    "line",
    "plural",
    "plural_forms",
    "plural_template",
    "template",
    "texts",
]
