"""Rules in words and the rules screen: every switch and value has a label in both languages, a
joiner reads the preset and what differs, and the page is the seed's, marked, with the table's
choices next to its switches."""

from __future__ import annotations

import hashlib

import pytest

from p2p_dominoes.engine.rules import FIELD, FIELDS, draft_of
from p2p_dominoes.engine.rules_page import marks, plain_page, render_text, segments
from p2p_dominoes.engine.rules_text import (
    CONTROL,
    CONTROLS,
    FIELD_LABELS,
    VALUE_LABELS,
    describe_rules,
    value_text,
)

SEED_003_SHA256 = "ac70a7eb841dda75365ee9cf217a0de0b8b23b584fa4f7acfeadbd9e325efae8"
"""The seed's rules page (seeds/003_35c8ae379a7211c3.txt), which the Russian page reproduces."""


def test_every_field_has_a_label_and_a_control_in_both_languages() -> None:
    assert set(FIELD_LABELS) == set(FIELD)
    covered = {name for control in CONTROLS for name in control.fields}
    assert covered == set(FIELD)
    for control in CONTROLS:
        assert control.label("ru") != control.label("en")


@pytest.mark.parametrize(
    "spec", [s for s in FIELDS if s.kind in ("enum", "bool")], ids=lambda spec: spec.name
)
def test_every_value_of_a_choice_has_words(spec: object) -> None:
    from p2p_dominoes.engine.rules import FieldSpec

    assert isinstance(spec, FieldSpec)
    values = [e.value for e in spec.enum] if spec.enum else [True, False]
    for value in values:
        assert value in VALUE_LABELS[spec.name], value
        ru, en = value_text(spec.name, value, "ru"), value_text(spec.name, value, "en")
        assert ru != en and ru != str(value) and en


def test_the_draw_rule_is_said_in_the_seeds_words() -> None:
    control = CONTROL["W1"]
    assert control.fields == ("must_draw_when_stuck", "draw_limit")
    cases = [
        (True, 0, "прикуп до хода", "draw until you can play"),
        (True, 1, "одну кость и пас", "draw one, then pass"),
        (False, 0, "прикуп по желанию", "draw at will"),
    ]
    for must, limit, ru, en in cases:
        rules = draft_of({"base": "house", "must_draw_when_stuck": must, "draw_limit": limit})
        assert (control.text(rules, "ru"), control.text(rules, "en")) == (ru, en)


def test_a_joiner_reads_the_preset_and_every_switch_that_differs() -> None:
    rules = draft_of(
        {"base": "house", "name": "kitchen", "draw_limit": 1, "min_record": 13, "rounding": 5}
    )
    assert describe_rules(rules, "en") == [
        "Rules 'kitchen', based on: Dominoes (the default game):",
        "When you cannot play: draw one, then pass",
        "Rounding: to 5",
        "Minimum to record: 13 (the Kozel rule)",
    ]
    assert describe_rules(rules, "ru") == [
        "Правила «kitchen», на основе: Домино (по умолчанию):",
        "Если ходить нечем: одну кость и пас",
        "Округление счёта: до 5",
        "Минимум для записи: 13 (правило козла)",
    ]
    assert describe_rules(draft_of("block"), "en") == [
        "Rules: Block dominoes (no drawing), unchanged"
    ]


def test_the_russian_page_is_the_seed_word_for_word_under_its_title() -> None:
    """The seed's first line, «ДоминоПравила», is its site's name and page title run together
    when it was copied; the page reads «Домино · Правила» as the English one does, and every
    other character is the seed's."""
    text = plain_page("ru", with_notes=False)
    assert text.startswith("Домино · Правила\nСводов правил у домино столько же")
    seed = text.replace("Домино · Правила\n", "ДоминоПравила\n", 1)
    assert hashlib.sha256(seed.encode("utf-8")).hexdigest() == SEED_003_SHA256


def test_the_english_page_marks_the_same_switches_in_the_same_order() -> None:
    ru = [(m.field, m.control.key) for m in marks("ru")]
    en = [(m.field, m.control.key) for m in marks("en")]
    assert ru == en
    assert len(ru) >= 30
    assert plain_page("en").startswith("Dominoes · Rules\nThere are as many rule books")


def test_the_page_says_what_the_table_plays() -> None:
    kitchen = draft_of({"base": "house", "draw_limit": 1})
    ru = render_text(kitchen, "ru")
    assert (
        "По умолчанию до тех пор, пока не появится ход; иначе — одну кость и пас или прикуп по "
        "желанию [сейчас: одну кость и пас]."
    ) in ru
    assert "очередь по дню недели [сейчас: не задан; не действует]" in ru
    en = render_text(draft_of("draw"), "en")
    assert "whether the last boneyard tile may be taken [now: no (the last 2 stay)]" in en


def test_the_web_page_gets_segments_that_name_the_editor_control() -> None:
    found = segments(draft_of("block"), "en")
    assert "".join(s.text for s in found) == plain_page("en")
    boneyard = next(s for s in found if s.field == "drawing")
    assert boneyard.text == "whether there is a boneyard at all"
    assert boneyard.value == "no" and not boneyard.greyed and boneyard.control == "D3"
    reserve = next(s for s in found if s.field == "reserve")
    assert reserve.greyed  # block: nothing to draw
    assert all(s.value is None for s in found if s.field is None)


def test_docs_list_every_switch_and_every_row() -> None:
    from pathlib import Path

    from p2p_dominoes.engine.rules import PRESETS
    from p2p_dominoes.engine.rules_check import ROWS

    docs = (Path(__file__).resolve().parents[2] / "docs" / "rules.md").read_text("utf-8")
    for spec in FIELDS:
        assert f"| `{spec.name}` |" in docs, spec.name
    for row in ROWS:
        assert f"| {row.code} |" in docs and row.en in docs and row.ru in docs, row.code
    for name in PRESETS:
        assert f"| `{name}` |" in docs, name
