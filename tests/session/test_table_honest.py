"""Honest tables: complete matches under every preset, every peer agreeing.

The default game plays at every table size; every other preset at one of its sizes, taken in
turn, so that each size is played by several presets without the run growing by three complete
matches per preset. The shapes and Kozel play their complete secure matches in their own tests
(`test_shapes_tables.py`, every shape at every size; `test_kozel_tables.py`)."""

import pytest

from p2p_dominoes.engine import PRESETS, HandEnd, Layout, replay
from p2p_dominoes.session import Phase
from p2p_dominoes.session.verify import verify_transcript
from tests.session.tables import play_table

GAMES = [
    *(("house", players) for players in PRESETS["house"].player_counts),
    *(
        (name, counts[index % len(counts)])
        for index, (name, counts) in enumerate(
            (name, sorted(PRESETS[name].player_counts))
            for name in sorted(PRESETS)
            if PRESETS[name].layout is Layout.LINE and not PRESETS[name].pairs
        )
        if name != "house"
    ),
]


@pytest.mark.slow
@pytest.mark.parametrize(("rules", "players"), GAMES)
def test_a_complete_match_ends_identically_on_every_peer(rules: str, players: int) -> None:
    played = play_table(rules, players, hands=None, seed=players)
    sessions = played.sessions
    assert [s.phase for s in sessions] == [Phase.OVER] * players
    assert [s.blame for s in sessions] == [None] * players
    # One transcript, byte for byte, on every peer.
    files = {s.transcript.to_bytes() for s in sessions}
    assert len(files) == 1
    # Every peer saw the same hands end the same way, and the match end at the target.
    ends = [
        [(e.number, e.result, e.scores) for e in played.hands_ended(seat)]
        for seat in range(players)
    ]
    assert all(seat_ends == ends[0] for seat_ends in ends)
    final = played.match_ended()
    assert final is not None and final.outcome.over
    assert max(final.scores) >= PRESETS[rules].target(players)
    # The engine alone, replaying each audited deal and its actions, agrees with the session.
    scores = (0,) * PRESETS[rules].units(players)  # a score per seat, or per pair (Kozel)
    for ended in played.hands_ended():
        assert ended.record.scores == scores
        engine_only = replay(ended.record)
        assert engine_only.result == ended.result
        assert engine_only.result.end in (
            HandEnd.DOMINO,
            HandEnd.BLOCK,
            HandEnd.EXHAUSTED,  # Fives, Threes, Threes for luck: the boneyard ran out
            HandEnd.TARGET,  # Fives, Threes: a target reached during play
        )
        scores = engine_only.scores
    assert scores == final.scores == sessions[0].scores
    # An offline verifier agrees too.
    report = verify_transcript(files.pop())
    assert report.ok and report.complete and report.scores == scores


def test_each_player_sees_only_their_own_tiles_until_the_end() -> None:
    from p2p_dominoes.session.events import TilesDealt

    played = play_table("draw", 3, hands=1)
    dealt = [next(e.tiles for e in played.events[s] if isinstance(e, TilesDealt)) for s in range(3)]
    assert all(len(tiles) == 7 for tiles in dealt)
    assert len({t for tiles in dealt for t in tiles}) == 21
    record = played.hands_ended()[0].record
    assert [set(h) for h in record.hands] == [set(d) for d in dealt]
    # A peer decrypts only the positions it was dealt and the ones it drew: nothing else.
    hand = played.sessions[1].hand
    assert hand is not None and hand.public is not None
    draws = sum(1 for seat, action in hand.public.history if seat == 1 and str(action) == "draw")
    assert set(hand.known) <= set(range(7, 14)) | set(range(21, 28))
    assert len(hand.known) == 7 + draws


def test_shuffle_progress_is_reported_seat_by_seat() -> None:
    from p2p_dominoes.session.events import ShuffleVerified

    played = play_table("block", 4, hands=1)
    progress = [
        (e.seat, e.done, e.total) for e in played.events[2] if isinstance(e, ShuffleVerified)
    ]
    assert progress == [(0, 1, 4), (1, 2, 4), (2, 3, 4), (3, 4, 4)]
