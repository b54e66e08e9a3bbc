"""A faulty network between peers: dropped, duplicated, delayed, reordered and tampered messages.

Honest peers must still finish with one identical transcript: duplicates are ignored, early
messages wait for their predecessor, and whatever was lost is fetched again in a catch-up round.
Tampered bytes fail their signature and are dropped without blaming anyone.
"""

from __future__ import annotations

import random

import pytest

from p2p_dominoes.session import Phase
from p2p_dominoes.session.local import Link, LocalTable
from tests.session.tables import play_table


def dropping(rate: float, seed: int) -> Link:
    rng = random.Random(seed)
    return lambda s, r, data: [] if rng.random() < rate else [data]


def duplicating(s: int, r: int, data: bytes) -> list[bytes]:
    return [data, data]


def tampering(rate: float, seed: int) -> Link:
    rng = random.Random(seed)

    def link(s: int, r: int, data: bytes) -> list[bytes]:
        if rng.random() >= rate:
            return [data]
        spoiled = bytearray(data)
        spoiled[rng.randrange(len(spoiled))] ^= 1 << rng.randrange(8)
        return [bytes(spoiled)]

    return link


class Reordering:
    """Holds back some messages and releases them later, out of order."""

    def __init__(self, rate: float, seed: int) -> None:
        self.rng = random.Random(seed)
        self.rate = rate
        self.held: list[tuple[int, int, bytes]] = []
        self.table: LocalTable | None = None

    def __call__(self, sender: int, receiver: int, data: bytes) -> list[bytes]:
        assert self.table is not None
        if self.held and self.rng.random() < 0.5:
            self.table.queue.append(self.held.pop(self.rng.randrange(len(self.held))))
        if self.rng.random() < self.rate:
            self.held.append((sender, receiver, data))
            return []
        return [data]


def assert_all_agree(table: LocalTable) -> None:
    assert [s.blame for s in table.sessions] == [None] * len(table.sessions)
    assert all(s.phase is Phase.OVER for s in table.sessions)
    assert len({s.transcript.to_bytes() for s in table.sessions}) == 1


@pytest.mark.parametrize(
    "link",
    [dropping(0.15, 1), duplicating, tampering(0.1, 2)],
    ids=["drop", "duplicate", "tamper"],
)
def test_honest_peers_finish_identically_over_a_faulty_network(link: Link) -> None:
    played = play_table("draw", 3, hands=1, link=link, seed=5)
    assert_all_agree(played.table)


def test_delayed_and_reordered_messages_wait_for_their_predecessors() -> None:
    reordering = Reordering(0.3, 3)

    def setup(table: LocalTable) -> None:
        reordering.table = table

    played = play_table("block", 4, hands=1, link=reordering, seed=6, setup=setup)
    assert_all_agree(played.table)


def test_a_peer_that_missed_everything_catches_up_from_the_others() -> None:
    cut_off = 2

    def deaf(sender: int, receiver: int, data: bytes) -> list[bytes]:
        return [] if receiver == cut_off else [data]

    played = play_table("draw", 3, hands=1, link=deaf, seed=7)
    assert_all_agree(played.table)
