"""Saved rule sets: named JSON files under DATA/rules, refused when they have a conflict."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from p2p_dominoes.engine import Rules
from p2p_dominoes.engine.rules import PRESETS
from p2p_dominoes.store import (
    RuleSetError,
    delete_rule_set,
    list_rule_sets,
    load_draft,
    load_rule_set,
    name_problem,
    rules_dir,
    save_rule_set,
    table_rules,
)


def test_a_saved_set_is_a_plain_json_file_that_loads_back(tmp_path: Path) -> None:
    short = {"base": "block", "targets": [[2, 50], [3, 31], [4, 31]]}
    saved = save_rule_set(tmp_path, "short-block", short)
    path = rules_dir(tmp_path) / "short-block.json"
    on_disk = json.loads(path.read_text(encoding="utf-8"))
    assert on_disk["name"] == "short-block" and on_disk["targets"] == [[2, 50], [3, 31], [4, 31]]
    assert on_disk == saved.to_dict()  # a full object: the preset's later changes cannot move it
    assert load_rule_set(tmp_path, "short-block") == saved
    assert saved.drawing == PRESETS["block"].drawing
    assert list_rule_sets(tmp_path) == ["short-block"]


def test_saving_again_replaces_and_delete_removes(tmp_path: Path) -> None:
    save_rule_set(tmp_path, "mine", "house")
    save_rule_set(tmp_path, "Ёлка_2", "draw")
    save_rule_set(tmp_path, "mine", {"base": "house", "min_record": 13})
    assert list_rule_sets(tmp_path) == ["mine", "Ёлка_2"]
    assert load_rule_set(tmp_path, "mine").min_record == 13
    delete_rule_set(tmp_path, "mine")
    assert list_rule_sets(tmp_path) == ["Ёлка_2"]
    with pytest.raises(RuleSetError, match="no saved rule set 'mine'") as caught:
        delete_rule_set(tmp_path, "mine")
    assert caught.value.problem == "missing"


def test_a_set_with_a_conflict_is_not_saved(tmp_path: Path) -> None:
    # The cross grows from a double laid crosswise: with every double lengthwise it has no centre.
    with pytest.raises(RuleSetError, match="there is no centre") as caught:
        save_rule_set(tmp_path, "centreless", {"base": "cross", "doubles": "along"})
    assert caught.value.problem == "conflict"
    with pytest.raises(RuleSetError, match="targets do not match the deal"):
        save_rule_set(tmp_path, "lopsided", {"base": "draw", "targets": [[2, 100]]})
    assert list_rule_sets(tmp_path) == []


def test_a_hand_edited_file_with_a_conflict_opens_as_a_draft_but_does_not_play(
    tmp_path: Path,
) -> None:
    rules_dir(tmp_path).mkdir()
    (rules_dir(tmp_path) / "edited.json").write_text(
        json.dumps({"base": "cross", "doubles": "along"}), encoding="utf-8"
    )
    draft = load_draft(tmp_path, "edited")
    assert draft["doubles"] == "along" and draft["name"] == "edited"
    with pytest.raises(RuleSetError, match="no centre") as caught:
        load_rule_set(tmp_path, "edited")
    assert caught.value.problem == "conflict"


def test_broken_files_and_names_give_one_line(tmp_path: Path) -> None:
    rules_dir(tmp_path).mkdir()
    (rules_dir(tmp_path) / "junk.json").write_text("{not json", encoding="utf-8")
    (rules_dir(tmp_path) / "odd.json").write_text('{"base": "draw", "colour": 1}', encoding="utf-8")
    (rules_dir(tmp_path) / ".hidden.json").write_text('"draw"', encoding="utf-8")
    assert list_rule_sets(tmp_path) == ["junk", "odd"]
    with pytest.raises(RuleSetError, match="not JSON"):
        load_rule_set(tmp_path, "junk")
    with pytest.raises(RuleSetError, match="unknown field 'colour'") as caught:
        load_draft(tmp_path, "odd")
    assert caught.value.problem == "invalid"
    for bad in ("", "../x", "a b", "-x", "x" * 41, "house", "DRAW", "tab\t", None):
        assert name_problem(bad) is not None
        with pytest.raises(RuleSetError) as caught:
            save_rule_set(tmp_path, bad, "draw")  # type: ignore[arg-type]
        assert caught.value.problem == "name"
    assert name_problem("Козёл-13") is None


def test_a_table_takes_a_preset_or_a_saved_set(tmp_path: Path) -> None:
    assert table_rules(tmp_path, "block") is PRESETS["block"]
    quick = {"base": "block", "targets": [[2, 30], [3, 30], [4, 30]]}
    saved = save_rule_set(tmp_path, "quick", quick)
    assert table_rules(tmp_path, "quick") == saved
    assert isinstance(saved, Rules) and saved.name == "quick"
    with pytest.raises(RuleSetError, match="no saved rule set 'nope'"):
        table_rules(tmp_path, "nope")
    with pytest.raises(RuleSetError, match="no preset or saved rule set"):
        table_rules(None, "quick")
