"""Every line the code says by a written-out key is given every field its words use, in both
languages: a field missing is a KeyError at the moment the line is said, which can be deep in a
table's run (a page crashed so when two branches met: one gave the "went on" lines the record's
path, the other said them without it)."""

from __future__ import annotations

import ast
import string
from collections.abc import Iterator
from pathlib import Path

from p2p_dominoes.words import LANGUAGES, keys, plural_template, template

PACKAGE = Path(__file__).resolve().parents[2] / "p2p_dominoes"

AREAS = {"said": "net.", "setup_said": "setup.", "line": "", "plural": ""}
"""The lookups with the key first and the fields as keywords, and the area each one adds."""


def _lookups(source: str) -> Iterator[tuple[int, str, set[str], str]]:
    """(line number, key, fields given, function) of each lookup with a written-out key."""
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
        first = node.args[0]
        if name not in AREAS or not isinstance(first, ast.Constant):
            continue
        if not isinstance(first.value, str) or any(k.arg is None for k in node.keywords):
            continue  # a key made at run time, or fields passed as **values
        given = {k.arg for k in node.keywords if k.arg is not None}
        yield node.lineno, AREAS[name] + first.value, given, name


def _fields(text: str) -> set[str]:
    return {
        field.split(".")[0].split("[")[0]
        for _, field, _, _ in string.Formatter().parse(text)
        if field
    }


def missing_fields(source: str, where: str) -> list[str]:
    """Each lookup in `source` that leaves out a field its words use, in either language."""
    known = keys("en") & keys("ru")
    found = []
    for number, key, given, name in _lookups(source):
        if key not in known:
            continue  # tests/words/test_keys_used.py says so
        for lang in LANGUAGES:
            if name == "plural":  # every form: one, few, many
                texts = [plural_template(key, count, lang) for count in (1, 2, 5)]
                needed = set().union(*map(_fields, texts)) - given - {"n"}
            else:
                needed = _fields(template(key, lang)) - given
            if needed:
                found.append(f"{where}:{number} {key} [{lang}] needs {sorted(needed)}")
    return found


def test_every_line_said_by_its_key_is_given_all_its_fields() -> None:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        found += missing_fields(path.read_text("utf-8"), str(path.relative_to(PACKAGE)))
    assert found == []


def test_the_scan_sees_a_missing_field() -> None:
    source = 'said("went_on", lang, bot=name)\nsaid("went_on", lang, bot=name, record="")\n'
    assert missing_fields(source, "m.py") == [
        "m.py:1 net.went_on [en] needs ['record']",
        "m.py:1 net.went_on [ru] needs ['record']",
    ]
