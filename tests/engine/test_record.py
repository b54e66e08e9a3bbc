"""Hand records: parsing, replaying, and one clear error for every kind of bad record."""

import json
from typing import Any

import pytest

from p2p_dominoes.engine import HandEnd, InvalidRecord, describe, load_record, replay

EXAMPLE: dict[str, Any] = {
    "rules": "draw",
    "scores": [0, 0, 0],
    "opener": 0,
    "hands": [
        ["1|4", "6|6", "2|5", "0|3", "3|3", "1|2", "4|6"],
        ["1|1", "0|0", "0|1", "0|2", "0|4", "0|5", "0|6"],
        ["3|5", "5|5", "5|6", "2|2", "2|3", "2|4", "2|6"],
    ],
    "boneyard": ["1|3", "1|5", "1|6", "3|4", "3|6", "4|4", "4|5"],
    "actions": [
        {"seat": 0, "play": "1|4"},
        {"seat": 1, "play": "1|1", "at": "1|4"},
        {"seat": 2, "draw": True},
        {"seat": 2, "play": "2|4", "at": "1|4"},
    ],
}


def record(**changes: Any) -> str:
    data = json.loads(json.dumps(EXAMPLE))
    data.update(changes)
    return json.dumps(data)


def test_a_record_replays_action_by_action_with_the_board_after_each_play() -> None:
    outcome = replay(load_record(record()), "ru")
    assert [s.index for s in outcome.steps] == [0, 1, 2, 3]
    assert outcome.steps[1].board == (
        "Кости: [1|4], [1|1]. Соединения: [1|4] (конец с меньшим значением) – [1|1] (линия A). "
        "Допустимые места продолжения: [1|1] (линия B, 1); [1|4] (конец с большим значением, 4)."
    )
    assert outcome.steps[2].drawn is not None and outcome.steps[2].drawn.text == "[1|3]"
    assert outcome.result.end is HandEnd.UNFINISHED
    assert outcome.match is None


def test_side_pins_the_place_and_at_picks_the_tile() -> None:
    actions = [
        {"seat": 0, "play": "4|6"},
        {"seat": 1, "play": "0|6", "side": "high"},
    ]
    outcome = replay(load_record(record(actions=actions)))
    assert describe(outcome.state.line) == (
        "Tiles: [4|6], [0|6]. Connections: [4|6] (high end) – [0|6] (high end). "
        "Open places: [0|6] (low end, 0); [4|6] (low end, 4)."
    )


def test_a_tile_that_fits_two_different_tiles_needs_at() -> None:
    actions = [
        {"seat": 0, "play": "1|4"},
        {"seat": 1, "play": "1|1"},
        {"seat": 2, "play": "2|4"},
        {"seat": 0, "play": "1|2"},
    ]
    with pytest.raises(InvalidRecord, match=r"action 3 \(seat 0\): \[1\|2\] fits open places on"):
        replay(load_record(record(actions=actions)))
    actions[3]["at"] = "2|4"
    outcome = replay(load_record(record(actions=actions)))
    assert outcome.state.line.connections[-1].table_tile.text == "[2|4]"


@pytest.mark.parametrize(
    ("actions", "message"),
    [
        ([{"seat": 1, "play": "1|1"}], "action 0: seat 1 cannot play .*it is seat 0's turn"),
        ([{"seat": 0, "play": "5|5"}], r"action 0: seat 0 cannot play \[5\|5\]: they do not hold"),
        (
            [{"seat": 0, "play": "1|4"}, {"seat": 1, "play": "0|5"}],
            r"action 1: seat 1 cannot play \[0\|5\]: \[0\|5\] fits no open end \(1 and 4\)",
        ),
        (
            [{"seat": 0, "play": "1|4"}, {"seat": 1, "pass": True}],
            r"action 1: seat 1 cannot pass: they hold a playable tile",
        ),
    ],
)
def test_an_illegal_action_names_its_index_the_seat_and_the_rule(
    actions: list[dict[str, Any]], message: str
) -> None:
    with pytest.raises(InvalidRecord, match=message):
        replay(load_record(record(actions=actions)))


def test_drawing_from_a_two_tile_boneyard_is_named() -> None:
    actions = [{"seat": 0, "play": "1|4"}] + [{"seat": 1, "draw": True}] * 6
    with pytest.raises(
        InvalidRecord, match=r"action 6: seat 1 cannot draw: the boneyard holds 2 tiles"
    ):
        replay(load_record(record(actions=actions)))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{", "not valid JSON"),
        ("[]", "a record must be a JSON object"),
        (record(rules="dominoes-royale"), "unknown rules preset 'dominoes-royale'"),
        (record(opener=3), "'opener' must be a seat number from 0 to 2"),
        (record(boneyard=["1|3"]), r"the deal is missing"),
        (record(boneyard=["1|3", "1|3", *EXAMPLE["boneyard"][1:]]), r"\[1\|3\] is dealt twice"),
        (record(hands=[["1|4"], ["1|1"], ["3|5"]]), "seat 0 was dealt 1 tiles; the rules deal 7"),
        (record(hands=[["9|9"] * 7] * 3), r"no tile \[9\|9\]"),
        (record(scores=[1, 2]), "'scores' must be 3 integers"),
        (record(actions=[{"seat": 0}]), "give exactly one of play, draw, pass"),
        (record(actions=[{"seat": 0, "dance": True}]), "unknown field 'dance'"),
        (record(actions=[{"seat": 0, "play": "1|4", "side": "left"}]), "'side' must be one of"),
        (record(colour="red"), "unknown record field 'colour'"),
    ],
)
def test_malformed_records_give_one_clear_line(text: str, message: str) -> None:
    with pytest.raises(InvalidRecord, match=message):
        replay(load_record(text))


def test_a_full_rules_object_can_stand_for_a_preset_name() -> None:
    from p2p_dominoes.engine import DRAW_RULES

    outcome = replay(load_record(record(rules=DRAW_RULES.to_dict())))
    assert outcome.state.rules == DRAW_RULES
    bad = DRAW_RULES.to_dict() | {"drawing": "sometimes"}
    with pytest.raises(InvalidRecord, match="drawing must be one of"):
        load_record(record(rules=bad))
