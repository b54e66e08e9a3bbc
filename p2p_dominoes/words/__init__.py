"""The words a player reads, in English and Russian, from one gettext catalogue per language
(`en.po`, `ru.po` here): `line(key, lang, **values)` and `plural(key, count, lang, **values)`;
a lower layer's reason as a `Phrase`, read again in a player's language with `reason_in`."""

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
from p2p_dominoes.words.phrases import Phrase, phrase, phrase_count, reason_in, reason_of

__all__ = [
    "LANGUAGES",
    "Phrase",
    "keys",
    "language",
    "line",
    "phrase",
    "phrase_count",
    "plural",
    "plural_forms",
    "plural_template",
    "reason_in",
    "reason_of",
    "template",
    "texts",
]
