"""The language of this command line, for the CLI's own lines about bad input.

`cli.main` reads ``--lang`` (`argparse_words.language_of`) before argparse parses anything and
holds it here while the command line is read and while the command runs (`speaking_in`).
argparse calls our ``type=`` functions (arguments.py, peer_args.py, ...) with the typed text
alone, and helpers such as `verify.read_input` take a path alone, so they cannot be handed the
language; they ask `command_language()` instead and say their line with
``line("command.…", command_language(), …)``. A context variable rather than a plain global:
it is set and reset around one call of `main` (tests call `main` many times in one process),
and the tasks trio starts inherit it. Outside `main` it is English, as the CLI has always been.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Final

from p2p_dominoes.words import LANGUAGES

_LANGUAGE: Final[ContextVar[str]] = ContextVar("p2p_dominoes_command_language", default="en")


def command_language() -> str:
    """The language this command line asked for with ``--lang`` ("en" without it)."""
    return _LANGUAGE.get()


@contextmanager
def speaking_in(lang: str) -> Iterator[None]:
    """While open, `command_language()` is `lang` (English for a language we do not have)."""
    token = _LANGUAGE.set(lang if lang in LANGUAGES else "en")
    try:
        yield
    finally:
        _LANGUAGE.reset(token)
