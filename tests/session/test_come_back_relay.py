"""v4 (PROTOCOL.md §16.1): a returning player's request that reaches a seat which does not
propose its return is passed on to the one that does, checked, once and bounded.

Each test reads as an example: a three-seat table plays, seat 3 ("cat") goes silent in hand 2
and a bot takes its seat from hand 3; cat asks its seat back. Seat 1 (ann) proposes its return;
seat 2 (bob) hears the request (cat reached bob only: ann's address, say, is a bot's that
nobody was told) and passes it on to seat 1.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from p2p_dominoes.session import (
    Identity,
    PublicIdentity,
    TableSession,
    Transcript,
    default_registry,
)
from p2p_dominoes.session.come_back_relay import (
    ASK_BURST,
    ASK_PER_SECOND,
    PASS_ON_GAP,
    REPEAT_GAP,
    AskLimit,
    ComeBackRelay,
    proposer_of,
    request_fault,
)
from p2p_dominoes.session.leave_messages import ask_to_come_back
from p2p_dominoes.session.local import LocalTable
from tests.session.tables import in_hand_two, three_seats


@dataclass(frozen=True)
class _Request:
    seat: int
    name: str
    key: PublicIdentity
    asked: bytes


def _went_on() -> tuple[LocalTable, Identity]:
    """The table once a bot holds seat 3, and cat's old key (the one it left with)."""
    table, _ = three_seats(seed=3)
    table.run(until=in_hand_two)
    table.kill(2)
    table.run(until=lambda t: t.sessions[0].names[2] == "cat (bot)")
    old = next(s for s in table.replaced if s.seat == 2)._identity
    assert old is not None
    return table, old


def _request(session: TableSession, old: Identity, name: str = "cat") -> _Request:
    fresh = Identity.generate().public
    asked = ask_to_come_back(old, session.transcript.table_id, 2, name, fresh)
    return _Request(2, name, fresh, asked)


def _pass(relay: ComeBackRelay, session: TableSession, ask: _Request, now: float) -> int | None:
    return relay.pass_to(session, ask.seat, ask.name, ask.key, ask.asked, now)


def test_a_seat_that_does_not_propose_passes_a_valid_request_on_to_the_one_that_does() -> None:
    table, old = _went_on()
    bob = table.sessions[1]
    ask = _request(bob, old)
    assert proposer_of(3, 2) == 0
    assert request_fault(bob, ask.seat, ask.name, ask.key, ask.asked) is None
    assert _pass(ComeBackRelay(), bob, ask, 0.0) == 0
    # ann, who proposes, takes what bob passed on: it goes on the table at the next hand.
    ann = table.sessions[0]
    ann.ask_back(ask.seat, ask.name, ask.key, ask.asked)
    assert ann.coming_back is not None and ann.coming_back.key == ask.key


def test_the_seat_that_proposes_keeps_it_and_passes_nothing_on() -> None:
    table, old = _went_on()
    ann = table.sessions[0]
    assert _pass(ComeBackRelay(), ann, _request(ann, old), 0.0) is None


def test_a_request_not_signed_by_the_seats_former_holder_is_not_passed_on() -> None:
    table, _ = _went_on()
    bob = table.sessions[1]
    forged = _request(bob, Identity.generate())  # a key that never held seat 3
    assert request_fault(bob, forged.seat, forged.name, forged.key, forged.asked) is not None
    assert _pass(ComeBackRelay(), bob, forged, 0.0) is None
    # Nor one for another table, nor a seat that never changed hands (seat 2's, say).
    old = next(s for s in table.replaced if s.seat == 2)._identity
    assert old is not None
    fresh = Identity.generate().public
    elsewhere = ask_to_come_back(old, bytes(16), 2, "cat", fresh)
    assert _pass(ComeBackRelay(), bob, _Request(2, "cat", fresh, elsewhere), 0.0) is None
    table_id = bob.transcript.table_id
    unchanged = ask_to_come_back(old, table_id, 1, "cat", fresh)
    assert (
        _pass(ComeBackRelay(), table.sessions[2], _Request(1, "cat", fresh, unchanged), 0.0) is None
    )


def test_a_key_that_held_a_seat_cannot_ask_one_back() -> None:
    table, old = _went_on()
    bob = table.sessions[1]
    held = bob.transcript.keys[0]  # ann's key
    asked = ask_to_come_back(old, bob.transcript.table_id, 2, "cat", held)
    assert _pass(ComeBackRelay(), bob, _Request(2, "cat", held, asked), 0.0) is None


def test_an_observer_passes_nothing_on() -> None:
    table, old = _went_on()
    bob = table.sessions[1]
    entries = bob.transcript.entries
    follower = TableSession(Transcript(entries[0].envelope, default_registry()), None, None)
    for entry in entries[1:]:
        follower.admit(entry.envelope)
    assert _pass(ComeBackRelay(), follower, _request(bob, old), 0.0) is None


def test_the_same_request_is_passed_on_again_only_after_a_while() -> None:
    table, old = _went_on()
    bob, relay = table.sessions[1], ComeBackRelay()
    ask = _request(bob, old)
    assert _pass(relay, bob, ask, 100.0) == 0
    assert _pass(relay, bob, ask, 100.0 + PASS_ON_GAP + 1) is None  # a repeat: dropped
    assert _pass(relay, bob, ask, 100.0 + REPEAT_GAP) == 0  # the proposer may have missed it


def test_a_seats_requests_are_passed_on_at_most_one_each_gap() -> None:
    """A former holder can sign as many fresh keys as it likes: one of them goes each gap."""
    table, old = _went_on()
    bob, relay = table.sessions[1], ComeBackRelay()
    assert _pass(relay, bob, _request(bob, old), 0.0) == 0
    flood = [_request(bob, old) for _ in range(20)]
    assert [_pass(relay, bob, ask, 0.1 * i) for i, ask in enumerate(flood)] == [None] * 20
    assert _pass(relay, bob, _request(bob, old), PASS_ON_GAP + 2.0) == 0


def test_an_invalid_request_does_not_hold_back_a_valid_one() -> None:
    table, old = _went_on()
    bob, relay = table.sessions[1], ComeBackRelay()
    assert _pass(relay, bob, _request(bob, Identity.generate()), 0.0) is None
    assert _pass(relay, bob, _request(bob, old), 0.0) == 0


@pytest.mark.parametrize("spacing", [0.0, 0.1])
def test_a_connections_requests_are_counted_before_they_are_checked(spacing: float) -> None:
    limit = AskLimit(0.0)
    taken = [limit.allow(spacing * i) for i in range(10)]
    assert taken[:ASK_BURST] == [True] * ASK_BURST
    assert taken.count(True) <= ASK_BURST + int(10 * spacing * ASK_PER_SECOND) + 1
    assert limit.allow(10 * spacing + ASK_BURST / ASK_PER_SECOND)  # the bucket fills again
