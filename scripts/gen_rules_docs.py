#!/usr/bin/env python3
"""Write the tables of docs/rules.md that the switch records and the check rows hold: every
switch (engine/switches/), the rules page's controls (engine/rules_text.py), and every check
row with its texts (engine/rules_check/). Each table sits between two markers in the file,

    <!-- generated: NAME (scripts/gen_rules_docs.py; do not edit by hand) -->
    …
    <!-- end generated: NAME -->

and everything outside them is left as written. Run from the repository root:
`python scripts/gen_rules_docs.py`; `--check` exits 1 (naming the stale tables) when the file
on disk differs from what the records say, which `tests/engine/test_rules_docs.py` runs.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable, Iterable
from pathlib import Path

from p2p_dominoes.engine.field_spec import FieldSpec
from p2p_dominoes.engine.rules_check import ROWS, Row, checks_of
from p2p_dominoes.engine.rules_check.conflict_rows import RETIRED
from p2p_dominoes.engine.rules_text import CONTROLS
from p2p_dominoes.engine.switches import SWITCHES

DOCS = Path(__file__).resolve().parent.parent / "docs" / "rules.md"
_BLOCK = re.compile(
    r"(<!-- generated: (?P<name>[a-z-]+) \(scripts/gen_rules_docs\.py; do not edit by hand\) -->\n)"
    r"(?P<body>.*?)"
    r"(<!-- end generated: (?P=name) -->)",
    re.S,
)


def _values(spec: FieldSpec) -> str:
    if spec.kind == "enum":
        assert spec.enum is not None
        return " · ".join(
            f"`{e.value}`" + ("" if e.value in spec.choices else "*") for e in spec.enum
        )
    if spec.kind == "bool":
        return "true · false"
    if spec.kind == "pairs":
        return "[[players, number], …]"
    if spec.kind == "str":
        return "1–64 printable characters"
    if spec.int_choices:
        return " · ".join(map(str, spec.int_choices))
    return f"{spec.low}–{spec.high}"


def _default(spec: FieldSpec) -> str:
    if spec.required:
        return "required"
    value = spec.to_plain(spec.default)
    return f"`{str(value).lower() if isinstance(value, bool) else value}`"


def _table(head: Iterable[str], rows: Iterable[Iterable[str]]) -> str:
    head = list(head)
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def _fields(names: Iterable[str]) -> str:
    return ", ".join(f"`{name}`" for name in names)


def switches_table() -> str:
    """Every switch, in wire order, with the check rows that name it."""
    return _table(
        ("#", "field", "seed switch", "ru", "en", "values", "default", "checks"),
        (
            (
                str(number),
                f"`{s.name}`",
                s.source,
                s.label.ru,
                s.label.en,
                _values(s.spec),
                _default(s.spec),
                ", ".join(checks_of(s.name)) or "—",
            )
            for number, s in enumerate(SWITCHES, 1)
        ),
    )


def controls_table() -> str:
    """The rules page's controls, in page order."""
    return _table(
        ("control", "ru", "en", "fields"),
        ((c.key, c.label.ru, c.label.en, _fields(c.fields)) for c in CONTROLS),
    )


def _rows(kinds: str) -> str:
    rows: list[tuple[tuple[int, int], tuple[str, ...]]] = [
        (r.order, (r.code, _fields(r.fields), r.doc, r.en, r.ru))
        for r in ROWS
        if r.code[0] in kinds
    ]
    rows += [
        (Row("conflict", code, (), ROWS[0].test, "", "").order, (code, "—", why, "—", "—"))
        for code, why in RETIRED.items()
        if code[0] in kinds
    ]
    return _table(("code", "fields", "when", "en", "ru"), (row for _, row in sorted(rows)))


TABLES: dict[str, Callable[[], str]] = {
    "switches": switches_table,
    "controls": controls_table,
    "conflicts": lambda: _rows("VK"),
    "no-effect": lambda: _rows("N"),
}


def generated(text: str) -> str:
    """`text` (docs/rules.md) with every generated table written afresh."""
    found = {m.group("name") for m in _BLOCK.finditer(text)}
    missing = set(TABLES) - found
    if missing:
        raise SystemExit(f"docs/rules.md has no marker for the table(s) {sorted(missing)}")
    return _BLOCK.sub(lambda m: m.group(1) + TABLES[m.group("name")]() + m.group(4), text)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if docs/rules.md is stale")
    args = parser.parse_args()
    text = DOCS.read_text("utf-8")
    fresh = generated(text)
    if args.check:
        if fresh != text:
            stale = [
                m.group("name")
                for m in _BLOCK.finditer(text)
                if m.group("body") != TABLES[m.group("name")]()
            ]
            print(
                f"docs/rules.md is stale (tables: {', '.join(stale)}): "
                "run python scripts/gen_rules_docs.py",
                file=sys.stderr,
            )
            return 1
        return 0
    if fresh != text:
        DOCS.write_text(fresh, "utf-8")
        print("docs/rules.md written")
    return 0


if __name__ == "__main__":
    sys.exit(main())
