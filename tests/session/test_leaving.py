"""v4 (PROTOCOL.md §16): the match goes on when a seat leaves.

Each test reads as an example: a three-seat table plays, a seat leaves (its goodbye) or goes
silent for good (another seat says it stalled); the hand in play is void (nothing revealed, no
points), the lowest remaining seat proposes a fresh key for the seat, every other seat signs,
and the match ends with every live peer on the same head and a record that verifies clean.
"""

from __future__ import annotations

import pytest

from p2p_dominoes.session import Envelope, Identity, Phase, TableSession, Transcript
from p2p_dominoes.session.events import (
    CheatingDetected,
    HandAbandoned,
    HandEnded,
    MatchEnded,
    SeatReplaced,
)
from p2p_dominoes.session.leave_messages import CONTINUE, CONTINUE_SIGN, GOODBYE, Continuation
from p2p_dominoes.session.local import LocalTable
from p2p_dominoes.session.verify import verify_transcript
from tests.session.tables import (
    LEAVING_HANDS,
    REGISTRY,
    in_hand_two,
    kill_at_hand_two,
    resign,
    three_seats,
)


def _finished_the_same(table: LocalTable) -> bytes:
    """Every live peer ended the match on one head; the head."""
    assert all(s.phase is Phase.OVER for s in table.sessions), [s.phase for s in table.sessions]
    heads = {s.transcript.head for s in table.sessions}
    assert len(heads) == 1
    return heads.pop()


def test_a_seat_killedin_hand_two_is_replaced_and_the_match_ends_clean() -> None:
    table, events = three_seats()
    table.run(until=in_hand_two)
    table.kill(2)
    table.run()
    head = _finished_the_same(table)
    # Seat 0 said seat 2 stalled; hand 2 is void, recorded as abandoned by seat 3 (index 2).
    (abandoned,) = [e for e in events[0] if isinstance(e, HandAbandoned)]
    assert (abandoned.number, abandoned.seat, abandoned.reason, abandoned.by) == (
        2,
        2,
        "stalled",
        0,
    )
    (replaced,) = [e for e in events[1] if isinstance(e, SeatReplaced)]
    assert (replaced.seat, replaced.before, replaced.name, replaced.next_hand) == (
        2,
        "cat",
        "cat (bot)",
        3,
    )
    # The void hand scores nothing: the counted hands are LEAVING_HANDS, played as hands 1, 3, 4.
    ended = [e.number for e in events[0] if isinstance(e, HandEnded)]
    assert ended == [1, 3, 4]
    assert not any(isinstance(e, CheatingDetected) for seat in events for e in seat)
    report = verify_transcript(table.sessions[1].transcript.to_bytes())
    assert report.ok, report.failure
    assert report.complete and report.head == head
    assert report.hands == LEAVING_HANDS and report.scores == table.sessions[0].scores
    assert report.abandoned == [(2, 2, "stalled")]
    assert report.seat_changes == [(2, "cat", "cat (bot)", 3)]


def test_a_goodbye_makes_the_hand_void_and_the_leaver_only_follows_after() -> None:
    table, events = three_seats(seed=5)
    table.run(until=in_hand_two)
    table.leave(1)
    table.run()
    head = _finished_the_same(table)
    (abandoned,) = [e for e in events[2] if isinstance(e, HandAbandoned)]
    assert (abandoned.seat, abandoned.reason, abandoned.by) == (1, "left", 1)
    # The leaver's own session took its goodbye and stopped there: it holds no seat once the
    # continuation is in, and nothing it could still sign would count.
    (leaver,) = table.replaced
    assert leaver.phase is Phase.LEAVING and leaver.seat == 1
    report = verify_transcript(table.sessions[0].transcript.to_bytes())
    assert report.ok and report.complete and report.head == head
    assert report.abandoned == [(2, 1, "left")]
    assert [c[:3] for c in report.seat_changes] == [(1, "bob", "bob (bot)")]


def test_the_seat_keeps_its_score_under_its_new_holder() -> None:
    table, _ = three_seats(seed=7)
    table.run(until=in_hand_two)
    scores_when_left = table.sessions[0].scores
    table.leave(2)
    table.run()
    _finished_the_same(table)
    transcript = table.sessions[0].transcript
    (proposal,) = [Continuation.of(e) for e in transcript if e.type == CONTINUE]
    assert proposal.scores == scores_when_left  # every signer checked them against its own
    assert proposal.newcomer.replaces == transcript.genesis.seats[2].key.raw
    assert transcript.keys[2] == proposal.newcomer.key != transcript.genesis.seats[2].key


def test_a_continuation_with_other_scores_names_its_proposer() -> None:
    table, _ = three_seats(seed=9)
    table.run(until=in_hand_two)
    table.leave(2)
    proposer = table.sessions[0]
    table.run(until=lambda t: t.sessions[1].phase is Phase.LEAVING)
    assert proposer.phase is Phase.LEAVING  # the goodbye is in; nobody has proposed yet
    honest = proposer.propose_continue("dan", Identity.generate().public)
    envelope = Envelope.decode(honest.outgoing[0], REGISTRY)
    body = list(envelope.body)
    body[3] = tuple(score + 1 for score in proposer.scores)
    forged = resign(envelope, _identity_of(table, 0), body)
    update = table.sessions[1].receive(forged, 0)
    (blamed,) = [e for e in update.events if isinstance(e, CheatingDetected)]
    assert blamed.blame.seat == 0 and blamed.blame.code == "bad-continue"
    assert "scores" in blamed.blame.reason


def _identity_of(table: LocalTable, seat: int) -> Identity:
    identity = table.sessions[seat]._identity
    assert identity is not None
    return identity


def test_a_stalled_goodbye_for_a_seat_nobody_waits_for_is_refused() -> None:
    table, _ = three_seats(seed=11)
    table.run(until=in_hand_two)
    session = table.sessions[0]
    expected = session.expected
    assert expected is not None and session.hand is not None
    idle = next(s for s in (1, 2) if s != expected[0])
    with pytest.raises(ValueError, match="does not wait"):
        session.goodbye(idle)
    forged = session._sign(GOODBYE, (session.hand.number, idle, "stalled")).encode()
    update = table.sessions[1].receive(forged, 0)
    (blamed,) = [e for e in update.events if isinstance(e, CheatingDetected)]
    assert blamed.blame.seat == 0 and blamed.blame.code == "bad-goodbye"


def test_a_version_3_table_has_no_goodbye() -> None:
    table, _ = three_seats(version=3)
    table.run(until=in_hand_two)
    session = table.sessions[0]
    with pytest.raises(ValueError, match="no goodbye"):
        session.goodbye()
    assert session.hand is not None
    envelope = session._sign(GOODBYE, (session.hand.number, 0, "left"))
    update = table.sessions[1].receive(envelope.encode(), 0)
    (blamed,) = [e for e in update.events if isinstance(e, CheatingDetected)]
    assert "version 4" in blamed.blame.reason


def test_a_match_without_a_leaver_ends_as_before() -> None:
    table, events = three_seats(seed=3)
    table.run()
    _finished_the_same(table)
    assert [e for seat in events for e in seat if isinstance(e, HandAbandoned | SeatReplaced)] == []
    assert any(isinstance(e, MatchEnded) for e in events[0])


def test_a_seat_gone_before_its_key_commit_voids_a_hand_nobody_was_dealt() -> None:
    table, events = three_seats(seed=13)
    kill_at_hand_two(table)
    table.run()
    _finished_the_same(table)
    (abandoned,) = [e for e in events[1] if isinstance(e, HandAbandoned)]
    assert (abandoned.number, abandoned.seat, abandoned.reason) == (2, 2, "stalled")
    goodbye_at = next(i for i, e in enumerate(table.sessions[0].transcript) if e.type == GOODBYE)
    before = table.sessions[0].transcript[goodbye_at - 1].envelope
    assert before.type.name == "key_commit" and before.seat == 1
    report = verify_transcript(table.sessions[0].transcript.to_bytes())
    assert report.ok and report.abandoned == [(2, 2, "stalled")]


def _after_goodbye(seed: int, leaver: int = 2) -> LocalTable:
    """A table stopped right after `leaver`'s goodbye reached every other seat (nobody has
    proposed yet)."""
    table, _ = three_seats(seed=seed)
    table.run(until=in_hand_two)
    table.leave(leaver)
    table.run(until=lambda t: all(s.phase is Phase.LEAVING for _, s in t._live()))
    return table


def test_what_the_gone_seat_still_signs_is_dropped_not_blamed() -> None:
    table = _after_goodbye(seed=15)
    leaver = table.sessions[2]
    assert leaver.hand is not None
    # The leaver's peer signs one more message on its own head (as a stalled peer that wakes up
    # would), and one on an earlier head whose place another seat filled: both are dropped by
    # every other seat (before version 4 the second named its signer: `wrong-head`).
    late = leaver._sign(GOODBYE, (leaver.hand.number, 2, "left")).encode()
    entries = leaver.transcript.entries
    filled = next(e for e in reversed(entries[:-1]) if e.envelope.seat != 2)
    stale = resign(
        Envelope.decode(late, REGISTRY),
        _identity_of(table, 2),
        (2, 2, "left"),
        head=filled.envelope.head,
    )
    assert stale != late and Envelope.decode(stale, REGISTRY).head in {
        e.envelope.head for e in entries
    }
    for data in (late, stale):
        update = table.sessions[1].receive(data, 2)
        assert update.events == [] and table.sessions[1].blame is None
    assert table.sessions[1].phase is Phase.LEAVING


def test_a_continuation_that_changes_a_seat_that_stayed_is_refused() -> None:
    table = _after_goodbye(seed=17)
    proposer = table.sessions[0]
    honest = proposer.propose_continue("dan", Identity.generate().public)
    envelope = Envelope.decode(honest.outgoing[0], REGISTRY)
    seats = list(envelope.field("seats"))  # type: ignore[arg-type]
    seats[1] = ("bob", Identity.generate().public.raw, None)  # bob "left" too, says seat 0
    body = (*envelope.body[:2], tuple(seats), *envelope.body[3:])
    update = table.sessions[1].receive(resign(envelope, _identity_of(table, 0), body), 0)
    (blamed,) = [e for e in update.events if isinstance(e, CheatingDetected)]
    assert (
        blamed.blame.code == "bad-continue" and "seat 2, which did not leave" in blamed.blame.reason
    )


def test_the_leaver_cannot_take_its_own_seat_back_by_a_continuation() -> None:
    table = _after_goodbye(seed=19)
    proposer = table.sessions[0]
    old_key = proposer.transcript.keys[2]
    honest = proposer.propose_continue("cat again", Identity.generate().public)
    envelope = Envelope.decode(honest.outgoing[0], REGISTRY)
    seats = list(envelope.field("seats"))  # type: ignore[arg-type]
    seats[2] = ("cat again", old_key.raw, old_key.raw)
    body = (*envelope.body[:2], tuple(seats), *envelope.body[3:])
    update = table.sessions[1].receive(resign(envelope, _identity_of(table, 0), body), 0)
    (blamed,) = [e for e in update.events if isinstance(e, CheatingDetected)]
    assert blamed.blame.code == "bad-continue" and "held a seat" in blamed.blame.reason


def test_a_peer_that_asks_its_player_signs_only_when_told() -> None:
    table = _after_goodbye(seed=21)
    asked = table.sessions[1]
    asked.agrees_by_default = False
    table.run(until=lambda t: asked.phase is Phase.CONTINUE)
    table.run(until=lambda t: not t.queue)  # everything in flight is delivered: it waits
    assert asked.phase is Phase.CONTINUE and asked.expected == (1, asked.expected[1])
    with pytest.raises(ValueError, match="no continuation"):
        table.sessions[0].agree_to_continue()
    table._broadcast(1, asked.agree_to_continue())
    table.run()
    _finished_the_same(table)


def test_a_continue_sign_for_another_continuation_is_refused() -> None:
    table = _after_goodbye(seed=23)
    asked = table.sessions[1]
    asked.agrees_by_default = False
    table.run(until=lambda t: asked.phase is Phase.CONTINUE)
    assert asked.hand is not None
    wrong = asked._sign(CONTINUE_SIGN, (asked.hand.number, bytes(32)))
    update = table.sessions[0].receive(wrong.encode(), 1)
    (blamed,) = [e for e in update.events if isinstance(e, CheatingDetected)]
    assert blamed.blame.seat == 1 and blamed.blame.code == "bad-continue"


def test_a_saved_v4_record_loads_with_the_new_holders_key() -> None:
    table, _ = three_seats(seed=3)
    table.run(until=in_hand_two)
    table.kill(2)
    table.run()
    data = table.sessions[0].transcript.to_bytes()
    loaded = Transcript.from_bytes(data, REGISTRY)  # the chain and every signature, no rules
    assert loaded.head == table.sessions[0].transcript.head
    assert loaded.keys[2] == table.sessions[2].transcript.keys[2] != loaded.genesis.seats[2].key


def test_a_peer_that_does_not_go_on_stops_naming_the_leaver() -> None:
    """Until a peer's network layer can go on (`goes_on_after_goodbye`, off by default for a
    seat), a goodbye stops its table as a stall did before version 4, naming the seat that
    left: it never waits for a continuation that will not come."""
    table, events = three_seats(seed=25)
    table.run(until=in_hand_two)
    genesis = table.sessions[0].transcript.entries[0].envelope
    plain = TableSession(Transcript(genesis, REGISTRY), None, None)
    assert plain.goes_on_after_goodbye is False  # every session starts with it off
    for session in table.sessions:
        session.goes_on_after_goodbye = False
    table.leave(2)
    table.run()
    for seat in (0, 1):
        session = table.sessions[seat]
        assert session.phase is Phase.HALTED and session.blame is not None
        assert (session.blame.seat, session.blame.code, session.blame.expected) == (
            2,
            "stall",
            "goodbye",
        )
        assert [type(e) for e in events[seat][-2:]] == [HandAbandoned, CheatingDetected]
    report = verify_transcript(table.sessions[0].transcript.to_bytes())
    assert report.ok and not report.complete and report.abandoned == [(2, 2, "left")]
