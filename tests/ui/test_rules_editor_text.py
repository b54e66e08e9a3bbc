"""Every word of the house-rules editor comes from the catalogues in English and Russian (keys
`page_js.editor_<name>`), and every control's words come in both (the page shows the peer's
words as they are)."""

from __future__ import annotations

import re
from pathlib import Path

from p2p_dominoes.ui.rules_form import form
from p2p_dominoes.words import keys

STATIC = Path(__file__).resolve().parents[2] / "p2p_dominoes" / "ui" / "web" / "static"
EDITOR = "page_js.editor_"


def _names_the_editor_uses() -> set[str]:
    """The names rules_editor.js gives `t` (written out, or from the list it loops over),
    rules.html's data-t and data-t-aria names, and the words of the peer not answering."""
    script = (STATIC / "rules_editor.js").read_text(encoding="utf-8")
    page = (STATIC / "rules.html").read_text(encoding="utf-8")
    named = set(re.findall(r'\bt\(\s*"([a-z_]+)"', script))
    named |= set(re.findall(r'spoken\("[a-z]+", "([a-z_]+)"', script))
    for listed in re.findall(r"for \(const key of \[([^\]]*)\]\) .*t\(key\)", script):
        named |= set(re.findall(r'"([a-z_]+)"', listed))
    named |= set(re.findall(r'data-t(?:-aria)?="([a-z_]+)"', page))
    return named


def test_every_word_the_editor_uses_is_in_both_catalogues_and_no_other() -> None:
    used = _names_the_editor_uses()
    assert {"title", "saved_as", "failed", "players"} <= used  # the scan sees each kind of use
    for lang in ("en", "ru"):
        entries = {key[len(EDITOR) :] for key in keys(lang) if key.startswith(EDITOR)}
        assert entries == used, lang
    script = (STATIC / "rules_editor.js").read_text(encoding="utf-8")
    assert "const TEXT" not in script  # no table of its own


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
