"""What the words tests read: the catalogues as Babel parses them, and the keys the code uses
(found in its syntax tree, not by running it)."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from string import Formatter
from typing import Final

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from p2p_dominoes.words import LANGUAGES

PACKAGE: Final = Path(__file__).resolve().parent.parent.parent / "p2p_dominoes"

LOOKUPS: Final = {
    "line": "",
    "plural": "",
    "template": "",
    "said": "net.",
    "setup_said": "setup.",
    "Said": "",
    "Say": "",
    "phrase": "",
    "phrase_count": "",
}
"""The functions that take a catalogue key first, and what each puts before the key it is
given (`said("seated", …)` looks up ``net.seated``; `Said("engine.…")`, engine/words.py, keeps a
key for a rule's label; `Say("engine.check.…")` one for a check row's placeholder; `phrase(…)`
and `phrase_count(…)` a lower layer's reason, words/phrases.py)."""

KEY: Final = re.compile(r"[a-z][a-z0-9_]*(\.[a-z0-9_]+)+")
"""How a key looks: `<area>.<name>` in lower case (a name may have parts: ``net.os.reset``)."""


def read_catalogue(lang: str) -> Catalog:
    """The shipped catalogue of `lang`, as Babel reads it."""
    with resources.files("p2p_dominoes.words").joinpath(f"{lang}.po").open("rb") as source:
        return read_po(source, locale=lang, abort_invalid=True)


def catalogues() -> dict[str, Catalog]:
    return {lang: read_catalogue(lang) for lang in LANGUAGES}


def key_of(message_id: str | tuple[str, ...]) -> str:
    return message_id[0] if isinstance(message_id, tuple) else message_id


def entries(catalog: Catalog) -> dict[str, tuple[str, ...]]:
    """Each key and its texts (one, or one for each plural form); the header left out."""
    found: dict[str, tuple[str, ...]] = {}
    for message in catalog:
        if not message.id:
            continue
        texts = message.string if isinstance(message.string, tuple) else (message.string,)
        found[key_of(message.id)] = tuple(texts)
    return found


def fields(text: str) -> set[str]:
    """The ``{field}`` names of a format text."""
    return {name for _, name, _, _ in Formatter().parse(text) if name}


def problems(
    by_lang: dict[str, dict[str, tuple[str, ...]]], leaves_out: Mapping[str, set[str]] = {}
) -> list[str]:
    """What is wrong between the languages' entries: a key one language lacks, an empty text,
    a plain line in one and a plural in the other, or fields that differ (`leaves_out`: fields
    of a key that a language may say without, such as a number its sentence does not name)."""
    found = []
    every = set().union(*by_lang.values())
    for key in sorted(every):
        present = {lang: texts[key] for lang, texts in by_lang.items() if key in texts}
        for lang in sorted(set(by_lang) - set(present)):
            found.append(f"{key}: missing in {lang}")
        for lang, texts in sorted(present.items()):
            if not all(texts):
                found.append(f"{key}: empty in {lang}")
        if len({len(texts) > 1 for texts in present.values()}) > 1:
            found.append(f"{key}: a plural in one language only")
        names = {
            lang: set().union(*(fields(t) for t in texts), leaves_out.get(key, set()))
            for lang, texts in present.items()
        }
        if len({frozenset(n) for n in names.values()}) > 1:
            found.append(f"{key}: fields differ: {names}")
    return found


@dataclass(frozen=True)
class Use:
    """A key the code names, and where."""

    key: str
    where: str


def _call_name(node: ast.Call) -> str | None:
    """The lookup a call makes: `line(…)`, `words.line(…)`, `said(…)` (a method called
    `said`, like `JoinCodeError.said(lang)`, is not the network's `said`)."""
    if isinstance(node.func, ast.Name):
        return node.func.id
    if isinstance(node.func, ast.Attribute) and LOOKUPS.get(node.func.attr) == "":
        return node.func.attr
    return None


def uses_in(source: str, where: str, areas: Iterable[str]) -> Iterator[Use]:
    """The keys a module's code names: the first argument, when it is written out, of every call
    to a lookup (`LOOKUPS`), and, in a module that uses the catalogues, every string that is
    a key of one of `areas` (a key kept in a table, like verdict.py's tasks)."""
    tree = ast.parse(source)
    prefixed = tuple(f"{area}." for area in areas)
    uses_words = "p2p_dominoes.words" in source or "p2p_dominoes import words" in source
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and node.args:
            name = _call_name(node)
            first = node.args[0]
            if name in LOOKUPS and isinstance(first, ast.Constant) and isinstance(first.value, str):
                yield Use(LOOKUPS[name] + first.value, f"{where}:{node.lineno}")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and uses_words:
            text = node.value
            if KEY.fullmatch(text) and text.startswith(prefixed):
                yield Use(text, f"{where}:{node.lineno}")


def package_uses(areas: Iterable[str]) -> list[Use]:
    """Every key the package's code names (`uses_in` over every module)."""
    areas = tuple(areas)
    return [
        use
        for path in sorted(PACKAGE.rglob("*.py"))
        for use in uses_in(path.read_text("utf-8"), str(path.relative_to(PACKAGE.parent)), areas)
    ]


STATIC: Final = PACKAGE / "ui" / "web" / "static"
PAGE_PREFIX: Final = "page_js."
"""The catalogue keys of the page's own words (ui/web/page_words.py serves them)."""

_PAGE_NAME: Final = re.compile(r"""["'`]([A-Za-z_]+)["'`]""")
_PAGE_CALL: Final = re.compile(r"""\bt\(\s*["'`]([A-Za-z_]+)["'`]""")
_PAGE_ATTRIBUTE: Final = re.compile(r'data-i18n(?:-label)?="([A-Za-z_]+)"')
_PAGE_MADE: Final = re.compile(r"`([a-z_]+)\$\{")


def page_sources() -> dict[str, str]:
    """The page's scripts and its HTML pages, by file name (strings.js, the loader, left out).
    The house-rules editor names its words without their `editor_` prefix
    (tests/ui/test_rules_editor_text.py checks those both ways)."""
    paths = [*sorted(STATIC.glob("*.js")), STATIC / "index.html", STATIC / "rules.html"]
    skip = ("strings.js",)
    return {path.name: path.read_text("utf-8") for path in paths if path.name not in skip}


def page_names_used() -> tuple[set[str], set[str]]:
    """The names the page's code writes out as strings (a key given to `t`, a data-i18n
    attribute, a key in a table) and the beginnings of names it makes (`` `bot_${kind}` ``)."""
    named: set[str] = set()
    made: set[str] = set()
    for text in page_sources().values():
        named.update(_PAGE_NAME.findall(text), _PAGE_ATTRIBUTE.findall(text))
        made.update(_PAGE_MADE.findall(text))
    return named, made


def page_lookups() -> set[str]:
    """The keys the page asks for by name: `t("key", …)` and data-i18n attributes (the
    house-rules editor's `t` adds its `editor_` prefix: its own test checks its names)."""
    found: set[str] = set()
    for name, text in page_sources().items():
        if name == "rules_editor.js":
            continue
        found.update(_PAGE_CALL.findall(text), _PAGE_ATTRIBUTE.findall(text))
    return found
