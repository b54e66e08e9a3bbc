"""v4 (PROTOCOL.md §16.1): a player who left comes back and takes its seat again.

Each test reads as an example: a three-seat table plays, seat 3 ("cat") goes silent in hand 2
and a bot takes its seat from hand 3; in hand 3 cat asks its seat back (a fresh key, the request
signed by the key it left with). At the next hand's start seat 1 puts the request on the table
(`come_back`: that hand is set aside, nothing of it was dealt), proposes the continuation that
gives the seat back, every other seat signs it (cat's fresh key too), and cat plays on with its
score.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from p2p_dominoes.session import Envelope, Identity, Phase, TableSession, Transcript
from p2p_dominoes.session.errors import InvalidMessage
from p2p_dominoes.session.events import CheatingDetected, HandEnded, SeatReplaced
from p2p_dominoes.session.leave_messages import COME_BACK, ask_to_come_back
from p2p_dominoes.session.local import LocalTable
from p2p_dominoes.session.schema import Wire
from p2p_dominoes.session.verify import verify_transcript
from tests.session.tables import LEAVING_HANDS, REGISTRY, in_hand_two, resign, three_seats


def _in_hand(number: int) -> object:
    """`run(until=…)`: seat 1 has made a move in hand `number`."""

    def until(table: LocalTable) -> bool:
        hand = table.sessions[0].hand
        return (
            hand is not None
            and hand.number == number
            and hand.public is not None
            and bool(hand.public.history)
        )

    return until


def _bot_in_seat_three(seed: int) -> tuple[LocalTable, list[list[object]]]:
    """cat (seat 3) killed in hand 2; the table plays hand 3 with "cat (bot)" in its seat."""
    table, events = three_seats(seed=seed)
    table.run(until=in_hand_two)
    table.kill(2)
    table.run(until=_in_hand(3))  # type: ignore[arg-type]
    assert table.sessions[0].names[2] == "cat (bot)"
    return table, events  # type: ignore[return-value]


def test_a_leaver_takes_its_seat_back_at_the_next_hand_and_the_match_ends_clean() -> None:
    table, events = _bot_in_seat_three(seed=3)
    fresh = table.come_back(2, "cat")
    table.run()
    assert all(s.phase is Phase.OVER for s in table.sessions)
    heads = {s.transcript.head for s in table.sessions}
    assert len(heads) == 1
    back = table.sessions[2]
    assert back.seat == 2 and back.transcript.keys[2] == fresh.public
    assert back.names == ["ann", "bob", "cat"]
    changes = [e for e in events[1] if isinstance(e, SeatReplaced)]
    assert [(e.seat, e.before, e.name, e.next_hand, e.back) for e in changes] == [
        (2, "cat", "cat (bot)", 3, False),
        (2, "cat (bot)", "cat", 5, True),
    ]
    # Hand 4 was set aside at its start (nothing dealt, no points); cat played hand 5.
    assert [e.number for e in events[0] if isinstance(e, HandEnded)] == [1, 3, 5]
    report = verify_transcript(back.transcript.to_bytes())
    assert report.ok, report.failure
    assert report.complete and report.head == heads.pop()
    assert report.hands == LEAVING_HANDS and report.scores == table.sessions[0].scores
    assert report.seat_changes == [(2, "cat", "cat (bot)", 3)]
    assert report.seats_back == [(2, "cat (bot)", "cat", 5)]


def test_the_come_back_carries_the_request_signed_by_the_old_key() -> None:
    table, _ = _bot_in_seat_three(seed=5)
    table.come_back(2, "cat")
    table.run()
    transcript = table.sessions[0].transcript
    (said,) = [e for e in transcript if e.type == COME_BACK]
    assert said.seat == 0  # the lowest seat other than the one asked back
    previous = transcript.previous_key(2)
    assert previous is not None and previous != transcript.genesis.seats[2].key


def test_a_request_not_signed_by_the_old_key_is_refused() -> None:
    table, _ = _bot_in_seat_three(seed=7)
    proposer = table.sessions[0]
    fresh = Identity.generate()
    stranger = Identity.generate()
    asked = ask_to_come_back(stranger, proposer.transcript.table_id, 2, "cat", fresh.public)
    with pytest.raises(ValueError, match="former holder"):
        proposer.ask_back(2, "cat", fresh.public, asked)
    assert proposer.coming_back is None


def test_the_old_key_itself_cannot_come_back() -> None:
    table, _ = _bot_in_seat_three(seed=7)
    proposer = table.sessions[0]
    old = table.replaced[-1]._identity
    assert old is not None
    asked = ask_to_come_back(old, proposer.transcript.table_id, 2, "cat", old.public)
    with pytest.raises(ValueError, match="held a seat"):
        proposer.ask_back(2, "cat", old.public, asked)


def test_only_the_lowest_other_seat_puts_the_request_on_the_table() -> None:
    table, _ = _bot_in_seat_three(seed=9)
    old = table.replaced[-1]._identity
    assert old is not None
    fresh = Identity.generate()
    asked = ask_to_come_back(old, table.sessions[1].transcript.table_id, 2, "cat", fresh.public)
    with pytest.raises(ValueError, match="not the one that proposes"):
        table.sessions[1].ask_back(2, "cat", fresh.public, asked)


def _returned(seed: int) -> tuple[LocalTable, int]:
    """A whole match in which cat came back; the index of its come_back in the record."""
    table, _ = _bot_in_seat_three(seed=seed)
    table.come_back(2, "cat")
    table.run()
    entries = table.sessions[0].transcript.entries
    return table, next(e.index for e in entries if e.envelope.type == COME_BACK)


def _observer(source: TableSession, count: int) -> TableSession:
    """An observer that checked `source`'s first `count` messages (as verify does)."""
    entries = source.transcript.entries
    observer = TableSession(Transcript(entries[0].envelope, REGISTRY), None, None)
    for entry in entries[1:count]:
        observer.admit(entry.envelope)
    return observer


def _resigned(table: LocalTable, index: int, change: Callable[[list[Wire]], None]) -> Envelope:
    """Message `index` of seat 1's record with its body changed, signed again by seat 1."""
    envelope = table.sessions[0].transcript.entries[index].envelope
    body = list(envelope.body)
    change(body)
    identity = table.sessions[0]._identity
    assert identity is not None
    return Envelope.decode(resign(envelope, identity, body), REGISTRY)


def test_a_come_back_with_a_forged_request_names_its_signer() -> None:
    table, at = _returned(seed=11)

    def forge(body: list[Wire]) -> None:
        body[4] = Identity.generate().sign(b"not the request")

    observer = _observer(table.sessions[0], at)
    with pytest.raises(InvalidMessage, match="old key") as raised:
        observer.admit(_resigned(table, at, forge))
    assert raised.value.code == "bad-come-back" and raised.value.seat == 0


def test_a_come_back_in_the_middle_of_a_hand_is_refused() -> None:
    table, _ = _bot_in_seat_three(seed=13)
    proposer = table.sessions[0]
    old = table.replaced[-1]._identity
    assert old is not None and proposer.hand is not None
    fresh = Identity.generate()
    asked = ask_to_come_back(old, proposer.transcript.table_id, 2, "cat", fresh.public)
    envelope = proposer._sign(COME_BACK, (proposer.hand.number, 2, "cat", fresh.public.raw, asked))
    update = table.sessions[1].receive(envelope.encode(), 0)
    (blamed,) = [e for e in update.events if isinstance(e, CheatingDetected)]
    assert blamed.blame.code == "out-of-turn" and "come_back" in blamed.blame.reason


def test_the_continuation_after_a_come_back_must_give_the_seat_to_who_asked() -> None:
    table, at = _returned(seed=15)
    honest = table.sessions[0].transcript.entries[at + 1].envelope
    assert honest.type.name == "continue"

    def other_key(body: list[Wire]) -> None:
        seats = list(body[2])  # type: ignore[arg-type]
        name, _, replaces = seats[2]  # type: ignore[misc]
        seats[2] = (name, Identity.generate().public.raw, replaces)
        body[2] = tuple(seats)

    observer = _observer(table.sessions[0], at + 1)
    with pytest.raises(InvalidMessage, match="another than the player who asked") as raised:
        observer.admit(_resigned(table, at + 1, other_key))
    assert raised.value.code == "bad-continue"
    observer.admit(honest)  # the honest one fits where the forged one did not


def test_seat_one_comes_back_through_seat_two_after_the_bot_in_its_seat_committed() -> None:
    # Seat 1 (ann, the host) is gone: seat 2 proposes both continuations; at hand 4's start the
    # bot in seat 1 commits first (its turn), then seat 2 puts ann's request on the table.
    table, events = three_seats(seed=17)
    table.run(until=in_hand_two)
    table.kill(0)
    table.run(until=_in_hand(3))  # type: ignore[arg-type]
    assert table.sessions[1].names[0] == "ann (bot)"
    table.come_back(0, "ann")
    table.run()
    assert all(s.phase is Phase.OVER for s in table.sessions)
    assert len({s.transcript.head for s in table.sessions}) == 1
    entries = table.sessions[1].transcript.entries
    at = next(e.index for e in entries if e.envelope.type == COME_BACK)
    assert entries[at].envelope.seat == 1
    assert entries[at - 1].envelope.type.name == "key_commit" and entries[at - 1].envelope.seat == 0
    report = verify_transcript(table.sessions[2].transcript.to_bytes())
    assert report.ok, report.failure
    assert report.seats_back == [(0, "ann (bot)", "ann", 5)]
    assert [e.number for e in events[1] if isinstance(e, HandEnded)] == [1, 3, 5]


def test_a_seat_whose_person_is_asked_before_going_on_signs_a_give_back_without_asking() -> None:
    """bob's peer has a person, who is asked before the table goes on with a newcomer
    (`agrees_by_default` off: the network's `asking`). A give-back names no newcomer: bob's
    peer signs it on its own, and the match ends clean (it would wait for an answer that is
    never asked for otherwise, and the table would stall)."""
    table, _ = _bot_in_seat_three(seed=3)
    table.sessions[1].agrees_by_default = False
    fresh = table.come_back(2, "cat")
    table.run()
    assert all(s.phase is Phase.OVER for s in table.sessions)
    assert len({s.transcript.head for s in table.sessions}) == 1
    assert table.sessions[2].transcript.keys[2] == fresh.public
