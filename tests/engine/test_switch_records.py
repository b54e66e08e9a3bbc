"""The switch records (engine/switches/): one record per switch, and everything that reads them
agrees with them — the field table, the typed `Rules`, the words, the controls, the turn flag."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from p2p_dominoes.engine import rules as rules_module
from p2p_dominoes.engine.field_spec import bool_field
from p2p_dominoes.engine.rules import FIELDS, Rules
from p2p_dominoes.engine.rules_text import CONTROLS, FIELD_LABELS, value_text
from p2p_dominoes.engine.switches import SWITCH, SWITCHES
from p2p_dominoes.ui.rules_form import CONTROLS as EDITOR_CONTROLS
from p2p_dominoes.ui.rules_form import editable_fields


def test_the_field_table_is_the_records_in_wire_order() -> None:
    assert tuple(s.spec for s in SWITCHES) == FIELDS
    assert [f.name for f in dataclasses.fields(Rules)] == [s.name for s in SWITCHES]


def test_a_rules_attribute_without_a_record_fails_at_import(monkeypatch: Any) -> None:
    extra = bool_field("new_switch", False)
    monkeypatch.setattr(rules_module, "FIELDS", (*FIELDS, extra))
    with pytest.raises(TypeError, match="not the switch records'"):
        rules_module._same_as_the_records()


def test_a_default_that_differs_from_the_record_fails_at_import(monkeypatch: Any) -> None:
    changed = tuple(
        dataclasses.replace(s, default=True) if s.name == "two_doubles" else s for s in FIELDS
    )
    monkeypatch.setattr(rules_module, "FIELDS", changed)
    with pytest.raises(TypeError, match="two_doubles"):
        rules_module._same_as_the_records()


def test_each_record_gives_its_label_and_value_words() -> None:
    for switch in SWITCHES:
        assert FIELD_LABELS[switch.name] is switch.label
        for value, words in switch.values.items():
            assert value_text(switch.name, value, "ru") == words.ru
            assert value_text(switch.name, value, "en") == words.en


def test_each_own_control_comes_from_its_record() -> None:
    page = {c.key: c for c in CONTROLS}
    for switch in SWITCHES:
        if switch.page is not None:
            assert page[switch.page_key].fields == (switch.name,), switch.name
    editor = {c.key: c for c in EDITOR_CONTROLS}
    for switch in SWITCHES:
        if switch.edit is not None:
            control = editor[switch.name]
            assert (control.group, control.kind) == (switch.edit.group, switch.edit.kind)
    shown = {name for c in EDITOR_CONTROLS for name in c.fields}
    assert set(editable_fields()) <= shown


def _values(name: str) -> list[Any]:
    spec = SWITCH[name].spec
    if spec.kind == "enum":
        return list(spec.choices)
    if spec.kind == "bool":
        return [True, False]
    if spec.kind == "int":
        low = spec.low or 0
        high = spec.high if spec.high is not None else low + 3
        return sorted({low, min(high, low + 1), min(high, 7), high} | set(spec.int_choices))
    return []


def test_a_page_note_puts_a_switch_on_the_rules_page_without_editing_the_page(
    monkeypatch: Any,
) -> None:
    """A switch the page's text does not mention gets a line under «Other house rules» from its
    record, marked (so it shows the table's choice and links to its control), in both languages;
    without a note the page is the seed's text."""
    from p2p_dominoes.engine import rules_page
    from p2p_dominoes.engine.rules import draft_of
    from p2p_dominoes.engine.words import Said

    name = "end_when_boneyard_empty"
    assert name not in {m.field for m in rules_page.marks("en")}
    # Any catalogue entry serves as the note: "the first double" / "первый дубль".
    noted = dataclasses.replace(SWITCH[name], page_note=Said("engine.reason.first_double"))
    monkeypatch.setattr(
        rules_page, "SWITCHES", tuple(noted if s.name == name else s for s in SWITCHES)
    )
    for lang, line in (
        ("en", "- The hand ends when the boneyard runs out [now: on] — the first double\n"),
        ("ru", "- Партия кончается, когда базар исчерпан [сейчас: вкл] — первый дубль\n"),
    ):
        assert name in {m.field for m in rules_page.marks(lang)}
        page = rules_page.render_text(draft_of("fives"), lang)
        assert line in page, lang
        assert page.index(line) < page.index("Редактор" if lang == "ru" else "The editor checks")
