"""The words a player reads, looked up by a stable key in one gettext catalogue per language.

The catalogues are `en.po` and `ru.po` beside this module (docs/contributing.md, "Words"): a
message id is a key such as ``net.seated`` (`<area>.<name>`), its translation the text, with
``{name}`` fields for `str.format`. A count that changes the words (Russian has three forms:
one for 1, 21, 31; one for 2-4, 22-24; one for 5-20, 25) is a plural entry (``msgid_plural``,
the catalogue's ``Plural-Forms``). Each catalogue is read with Babel once per process, on first
use, compiled in memory and looked up through the standard library's
`gettext.GNUTranslations`, so lookups and plural choice are plain gettext.

Pure: reads only this package's own files (no I/O beyond them, no network, no trio).
"""

from __future__ import annotations

import gettext
import io
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Final

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

LANGUAGES: Final = ("en", "ru")
"""The languages with a catalogue; English is the default for any other."""


@dataclass(frozen=True)
class Catalogue:
    """One language's catalogue: gettext lookups and the keys it holds."""

    lang: str
    translations: gettext.GNUTranslations
    lines: frozenset[str]
    """The keys of plain lines."""
    plurals: frozenset[str]
    """The keys of plural entries."""
    texts: Mapping[str, tuple[str, ...]]
    """Each key's text (a line) or texts (a plural entry's forms, in the catalogue's order)."""
    plural_forms: str
    """The catalogue's ``Plural-Forms`` header (``nplurals=...; plural=...;``)."""


def language(lang: str) -> str:
    """The catalogue's language for `lang`: "ru" for Russian, else English."""
    return "ru" if lang == "ru" else "en"


def catalogue(lang: str) -> Catalogue:
    """The catalogue of `lang` (English unless "ru"), read and compiled once per process."""
    return _read(language(lang))


@cache
def _read(lang: str) -> Catalogue:
    with resources.files(__package__).joinpath(f"{lang}.po").open("rb") as source:
        parsed = read_po(source, locale=lang, abort_invalid=True)
    lines, plurals = set(), set()
    texts: dict[str, tuple[str, ...]] = {}
    for message in parsed:
        if not message.id:
            continue  # the header
        if isinstance(message.id, tuple):
            plurals.add(str(message.id[0]))
            texts[str(message.id[0])] = tuple(str(form) for form in message.string or ())
        else:
            lines.add(str(message.id))
            texts[str(message.id)] = (str(message.string),)
    compiled = io.BytesIO()
    write_mo(compiled, parsed)
    compiled.seek(0)
    translations = gettext.GNUTranslations(compiled)
    return Catalogue(
        lang, translations, frozenset(lines), frozenset(plurals), texts, parsed.plural_forms
    )


def template(key: str, lang: str) -> str:
    """The text of the line `key` in `lang`, its ``{fields}`` not filled; KeyError if the
    catalogue has no such line."""
    found = catalogue(lang)
    if key not in found.lines:
        raise KeyError(f"no line {key!r} in the {found.lang} catalogue")
    return found.translations.gettext(key)


def line(key: str, lang: str, /, **values: object) -> str:
    """The line `key` in `lang` ("ru", else English) with its ``{fields}`` filled from
    `values`; KeyError if the catalogue has no such line."""
    return template(key, lang).format(**values)


def plural(key: str, count: int, lang: str, /, **values: object) -> str:
    """The plural entry `key` in `lang` in the form for `count` (the catalogue's `Plural-Forms`
    choose it), its ``{n}`` filled with `count` and other fields from `values`; KeyError if the
    catalogue has no such plural entry."""
    found = catalogue(lang)
    if key not in found.plurals:
        raise KeyError(f"no plural entry {key!r} in the {found.lang} catalogue")
    return found.translations.ngettext(key, key, count).format(n=count, **values)


def plural_template(key: str, count: int, lang: str) -> str:
    """The form of the plural entry `key` in `lang` for `count`, its ``{fields}`` not filled;
    KeyError if the catalogue has no such plural entry."""
    found = catalogue(lang)
    if key not in found.plurals:
        raise KeyError(f"no plural entry {key!r} in the {found.lang} catalogue")
    return found.translations.ngettext(key, key, count)


def keys(lang: str) -> frozenset[str]:
    """Every key of `lang`'s catalogue, lines and plural entries."""
    found = catalogue(lang)
    return found.lines | found.plurals


def texts(lang: str, prefix: str) -> tuple[dict[str, str], dict[str, tuple[str, ...]]]:
    """The lines and the plural entries (each with its forms) of `lang`'s catalogue whose keys
    start with `prefix`, keyed without it: what the web page is sent (ui/web/page_words.py)."""
    found = catalogue(lang)
    chosen = {
        key[len(prefix) :]: text for key, text in found.texts.items() if key.startswith(prefix)
    }
    lines = {key: text[0] for key, text in chosen.items() if prefix + key in found.lines}
    plurals = {key: text for key, text in chosen.items() if prefix + key in found.plurals}
    return lines, plurals


def plural_forms(lang: str) -> str:
    """The ``Plural-Forms`` header of `lang`'s catalogue."""
    return catalogue(lang).plural_forms
