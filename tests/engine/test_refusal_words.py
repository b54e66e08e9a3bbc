"""The engine's refusals are phrases (words/phrases.py): to every caller the English text they
always were (protocol vectors and transcripts compare it), and in Russian where a player reads
them (`reason_in`)."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from p2p_dominoes.engine import (
    DRAW,
    PASS,
    IllegalAction,
    InvalidRecord,
    Play,
    Rules,
    parse_record,
    parse_tile,
    preset,
)
from p2p_dominoes.words import reason_in
from tests.engine.dealing import deal

TILE = re.compile(r"\[[0-6]\|[0-6]\]")


def russian_only(text: str) -> bool:
    """No Latin letter is left once tile texts (such as [3|4]) are taken out."""
    return not re.search(r"[A-Za-z]", TILE.sub("", text)) and bool(re.search("[а-я]", text))


def refused(action: Callable[..., object], *args: object) -> IllegalAction | InvalidRecord:
    with pytest.raises((IllegalAction, InvalidRecord)) as caught:
        action(*args)
    return caught.value


def test_a_play_of_a_tile_not_held() -> None:
    state = deal(preset("draw"), ["0|1 0|2 0|3 0|4 0|5 0|6 1|1", "2|2"])
    error = refused(state.apply, 0, Play(parse_tile("2|2")))
    assert str(error) == "seat 0 cannot play [2|2]: they do not hold [2|2]"
    assert reason_in(error, "ru") == "место 0 не может сходить [2|2]: у игрока нет [2|2]"
    assert russian_only(reason_in(error, "ru"))


def test_a_play_that_fits_no_open_end() -> None:
    state = deal(preset("block"), ["3|4 5|5", "1|2 6|6"])
    state.apply(0, Play(parse_tile("3|4")))
    error = refused(state.apply, 1, Play(parse_tile("1|2"), state.line.places[0]))
    assert str(error) == "seat 1 cannot play [1|2]: [1|2] fits no open end (3 and 4)"
    said = reason_in(error, "ru")
    assert (
        said
        == "место 1 не может сходить [1|2]: [1|2] не подходит ни к одному открытому концу (3 и 4)"
    )
    assert russian_only(said)


def test_a_draw_the_rules_do_not_allow() -> None:
    state = deal(preset("block"), ["3|4", "1|2"])
    error = refused(state.apply, 0, DRAW)
    assert str(error) == "seat 0 cannot draw: these rules have no drawing"
    assert russian_only(reason_in(error, "ru")), reason_in(error, "ru")
    state = deal(preset("draw-until-play"), ["3|4", "1|2"])
    error = refused(state.apply, 0, DRAW)
    assert str(error) == (
        "seat 0 cannot draw: drawing is allowed only with no playable tile, and [3|4] fits"
    )
    assert russian_only(reason_in(error, "ru")), reason_in(error, "ru")


def test_a_pass_while_holding_a_playable_tile_and_out_of_turn() -> None:
    state = deal(preset("draw"), ["3|4", "1|2"])
    error = refused(state.apply, 0, PASS)
    assert str(error) == "seat 0 cannot pass: they hold a playable tile ([3|4])"
    assert (
        reason_in(error, "ru")
        == "место 0 не может пропустить ход: у игрока есть чем ходить ([3|4])"
    )
    error = refused(state.check_skip, 1)
    assert str(error) == "seat 1 cannot skip: it is seat 0's turn"
    assert russian_only(reason_in(error, "ru")), reason_in(error, "ru")


def test_a_counted_refusal_takes_the_russian_form_for_its_number() -> None:
    rules = Rules.from_dict({"base": "draw", "draw_limit": 1})
    state = deal(rules, ["6|6 5|5 4|4 3|3 2|2 1|1 0|0", "0|1"], "6|5 6|4", 1)
    state.apply(1, Play(parse_tile("0|1")))
    state.apply(0, DRAW)
    error = refused(state.apply, 0, DRAW)
    assert str(error).endswith(": at most 1 draws a turn")
    assert reason_in(error, "ru").endswith("не больше 1 раза")


def test_a_bad_rules_value_and_a_rules_conflict() -> None:
    error = refused(Rules.from_dict, {"base": "draw", "draw_limit": "x"})
    assert str(error) == "rules: draw_limit must be an integer"
    assert reason_in(error, "ru") == "правила: draw_limit должно быть целым числом"
    error = refused(Rules.from_dict, {"base": "draw", "doubles": "sideways"})
    assert str(error).startswith("rules: doubles must be one of ")
    error = refused(preset, "nope")
    assert str(error).startswith("unknown rules preset 'nope' (presets: draw, ")
    assert reason_in(error, "ru").startswith("неизвестный набор правил 'nope' (наборы: draw, ")


def test_a_bad_record_says_so_in_russian() -> None:
    error = refused(parse_record, {"rules": "draw"})
    assert str(error) == "the record has no 'opener'"
    assert reason_in(error, "ru") == "в записи нет поля 'opener'"
    error = refused(parse_tile, "7|1")
    assert str(error) == "no tile [7|1] in a double-six set"
    assert reason_in(error, "ru") == "в наборе дубль-шесть нет кости [7|1]"
