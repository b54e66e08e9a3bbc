"""What a searching bot needs: positions from a seat's view, inference of what opponents cannot
hold, samples of the hidden tiles, and play-outs on the engine's hand with an exact end-game
solve.

Everything here reads only what a seat may know (its `SeatView`) plus, for a position, an
assignment of the hidden tiles that the caller supplies (a sample). A position is replayed from
the view's public history on a `PublicHand`, so every public rule (clocks, forced draws, scores
during play) comes out as the table has it; the hidden part is then checked against the view.
It lives with the bots, not in the engine: the engine judges moves, this chooses them.
"""

from p2p_dominoes.bots.search.inference import OpponentModel
from p2p_dominoes.bots.search.playout import (
    blocking_action,
    greedy_action,
    play_greedy,
    play_pairs,
    play_random,
    solve,
)
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
    "Facts",
    "Hidden",
    "OpponentModel",
    "PositionError",
    "Sampler",
    "Snapshot",
    "TableView",
    "blocking_action",
    "cannot_hold",
    "facts_of",
    "greedy_action",
    "play_greedy",
    "play_pairs",
    "play_random",
    "position",
    "sample_hidden",
    "sample_position",
    "snapshot",
    "solve",
    "unseen_mask",
]
