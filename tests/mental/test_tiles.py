"""Tiles: canonical order, text form, valid and distinct points, reverse lookup."""

import pytest

from p2p_dominoes.mental.group import BASE, is_valid
from p2p_dominoes.mental.tiles import (
    TILE_COUNT,
    TILE_POINTS,
    TILES,
    parse_tile,
    point_to_tile,
    tile_point,
    tile_text,
)


def test_canonical_order() -> None:
    assert TILE_COUNT == 28
    assert TILES[0] == (0, 0) and TILES[1] == (0, 1) and TILES[7] == (1, 1)
    assert TILES[-1] == (6, 6)
    assert list(TILES) == sorted(TILES)


def test_text_round_trip() -> None:
    for t in range(TILE_COUNT):
        assert parse_tile(tile_text(t)) == t
    assert tile_text(8) == "1|2"
    assert parse_tile("2|1") == 8
    for bad in ("7|1", "1-2", "12", "1|", "a|b", "1|2|3"):
        with pytest.raises(ValueError):
            parse_tile(bad)


def test_points_valid_distinct_and_looked_up() -> None:
    assert len({p.raw for p in TILE_POINTS}) == 28
    for t in range(TILE_COUNT):
        assert is_valid(tile_point(t).raw)
        assert point_to_tile(tile_point(t).raw) == t
    assert point_to_tile(BASE) is None
