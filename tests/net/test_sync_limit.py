"""Catch-up request limits (`p2p_dominoes.net.sync_limit`), pure: one outstanding per link, a
few a second, the excess coalesced into the latest head, and answers bounded in bytes."""

from __future__ import annotations

from p2p_dominoes.net.sync_limit import (
    MAX_SYNC_ANSWER_BYTES,
    SYNC_BURST,
    SYNC_PER_SECOND,
    SyncGate,
    bounded_answer,
)


def _head(n: int) -> bytes:
    return n.to_bytes(32, "big")


def test_one_request_is_outstanding_and_a_newer_one_replaces_the_waiting_one() -> None:
    gate = SyncGate(0.0)
    assert gate.ask(_head(1), 0.0) == _head(1)
    assert gate.ask(_head(2), 0.0) is None  # the first is not answered yet
    assert gate.ask(_head(3), 0.0) is None
    assert gate.due(0.0) is None  # still outstanding
    gate.answered()
    assert gate.due(0.0) == _head(3)  # the latest head, once
    gate.answered()
    assert gate.due(0.0) is None
    assert gate.excess == 2


def test_a_flood_gets_a_few_answers_a_second() -> None:
    gate = SyncGate(0.0)
    answered = 0
    now = 0.0
    for n in range(3000):  # 300 requests after each of 10 messages a second, for 1 s... x10
        now = n / 300
        if gate.ask(_head(n), now) is not None:
            answered += 1
            gate.answered()
    assert answered <= SYNC_BURST + SYNC_PER_SECOND * now + 1
    assert gate.excess >= 3000 - answered - 1


def test_an_honest_peer_asking_once_a_second_is_always_answered_at_once() -> None:
    gate = SyncGate(0.0)
    for n in range(100):
        assert gate.ask(_head(n), float(n)) == _head(n)
        gate.answered()
    assert gate.excess == 0


def test_answers_are_bounded_in_bytes_and_never_empty() -> None:
    big = [bytes(700_000)] * 10
    assert len(bounded_answer(big)) == MAX_SYNC_ANSWER_BYTES // 700_000
    assert bounded_answer([bytes(MAX_SYNC_ANSWER_BYTES + 1)]) == [bytes(MAX_SYNC_ANSWER_BYTES + 1)]
    assert bounded_answer([]) == []
    small = [b"x" * 100] * 50
    assert bounded_answer(small) == small
