"""At a networked table (peer sessions through an in-memory router) a bot's view tells its own
draws, as the search needs: each tile the seat drew, in order."""

from __future__ import annotations

import random
from itertools import pairwise

from p2p_dominoes.bots import greedy_bot
from p2p_dominoes.engine import DRAW, PeerView, SeatView
from p2p_dominoes.engine.actions import Action
from tests.session.tables import play_table


def test_a_peers_view_lists_the_tiles_its_seat_drew() -> None:
    seen: list[tuple[int, frozenset[str], tuple[str, ...], Action]] = []

    def watching(view: SeatView, rng: random.Random) -> Action:
        action = greedy_bot(view, rng)
        assert isinstance(view, PeerView)
        draws = tuple(t.text for t in view.own_draws)
        seen.append((view.seat, frozenset(t.text for t in view.hand), draws, action))
        return action

    play_table("draw", 2, hands=3, bots=[watching, watching], seed=4)
    checked = 0
    for seat in (0, 1):
        mine = [s for s in seen if s[0] == seat]
        for before, after in pairwise(mine):
            if before[3] is DRAW:
                (new,) = after[1] - before[1]
                assert after[2][-1] == new and len(after[2]) == len(before[2]) + 1
                checked += 1
    assert checked > 0
