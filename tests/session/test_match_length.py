"""The match length signed in the genesis: every peer and any verifier stop after the same hand."""

from __future__ import annotations

import pytest

from p2p_dominoes.session import Identity, InvalidMessage, Phase, TableSession, Transcript
from p2p_dominoes.session.events import HandStarted, MatchEnded
from p2p_dominoes.session.hand_messages import KEY_COMMIT
from p2p_dominoes.session.verify import verify_transcript
from tests.session.tables import play_table


@pytest.mark.parametrize("hands", [1, 2, 3])
def test_every_seat_stops_after_the_genesis_hands_and_says_why(hands: int) -> None:
    played = play_table("draw", 3, hands=hands, seed=7)
    for seat, session in enumerate(played.sessions):
        assert session.transcript.genesis.max_hands == hands
        assert session.phase is Phase.OVER
        ended = played.match_ended(seat)
        assert ended is not None and ended.max_hands == hands
        # Over at the target (perhaps before the last hand), or after exactly `hands` hands.
        assert ended.outcome.over != ended.limit_reached
        assert ended.hands == hands if ended.limit_reached else ended.hands <= hands
        started = [e.number for e in played.events[seat] if isinstance(e, HandStarted)]
        assert started == list(range(1, ended.hands + 1))  # no hand after the last


def test_a_verifier_reads_the_length_from_the_genesis_and_sees_the_match_finished() -> None:
    """Two hands of a match to 101: the verifier reads the length from the genesis and sees the
    match over after the second hand, or (a rare deal) at its target in fewer (the shuffles use
    fresh randomness: no seed fixes the deal)."""
    played = play_table("draw", 2, hands=2, seed=3)
    report = verify_transcript(played.sessions[0].transcript.to_bytes())
    assert report.ok and report.complete and report.max_hands == 2
    assert report.outcome is not None
    assert report.limit_reached != report.outcome.over
    assert report.hands == 2 if report.limit_reached else report.hands <= 2


def test_nothing_may_follow_the_last_hand() -> None:
    """A message signed after the agreed hands is out of turn for an observer (verify)."""
    ids = [Identity.generate() for _ in range(2)]
    played = play_table("draw", 2, hands=1, seed=3, identities=ids)
    transcript = played.sessions[0].transcript
    observer = TableSession(Transcript(transcript[0].envelope, transcript.registry), None, None)
    for entry in transcript.entries[1:]:
        observer.admit(entry.envelope)
    assert observer.phase is Phase.OVER
    commit = next(e.envelope for e in transcript.entries if e.envelope.type is KEY_COMMIT)
    # Seat 0 commits to a second hand's key, as if the match went on.
    extra = transcript.sign_next(ids[0], 0, KEY_COMMIT, (2, commit.body[1]))
    with pytest.raises(InvalidMessage) as caught:
        observer.admit(extra)
    assert caught.value.code == "out-of-turn"


def test_a_whole_match_has_no_limit() -> None:
    played = play_table("draw", 2, hands=None, seed=5)
    ended = played.match_ended()
    assert isinstance(ended, MatchEnded) and ended.outcome.over and not ended.limit_reached
    assert ended.max_hands is None
