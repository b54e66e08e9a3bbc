"""Shuffle generators: derived from the label, distinct, valid, independent of G and tiles."""

from p2p_dominoes.mental.generators import generator_sum, generators
from p2p_dominoes.mental.group import BASE, is_valid, sum_points
from p2p_dominoes.mental.tiles import TILE_POINTS


def test_generators() -> None:
    gens = generators(29)
    assert len({g.raw for g in gens}) == 29
    assert all(is_valid(g.raw) for g in gens)
    assert BASE not in {g.raw for g in gens}
    assert not {g.raw for g in gens} & {t.raw for t in TILE_POINTS}
    assert generators(5) == gens[:5]
    assert generator_sum(28) == sum_points(g.raw for g in gens[1:])
