"""A bad command line is said in the language its --lang asks for: argparse's own messages
come from the catalogues (commands/argparse_words.py), still one line, exit status 2."""

from __future__ import annotations

import argparse
import subprocess
import sys

import pytest

from p2p_dominoes.commands.argparse_words import (
    PLURAL_TEMPLATES,
    TEMPLATES,
    language_of,
    percent_template,
    speaking,
    translator,
)
from p2p_dominoes.words import template


def _run(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "p2p_dominoes", *argv],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )


@pytest.mark.parametrize(
    ("argv", "russian", "english"),
    [
        (
            ["host", "--seats", "x"],
            "p2p-dominoes: непонятные аргументы: --seats x (подробнее: p2p-dominoes --help)",
            "p2p-dominoes: unrecognized arguments: --seats x (see: p2p-dominoes --help)",
        ),
        (
            ["host", "--players", "5"],
            "p2p-dominoes host: аргумент --players: недопустимый вариант: 5 (выберите из 2, 3, 4) "
            "(подробнее: p2p-dominoes host --help)",
            "p2p-dominoes host: argument --players: invalid choice: 5 (choose from 2, 3, 4) "
            "(see: p2p-dominoes host --help)",
        ),
        (
            ["host", "--name"],
            "p2p-dominoes host: аргумент --name: нужно одно значение "
            "(подробнее: p2p-dominoes host --help)",
            "p2p-dominoes host: argument --name: expected one argument "
            "(see: p2p-dominoes host --help)",
        ),
        (
            ["replay"],
            "p2p-dominoes replay: не хватает обязательных аргументов: file "
            "(подробнее: p2p-dominoes replay --help)",
            "p2p-dominoes replay: the following arguments are required: file "
            "(see: p2p-dominoes replay --help)",
        ),
    ],
)
def test_a_bad_command_line_in_russian_and_in_english(
    argv: list[str], russian: str, english: str
) -> None:
    for lang, line in (("ru", russian), ("en", english)):
        done = _run(*argv[:1], "--lang", lang, *argv[1:])
        assert (done.returncode, done.stdout, done.stderr) == (2, "", line + "\n"), lang
    plain = _run(*argv)  # no --lang: English, as everything else the CLI prints
    assert (plain.returncode, plain.stderr) == (2, english + "\n")


def test_an_invalid_value_in_russian_with_lang_written_with_equals() -> None:
    done = _run("simulate", "--lang=ru", "--hands", "many")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1
    assert done.stderr.startswith("p2p-dominoes simulate: аргумент --hands: ")


def test_help_is_not_half_translated() -> None:
    done = _run("host", "--lang", "ru", "--help")
    assert done.returncode == 0
    assert done.stdout.startswith("usage: p2p-dominoes host")
    assert "options:" in done.stdout


def test_the_language_of_a_command_line() -> None:
    assert language_of(["host", "--lang", "ru"]) == "ru"
    assert language_of(["host", "--lang=ru", "--seats", "x"]) == "ru"
    assert language_of(["host", "--lang", "de"]) == "en"
    assert language_of(["host", "--lang"]) == "en"
    assert language_of(["host"]) == "en"


def test_every_template_is_argparses_own_and_in_both_catalogues() -> None:
    """Each English catalogue text, turned into a %-template, is argparse's template to the
    letter (so English output is unchanged), and Russian has the same fields."""
    for english, (key, conversions) in TEMPLATES.items():
        assert percent_template(template(key, "en"), conversions) == english
        assert percent_template(template(key, "ru"), conversions) != english
    say, say_n = translator("ru")
    for singular, _ in PLURAL_TEMPLATES.items():
        forms = [say_n(singular, singular + "s", n) % n for n in (1, 2, 5)]
        assert forms == ["нужно 1 значение", "нужно 2 значения", "нужно 5 значений"]
    english_n = translator("en")[1]
    assert (
        english_n("expected %s argument", "expected %s arguments", 2) % 2 == "expected 2 arguments"
    )
    assert say("usage: ") == "usage: "  # not a message a bad command line shows


def test_a_percent_in_a_translation_stays_a_percent() -> None:
    assert percent_template("100% {value}", {"value": "%r"}) % "x" == "100% 'x'"


def test_speaking_ends_with_the_command_line() -> None:
    before = vars(argparse)["_"]
    with speaking("ru"):
        assert vars(argparse)["_"]("expected one argument") == "нужно одно значение"
    assert vars(argparse)["_"] is before
