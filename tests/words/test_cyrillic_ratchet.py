"""A ratchet on Russian text in Python modules and the page's scripts (static/*.js): words
belong in the catalogues (p2p_dominoes/words/ru.po), not in code.

The goal is zero: no module of the package holds a Cyrillic letter. Until then `ALLOWED` lists
the modules that still do, with how many of their lines do today. A module may only go down
(lower its entry, or drop it at zero, when you move its words to the catalogues); a module
that is not listed, or that holds more lines than its entry, fails. Data the product reads
(the rules page's text, the table code's word list) lives in data files, not here.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Final

import pytest

from tests.words.scan import PACKAGE

CYRILLIC: Final = re.compile("[\u0400-\u04ff]")

ALLOWED: Final[dict[str, int]] = {
    # `TableCode.line`'s docstring shows what it prints: a few of the table code's Russian words,
    # protocol data (the same index is the same word on every peer) read from
    # session/table_code_words.txt, not words to translate, so no catalogue entry.
    "session/table_code.py": 1,
}
"""The modules (below p2p_dominoes/) still allowed Cyrillic, and on how many lines at most."""

STATIC_ALLOWED: Final[dict[str, int]] = {
    # The table code's word lists, protocol data kept equal to session/table_code_words.txt
    # (tests/ui/test_join_code_page.py), not words to translate.
    "ui/web/static/code_words.js": 25,
    # A join code is read as the peer reads it: "ё" as "е" (the code and its comment).
    "ui/web/static/join_code.js": 2,
    # Comments that show what the page prints or which key is meant (В on a Russian layout).
    "ui/web/static/app.js": 1,
    "ui/web/static/overlays.js": 1,
    "ui/web/static/sheet.js": 1,
}
"""The page's scripts (static/*.js) still allowed Cyrillic, and on how many lines at most."""


def cyrillic_lines(text: str) -> int:
    """How many lines of `text` hold a Cyrillic letter."""
    return sum(1 for line in text.splitlines() if CYRILLIC.search(line))


def over(counts: dict[str, int], allowed: dict[str, int]) -> list[str]:
    """The modules whose Cyrillic lines are more than `allowed` lets them have."""
    return [
        f"{name}: {count} lines with Cyrillic, allowed {allowed.get(name, 0)} "
        "(move the words to p2p_dominoes/words/*.po)"
        for name, count in sorted(counts.items())
        if count > allowed.get(name, 0)
    ]


def package_counts(package: Path = PACKAGE, pattern: str = "*.py") -> dict[str, int]:
    """How many Cyrillic lines each file matching `pattern` below `package` holds (those with
    none left out)."""
    counts = {
        path.relative_to(package).as_posix(): cyrillic_lines(path.read_text("utf-8"))
        for path in sorted(package.rglob(pattern))
    }
    return {name: count for name, count in counts.items() if count}


def test_no_module_holds_more_cyrillic_than_it_did() -> None:
    assert over(package_counts(), ALLOWED) == []


def test_no_page_script_holds_more_cyrillic_than_it_did() -> None:
    """The page's words come from the catalogues (/words.json, issue 26): strings.js and the
    other scripts hold no Russian but what `STATIC_ALLOWED` lists."""
    counts = package_counts(PACKAGE / "ui" / "web" / "static", "*.js")
    found = {f"ui/web/static/{name}": count for name, count in counts.items()}
    assert over(found, STATIC_ALLOWED) == []
    assert "ui/web/static/strings.js" not in found


@pytest.mark.parametrize(
    ("allowed", "counts"),
    [
        (ALLOWED, lambda: package_counts()),
        (
            STATIC_ALLOWED,
            lambda: {
                f"ui/web/static/{name}": count
                for name, count in package_counts(PACKAGE / "ui" / "web" / "static", "*.js").items()
            },
        ),
    ],
)
def test_the_table_says_what_is_left(
    allowed: dict[str, int], counts: Callable[[], dict[str, int]]
) -> None:
    """An entry above its module's count (words moved out, a module split or gone) is lowered
    in the same change, so the table always says how much is left to move."""
    found = counts()
    stale = {
        name: f"allowed {most}, holds {found.get(name, 0)}"
        for name, most in allowed.items()
        if found.get(name, 0) < most
    }
    assert stale == {}, "lower these entries to what their modules hold today"


def test_the_ratchet_catches_a_new_module_and_a_module_that_grew() -> None:
    assert cyrillic_lines('A = "yes"\nB = "да"  # да\nC = "нет"\n') == 2
    allowed = {"engine/rules.py": 8, "ui/web/snapshot_words.py": 25}
    found = over({"engine/rules.py": 9, "net/new.py": 1, "ui/web/snapshot_words.py": 3}, allowed)
    assert found == [
        "engine/rules.py: 9 lines with Cyrillic, allowed 8 "
        "(move the words to p2p_dominoes/words/*.po)",
        "net/new.py: 1 lines with Cyrillic, allowed 0 (move the words to p2p_dominoes/words/*.po)",
    ]


def test_the_modules_this_move_emptied_stay_empty() -> None:
    """The network's and the terminal's words, and the commands', live in the catalogues; so do
    all the engine's (its descriptions, Kozel's words, the rules in words, the check's rows and
    the switch records), and the page's (its refusals, the snapshot's sentences, the rules
    page's API, Kozel's sheet, the house-rules editor's own words)."""
    counts = package_counts()
    emptied = ("net/", "commands/", "words/", "ui/narration", "ui/terminal", "ui/board_text")
    page = ("ui/web/refusals.py", "ui/web/snapshot_words.py", "ui/web/rules_api.py")
    page += ("ui/web/kozel_sheet.py", "ui/rules_form.py", "ui/web/table_progress.py")
    for folder in (*emptied, *page, "engine/"):
        assert not [name for name in counts if name.startswith(folder)], folder
