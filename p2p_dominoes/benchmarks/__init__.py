"""Benchmarks behind `p2p-dominoes bench`: they print figures and ratios.

The PyPI package `dominoes`'s player defaults live here, not in `alphabeta`, so that the
command line can show them in its help without importing the benchmarks at every start.
"""

from typing import Final

SAMPLES: Final = 10
"""The package player's default `sample_size`: guessed deals searched per decision."""
START_MOVE: Final = 6
"""The package player's default `start_move`: moves (passes included) before it searches; until
then its move ordering (`bota_gorda`, heaviest tile first) decides."""

__all__ = ["SAMPLES", "START_MOVE"]
