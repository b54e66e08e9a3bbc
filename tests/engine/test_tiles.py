"""The 28 tiles, their text, and parsing."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from p2p_dominoes.engine import TILES, InvalidRecord, Tile, parse_tile, tile_of, tiles_in
from p2p_dominoes.engine.tiles import VALUE_MASK, mask_of, pips_in


def test_double_six_set_has_28_distinct_tiles_in_canonical_order() -> None:
    assert len(TILES) == 28
    assert [t.text for t in TILES[:8]] == [
        "[0|0]",
        "[0|1]",
        "[0|2]",
        "[0|3]",
        "[0|4]",
        "[0|5]",
        "[0|6]",
        "[1|1]",
    ]
    assert TILES[-1].text == "[6|6]"
    assert len({(t.low, t.high) for t in TILES}) == 28


def test_tile_text_puts_the_lower_half_first_and_parsing_accepts_either_order() -> None:
    assert parse_tile("4|1") is parse_tile("1|4") is parse_tile("[1|4]") is tile_of(4, 1)
    assert parse_tile("4|1").text == "[1|4]"


def test_pips_count_both_halves() -> None:
    assert parse_tile("6|6").pips == 12
    assert parse_tile("0|0").pips == 0
    assert pips_in(mask_of([parse_tile("1|2"), parse_tile("3|4")])) == 10


@given(st.sets(st.sampled_from(TILES)))
def test_pips_in_any_set_of_tiles_is_the_sum_of_their_pips(tiles: set[Tile]) -> None:
    held = [t for t in TILES if t in tiles]
    assert pips_in(mask_of(held)) == sum(t.pips for t in held)


@pytest.mark.parametrize("bad", ["7|1", "1-4", "", "1|", "|", "10|1", 14, None, "1|4|5"])
def test_unknown_tiles_are_refused_with_a_clear_error(bad: object) -> None:
    with pytest.raises(InvalidRecord, match="tile"):
        parse_tile(bad)


def test_value_masks_hold_the_seven_tiles_of_each_number() -> None:
    for value in range(7):
        holding = list(tiles_in(VALUE_MASK[value]))
        assert len(holding) == 7
        assert all(t.has(value) for t in holding)
    assert list(tiles_in(VALUE_MASK[0])) == [t for t in TILES if t.low == 0]
