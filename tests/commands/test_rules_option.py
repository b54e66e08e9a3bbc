"""`--rules NAME|FILE` (host, demo, simulate): a preset, or a rules file in any of its forms; a
set with a conflict is refused in one line; a weekday opener gets the host's day of the week."""

from __future__ import annotations

import datetime
import json
from pathlib import Path

import pytest

from p2p_dominoes.commands.rules_option import RulesOptionError, load_rules, rules_argument
from p2p_dominoes.engine import PRESETS
from p2p_dominoes.store import save_rule_set

TUESDAY = datetime.date(2026, 12, 1)


def write(tmp_path: Path, data: object, name: str = "rules.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def test_a_preset_name_or_a_file_naming_a_preset_or_a_full_object(tmp_path: Path) -> None:
    assert load_rules("block") == PRESETS["block"]
    assert load_rules(write(tmp_path, "house")) == PRESETS["house"]
    assert load_rules(write(tmp_path, PRESETS["draw"].to_dict())) == PRESETS["draw"]
    custom = load_rules(write(tmp_path, {"base": "house", "name": "k", "rounding": 5}))
    assert custom.name == "k" and custom.rounding == 5 and custom.first_opener == "lowest-double"


def test_the_host_fills_the_weekday_of_a_weekday_opener_from_its_calendar(tmp_path: Path) -> None:
    weekly = write(tmp_path, {"base": "house", "first_opener": "weekday-double"})
    assert load_rules(weekly, TUESDAY).weekday == 2  # Tuesday: [2|2] opens
    fixed = write(
        tmp_path, {"base": "house", "first_opener": "weekday-double", "weekday": 5}, "fixed.json"
    )
    assert load_rules(fixed, TUESDAY).weekday == 5  # a day the file names stays
    assert load_rules("house", TUESDAY).weekday == 0  # no weekday rule: nothing to fill
    with pytest.raises(RulesOptionError, match="Choose the day of the week"):
        load_rules(weekly)  # no calendar given: the set cannot be played


def test_bad_files_are_one_line(tmp_path: Path) -> None:
    with pytest.raises(RulesOptionError, match=r"is neither a preset \(block, cross, draw"):
        load_rules("nonsense")
    path = tmp_path / "broken.json"
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(RulesOptionError, match="cannot read"):
        load_rules(str(path))
    conflict = write(tmp_path, {"base": "house", "layout": "cross", "doubles": "along"})
    with pytest.raises(RulesOptionError) as caught:
        load_rules(conflict)
    assert "\n" not in str(caught.value) and "with every double lengthwise" in str(caught.value)


def test_a_file_is_passed_on_to_child_processes_as_an_absolute_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("mine.json").write_text('"draw"', encoding="utf-8")
    assert rules_argument("mine.json") == str(tmp_path / "mine.json")
    assert rules_argument("draw") == "draw"


def test_a_name_saved_on_the_rules_page_is_found_in_the_data_folder(tmp_path: Path) -> None:
    save_rule_set(tmp_path, "kitchen", {"base": "block", "rounding": 5})
    kitchen = load_rules("kitchen", TUESDAY, tmp_path)
    assert kitchen.name == "kitchen" and kitchen.rounding == 5
    assert load_rules("block", TUESDAY, tmp_path) == PRESETS["block"]  # presets come first
    with pytest.raises(RulesOptionError, match="nor a rule set saved on the rules page"):
        load_rules("kitchen", TUESDAY, tmp_path / "elsewhere")
    with pytest.raises(RulesOptionError, match="nor a rule set saved"):
        load_rules("../kitchen", TUESDAY, tmp_path)  # not a set's name: never a path outside
    (tmp_path / "rules" / "broken.json").write_text('{"base": "block", "rounding": 7}')
    with pytest.raises(RulesOptionError, match=r"^--rules broken: .*rounding"):
        load_rules("broken", TUESDAY, tmp_path)
