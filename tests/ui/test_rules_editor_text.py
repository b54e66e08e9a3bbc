"""Every string of the house-rules editor exists in English and Russian, and every control's
words come in both (the page shows the peer's words as they are)."""

from __future__ import annotations

import re
from pathlib import Path

from p2p_dominoes.ui.rules_form import form

STATIC = Path(__file__).resolve().parents[2] / "p2p_dominoes" / "ui" / "web" / "static"
_STRING = re.compile(r'"(?:\\.|[^"\\])*"|`(?:\\.|[^`\\])*`')
_KEY = re.compile(r"(?:^|[,{])\s*([a-z_]+):", re.MULTILINE)


def _keys(block: str) -> set[str]:
    return set(_KEY.findall(_STRING.sub('""', block)))


def test_the_editor_page_has_every_string_in_both_languages() -> None:
    script = (STATIC / "rules_editor.js").read_text(encoding="utf-8")
    table = script[script.index("const TEXT = {") : script.index("\n};\n")]
    en, ru = table.split("\n  ru: {")
    assert _keys(en) - {"en"} == _keys(ru) != set()
    page = (STATIC / "rules.html").read_text(encoding="utf-8")
    assert set(re.findall(r'data-t(?:-aria)?="([a-z_]+)"', page)) <= _keys(ru)


def test_every_control_group_and_choice_has_both_languages() -> None:
    data = form()
    words = [g["words"] for g in data["groups"]] + [data["other"]]
    for control in data["controls"]:
        words.append(control["words"])
        words.extend(choice["words"] for choice in control["choices"])
        if control["hint"]:
            words.append(control["hint"])
    for entry in words:
        assert set(entry) == {"en", "ru"} and entry["en"] and entry["ru"], entry
