"""The table shapes outside the engine core: the terminal's numbered places, the bots on every
shape, `bench engine`'s figures per shape and the signed play's place decoding."""

from __future__ import annotations

import json
import random

import pytest

from p2p_dominoes.bots import greedy_bot, random_bot
from p2p_dominoes.engine import PRESETS, HandView, Play, Rules
from p2p_dominoes.engine.line import Place, Side
from p2p_dominoes.engine.tiles import parse_tile
from p2p_dominoes.session.places import BadPlace, decode_place, encode_place
from p2p_dominoes.simulation import simulate
from p2p_dominoes.ui.terminal import action_menu, render_table
from tests.engine.test_shapes import lay, state_of, trains_example


def test_the_terminal_numbers_every_open_place_and_the_menu_names_them() -> None:
    state = state_of(PRESETS["telephone"], [["3|3", "0|0"], ["3|5", "1|3", "0|1"]])
    lay(state, 0, "3|3")
    lay(state, 1, "3|5", "3|3", "A")
    view = HandView(state, 0)
    text = render_table(view, ["Ann", "Bob"], [0, 0], 101)
    assert (
        "Places: 1) [3|3] (side B, 3); 2) [3|3] (end C, 3); 3) [3|3] (end D, 3); "
        "4) [3|5] (high end, 5)"
    ) in text
    ru = render_table(view, ["Аня", "Борис"], [0, 0], 101, "ru")
    assert "Места: 1) [3|3] (линия B, 3); 2) [3|3] (конец C, 3);" in ru
    # A line keeps its text: no numbered places.
    line = state_of(PRESETS["house"], [["3|3", "0|0"], ["3|5", "0|1"]])
    lay(line, 0, "3|3")
    assert "Places:" not in render_table(HandView(line, 1), ["Ann", "Bob"], [0, 0], 101)


def test_the_menu_says_the_place_number_of_a_train() -> None:
    state = trains_example()
    menu = action_menu(HandView(state, 1))
    labels = [item.label for item in menu]
    assert "play [0|6] on [6|6] (common train), place 3" in labels, labels


@pytest.mark.parametrize("name", ["cross", "telephone", "trains"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_and_greedy_play_whole_matches_on_every_shape(name: str, players: int) -> None:
    bots = [random_bot, greedy_bot, random_bot, greedy_bot][:players]
    report = simulate(
        PRESETS[name], players, bots, ["r", "g", "r", "g"][:players], seed=3, hands=30
    )
    assert report.hands == 30


def test_greedy_feeds_its_own_train_before_the_common_one() -> None:
    rules = Rules.from_dict({"base": "trains", "first_opener": "highest-double"})
    state = state_of(rules, [["6|6", "0|1"], ["5|6", "4|6", "0|2"]])
    lay(state, 0, "6|6")
    play = greedy_bot(HandView(state, 1), random.Random(1))
    assert isinstance(play, Play) and play.place is not None
    assert play.tile == parse_tile("5|6")
    assert play.place.side is Side.T1  # its own train, not the common one


def test_bench_engine_reports_every_shape(capsys: pytest.CaptureFixture[str]) -> None:
    from p2p_dominoes.benchmarks.engine import run_engine_bench

    assert run_engine_bench(0.01, as_json=True) == 0
    figures = json.loads(capsys.readouterr().out)
    for name in ("cross", "telephone", "trains"):
        assert figures[f"{name}_4p_hands_per_s"] > 0


def test_the_signed_play_names_centre_ends_and_trains_in_its_side_field() -> None:
    six = parse_tile("6|6")
    for side in ("C", "D", "T0", "T3", "TC", "A", "B"):
        place = decode_place(six.index, side)
        assert place is Place.of(six, Side(side))
        assert encode_place(place) == (six.index, side)
    assert decode_place(None, None) is None and encode_place(None) == (None, None)
    for at, side in ((six.index, "C3"), (None, "A"), (99, "A"), (parse_tile("5|6").index, "C")):
        with pytest.raises(BadPlace):
            decode_place(at, side)
