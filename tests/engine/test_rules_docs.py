"""docs/rules.md's tables of switches, page controls and check rows are generated from the
switch records and the check rows (scripts/gen_rules_docs.py): the file on disk must be what the
script writes, so a record changed without regenerating the docs fails here."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "gen_rules_docs.py"


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gen_rules_docs", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_generated_tables_of_docs_rules_md_are_fresh() -> None:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--check"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr


def test_a_table_edited_by_hand_is_written_again_from_the_records() -> None:
    gen = _generator()
    text = (ROOT / "docs" / "rules.md").read_text("utf-8")
    assert gen.generated(text) == text
    label = "| Два дубля за ход | Two doubles in one turn |"
    assert text.count(label) == 2  # the switches' table and the page controls' table
    stale = text.replace(label, "| Два дубля | Two doubles |", 1)
    assert gen.generated(stale) == text


def test_every_switch_and_every_row_is_in_a_generated_table() -> None:
    gen = _generator()
    from p2p_dominoes.engine.rules_check import ROWS
    from p2p_dominoes.engine.switches import SWITCHES

    switches = gen.switches_table()
    assert all(f"| `{s.name}` |" in switches for s in SWITCHES)
    rows = gen.TABLES["conflicts"]() + gen.TABLES["no-effect"]()
    assert all(f"| {r.code} |" in rows and r.en in rows and r.ru in rows for r in ROWS)
