"""What a searching bot needs: positions from a seat's view, inference of what opponents cannot
hold, samples of the hidden tiles, and a fast play-out path with an exact end-game solve.

Everything here reads only what a seat may know (its `SeatView`) plus, for a position, an
assignment of the hidden tiles that the caller supplies (a sample). A position is replayed from
the view's public history on a `PublicHand`, so every public rule (clocks, forced draws, scores
during play) comes out as the table has it; the hidden part is then checked against the view.
It lives with the bots, not in the engine: the engine judges moves, this chooses them.
"""

from p2p_dominoes.bots.search.inference import OpponentModel
from p2p_dominoes.bots.search.playout import DRAW_MOVE, LEAD, PASS_MOVE, FastHand, fast_move
from p2p_dominoes.bots.search.position import (
    Facts,
    PositionError,
    Snapshot,
    TableView,
    facts_of,
    snapshot,
)
from p2p_dominoes.bots.search.sampler import (
    Hidden,
    Sampler,
    cannot_hold,
    position,
    sample_hidden,
    sample_position,
    unseen_mask,
)

__all__ = [
    "DRAW_MOVE",
    "LEAD",
    "PASS_MOVE",
    "Facts",
    "FastHand",
    "Hidden",
    "OpponentModel",
    "PositionError",
    "Sampler",
    "Snapshot",
    "TableView",
    "cannot_hold",
    "facts_of",
    "fast_move",
    "position",
    "sample_hidden",
    "sample_position",
    "snapshot",
    "unseen_mask",
]
