"""The catalogues (p2p_dominoes/words/en.po, ru.po): every key in both languages with the same
fields, looked up the gettext way, with Russian plurals right."""

from __future__ import annotations

import subprocess
import sys

import pytest

from p2p_dominoes.words import LANGUAGES, keys, line, plural, template
from p2p_dominoes.words.catalogue import catalogue
from tests.words.scan import catalogues, entries, problems

LEAVES_OUT: dict[str, set[str]] = {"engine.check.n14": {"N"}}
"""Fields a language may leave out: the Russian of check row N14 says "such an end total"
without its number (the rules check's words, kept to the byte)."""


def test_every_key_is_in_both_languages_with_the_same_fields() -> None:
    by_lang = {lang: entries(found) for lang, found in catalogues().items()}
    assert set(by_lang) == set(LANGUAGES)
    assert problems(by_lang, LEAVES_OUT) == []
    assert [found.split(": ")[:2] for found in problems(by_lang)] == [
        ["engine.check.n14", "fields differ"]
    ]  # the allowance is needed, and is the only one
    assert keys("en") == keys("ru") == set(by_lang["en"])


def test_a_key_missing_in_one_language_is_found() -> None:
    english = {"net.seated": ("Seated at {seat}",), "net.lost": ("Lost {name}.",)}
    russian = {"net.seated": ("Место {seat}",)}
    assert problems({"en": english, "ru": russian}) == ["net.lost: missing in ru"]
    assert problems({"en": russian, "ru": english}) == ["net.lost: missing in en"]


def test_fields_that_differ_and_empty_texts_are_found() -> None:
    english = {"net.lost": ("Lost {name}.",), "x.n": ("{n} hand", "{n} hands")}
    russian = {"net.lost": ("Пропал {who}.",), "x.n": ("{n} сдача", "", "{n} сдач")}
    found = problems({"en": english, "ru": russian})
    assert found[0] == "net.lost: fields differ: {'en': {'name'}, 'ru': {'who'}}"
    assert found[1:] == ["x.n: empty in ru"]
    assert problems({"en": {"k.a": ("a",)}, "ru": {"k.a": ("a", "b", "c")}}) == [
        "k.a: a plural in one language only"
    ]


def test_the_plural_forms_are_declared() -> None:
    found = catalogues()
    assert found["en"].num_plurals == 2
    assert found["ru"].num_plurals == 3
    for lang, catalog in found.items():
        for key, texts in entries(catalog).items():
            assert len(texts) in (1, catalog.num_plurals), (lang, key)


@pytest.mark.parametrize(
    ("count", "words"),
    [
        (1, "1 сдача проверена"),
        (2, "2 сдачи проверены"),
        (5, "5 сдач проверено"),
        (11, "11 сдач проверено"),
        (21, "21 сдача проверена"),
        (22, "22 сдачи проверены"),
        (25, "25 сдач проверено"),
        (0, "0 сдач проверено"),
        (111, "111 сдач проверено"),
        (104, "104 сдачи проверены"),
    ],
)
def test_russian_plurals(count: int, words: str) -> None:
    assert plural("verify.hands_audited", count, "ru") == words


def test_english_plurals() -> None:
    said = [plural("export.audited_hands", n, "en") for n in (0, 1, 2, 21)]
    assert said == ["0 audited hands", "1 audited hand", "2 audited hands", "21 audited hands"]


def test_a_line_in_each_language_and_english_for_any_other() -> None:
    assert line("net.lost", "ru", name="Bob") == "Пропала связь с Bob."
    assert line("net.lost", "en", name="Bob") == "Lost the connection to Bob."
    assert line("net.lost", "de", name="Bob") == "Lost the connection to Bob."
    assert template("net.lost", "ru") == "Пропала связь с {name}."


def test_an_unknown_key_is_an_error_not_the_key_itself() -> None:
    with pytest.raises(KeyError, match="no line 'net.nothing_like_it'"):
        line("net.nothing_like_it", "en")
    with pytest.raises(KeyError, match="no plural entry 'net.lost'"):
        plural("net.lost", 2, "ru", name="Bob")
    with pytest.raises(KeyError, match="no line 'verify.hands_audited'"):
        line("verify.hands_audited", "ru")


def test_a_missing_field_is_an_error() -> None:
    with pytest.raises(KeyError, match="name"):
        line("net.lost", "en")


def test_each_catalogue_is_read_once() -> None:
    assert catalogue("ru") is catalogue("ru")
    assert catalogue("de") is catalogue("en")


def test_the_catalogues_are_read_on_first_use_not_on_import() -> None:
    probe = (
        "import p2p_dominoes.ui.terminal, p2p_dominoes.net.said\n"
        "from p2p_dominoes.words import catalogue, line\n"
        "print(catalogue._read.cache_info().currsize)\n"
        "line('net.lost', 'ru', name='x')\n"
        "line('net.lost', 'ru', name='y')\n"
        "print(catalogue._read.cache_info().currsize)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.split() == ["0", "1"]
