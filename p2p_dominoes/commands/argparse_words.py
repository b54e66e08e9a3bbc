"""argparse's own messages (a bad command line) in the user's language, from the catalogues.

argparse builds every message it prints from an English %-format template passed through
`gettext.gettext`, bound in its module as ``argparse._`` (and ``argparse.ngettext`` for "expected
%s argument(s)"). `speaking(lang)` swaps those two names, while the command line is read, for
lookups in our catalogues (keys ``argparse.<name>``, ``{field}`` texts like every other entry;
they become %-templates here, so argparse fills them as it always does). Only the messages a
user can meet are in `TEMPLATES`; any other template (the --help headings, errors that are bugs
in our own parser) stays argparse's English, so a help screen is never half translated. We swap
the names rather than install a gettext domain because argparse asks the process-wide default
domain, which belongs to whoever embeds us, and the swap ends when the command line is read.

The language is the one the command line asks for with ``--lang`` (`language_of`), the option
every command that speaks has; without it, English, as for everything else the CLI prints.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from string import Formatter
from typing import Final

from p2p_dominoes.words import LANGUAGES, plural_template, template

USAGE_ERROR: Final = "%(prog)s: %(message)s (see: %(prog)s --help)"
"""The one line of a bad command line (cli.py's parser): argparse's message, and where to look."""

TEMPLATES: Final[dict[str, tuple[str, dict[str, str]]]] = {
    USAGE_ERROR: ("argparse.usage_error", {"prog": "%(prog)s", "message": "%(message)s"}),
    "argument %(argument_name)s: %(message)s": (
        "argparse.argument",
        {"argument_name": "%(argument_name)s", "message": "%(message)s"},
    ),
    "unknown parser %(parser_name)r (choices: %(choices)s)": (
        "argparse.unknown_parser",
        {"parser_name": "%(parser_name)r", "choices": "%(choices)s"},
    ),
    "can't open '%(filename)s': %(error)s": (
        "argparse.cannot_open",
        {"filename": "%(filename)s", "error": "%(error)s"},
    ),
    "unrecognized arguments: %s": ("argparse.unrecognized", {"arguments": "%s"}),
    "not allowed with argument %s": ("argparse.not_allowed_with", {"argument": "%s"}),
    "ignored explicit argument %r": ("argparse.ignored_explicit", {"value": "%r"}),
    "the following arguments are required: %s": ("argparse.required", {"arguments": "%s"}),
    "one of the arguments %s is required": ("argparse.one_required", {"arguments": "%s"}),
    "expected one argument": ("argparse.expected_one", {}),
    "expected at most one argument": ("argparse.expected_at_most_one", {}),
    "expected at least one argument": ("argparse.expected_at_least_one", {}),
    "ambiguous option: %(option)s could match %(matches)s": (
        "argparse.ambiguous",
        {"option": "%(option)s", "matches": "%(matches)s"},
    ),
    "unexpected option string: %s": ("argparse.unexpected_option", {"option": "%s"}),
    "invalid %(type)s value: %(value)r": (
        "argparse.invalid_value",
        {"type": "%(type)s", "value": "%(value)r"},
    ),
    "invalid choice: %(value)r (choose from %(choices)s)": (
        "argparse.invalid_choice",
        {"value": "%(value)r", "choices": "%(choices)s"},
    ),
}
"""Each argparse template a user can meet: its catalogue key, and the %-conversion that takes
the place of each ``{field}`` of the catalogue's text."""

PLURAL_TEMPLATES: Final[dict[str, tuple[str, dict[str, str]]]] = {
    "expected %s argument": ("argparse.expected_n", {"n": "%s"}),
}
"""argparse's one plural message (its singular template), the same way."""


def percent_template(text: str, conversions: dict[str, str]) -> str:
    """`text`, a catalogue ``{field}`` text, as the %-template argparse fills: each field by its
    conversion, a literal ``%`` doubled."""
    out = []
    for literal, name, _, _ in Formatter().parse(text):
        out.append(literal.replace("%", "%%"))
        if name is not None:
            out.append(conversions[name])
    return "".join(out)


def language_of(argv: Sequence[str]) -> str:
    """The language a command line asks for (``--lang ru`` or ``--lang=ru``), else English."""
    asked = "en"
    for i, word in enumerate(argv):
        if word == "--lang" and i + 1 < len(argv):
            asked = argv[i + 1]
        elif word.startswith("--lang="):
            asked = word.split("=", 1)[1]
    return asked if asked in LANGUAGES else "en"


def translator(lang: str) -> tuple[Callable[[str], str], Callable[[str, str, int], str]]:
    """argparse's `_` and `ngettext` for `lang`: a known template from the catalogue, any other
    as argparse wrote it."""

    def gettext(message: str) -> str:
        if message not in TEMPLATES:
            return message
        key, conversions = TEMPLATES[message]
        return percent_template(template(key, lang), conversions)

    def ngettext(singular: str, plural: str, count: int) -> str:
        if singular not in PLURAL_TEMPLATES:
            return singular if count == 1 else plural
        key, conversions = PLURAL_TEMPLATES[singular]
        return percent_template(plural_template(key, count, lang), conversions)

    return gettext, ngettext


def usage_error(prog: str, message: str) -> str:
    """The one line of a bad command line, in the language argparse speaks now."""
    said: str = vars(argparse)["_"](USAGE_ERROR) % {"prog": prog, "message": message}
    return said


@contextmanager
def speaking(lang: str) -> Iterator[None]:
    """While open, argparse says its messages in `lang` (see the module's docstring)."""
    names = vars(argparse)
    before = names["_"], names["ngettext"]
    names["_"], names["ngettext"] = translator(lang)
    try:
        yield
    finally:
        names["_"], names["ngettext"] = before
