"""The board description: all seven worked examples of the Draw rules (seed 000), exactly."""

import pytest

from p2p_dominoes.engine import DRAW_RULES, Line, Place, Play, Side, describe, parse_tile
from tests.engine.dealing import deal


def board_after(*moves: tuple[str, str | None, str | None]) -> Line:
    """Play (tile, table tile, side) moves, alternating seats, on a fresh 2-player hand."""
    names = [m[0] for m in moves]
    state = deal(DRAW_RULES, [" ".join(names[0::2]), " ".join(names[1::2])])
    for index, (tile, at, side) in enumerate(moves):
        place = None if at is None else Place.of(parse_tile(at), Side(side))
        state.apply(index % 2, Play(parse_tile(tile), place))
    return state.line


EXAMPLES = [
    (
        [("1|4", None, None)],
        "Кости: [1|4]. Соединения: нет. Допустимые места продолжения: "
        "[1|4] (конец с большим значением, 4); [1|4] (конец с меньшим значением, 1).",
    ),
    (
        [("1|4", None, None), ("1|1", "1|4", "low")],
        "Кости: [1|4], [1|1]. Соединения: [1|4] (конец с меньшим значением) – [1|1] (линия A). "
        "Допустимые места продолжения: [1|1] (линия B, 1); [1|4] (конец с большим значением, 4).",
    ),
    (
        [("3|6", None, None), ("6|6", "3|6", "high")],
        "Кости: [3|6], [6|6]. Соединения: [3|6] (конец с большим значением) – [6|6] (линия A). "
        "Допустимые места продолжения: [3|6] (конец с меньшим значением, 3); [6|6] (линия B, 6).",
    ),
    (
        [("0|0", None, None)],
        "Кости: [0|0]. Соединения: нет. Допустимые места продолжения: "
        "[0|0] (линия A, 0); [0|0] (линия B, 0).",
    ),
    (
        [("1|4", None, None), ("1|1", "1|4", "low"), ("4|4", "1|4", "high")],
        "Кости: [1|4], [1|1], [4|4]. Соединения: [1|4] (конец с меньшим значением) – [1|1] "
        "(линия A); [1|4] (конец с большим значением) – [4|4] (линия A). Допустимые места "
        "продолжения: [1|1] (линия B, 1); [4|4] (линия B, 4).",
    ),
    (
        [("1|4", None, None), ("1|1", "1|4", "low"), ("4|4", "1|4", "high"), ("3|4", "4|4", "B")],
        "Кости: [1|4], [1|1], [4|4], [3|4]. Соединения: [1|4] (конец с меньшим значением) – "
        "[1|1] (линия A); [1|4] (конец с большим значением) – [4|4] (линия A); [4|4] (линия B) – "
        "[3|4] (конец с большим значением). Допустимые места продолжения: [1|1] (линия B, 1); "
        "[3|4] (конец с меньшим значением, 3).",
    ),
    (
        [("2|2", None, None)],
        "Кости: [2|2]. Соединения: нет. Допустимые места продолжения: "
        "[2|2] (линия A, 2); [2|2] (линия B, 2).",
    ),
]


@pytest.mark.parametrize(("moves", "expected"), EXAMPLES)
def test_the_seven_worked_examples_come_out_character_for_character(
    moves: list[tuple[str, str | None, str | None]], expected: str
) -> None:
    assert describe(board_after(*moves), "ru") == expected


def test_english_uses_the_same_structure() -> None:
    line = board_after(("1|4", None, None), ("1|1", "1|4", "low"))
    assert describe(line, "en") == (
        "Tiles: [1|4], [1|1]. Connections: [1|4] (low end) – [1|1] (side A). "
        "Open places: [1|1] (side B, 1); [1|4] (high end, 4)."
    )


def test_an_empty_line_says_none_everywhere() -> None:
    assert describe(Line(), "en") == "Tiles: none. Connections: none. Open places: none."
    assert (
        describe(Line(), "ru") == "Кости: нет. Соединения: нет. Допустимые места продолжения: нет."
    )


def test_the_first_tile_on_an_opening_double_takes_side_a_whichever_side_was_named() -> None:
    line = board_after(("2|2", None, None), ("2|5", "2|2", "B"))
    assert describe(line, "en") == (
        "Tiles: [2|2], [2|5]. Connections: [2|2] (side A) – [2|5] (low end). "
        "Open places: [2|2] (side B, 2); [2|5] (high end, 5)."
    )


def test_a_double_is_continued_from_its_side_b_with_the_same_number() -> None:
    line = board_after(("3|6", None, None), ("6|6", "3|6", "high"), ("5|6", "6|6", "B"))
    assert describe(line, "en") == (
        "Tiles: [3|6], [6|6], [5|6]. Connections: [3|6] (high end) – [6|6] (side A); "
        "[6|6] (side B) – [5|6] (high end). Open places: [3|6] (low end, 3); [5|6] (low end, 5)."
    )
