"""Kozel at a secure table: four peers in two pairs play whole matches over the mental-poker
session; only the holder of [1|1] shows a tile before the lead; every peer computes the pairs'
scores and the ceremonies from public plays alike, and the transcript verifies and replays."""

from __future__ import annotations

from p2p_dominoes.bots import partner_bot
from p2p_dominoes.commands.verify import report_summary
from p2p_dominoes.engine import PRESETS, TILES, replay
from p2p_dominoes.mental.randomness import DeterministicRandom
from p2p_dominoes.session import (
    Identity,
    Phase,
    TableSession,
    Transcript,
    default_registry,
    new_table_nonce,
)
from p2p_dominoes.session.local import LocalTable
from p2p_dominoes.session.verify import verify_transcript
from tests.session.tables import play_table
from tests.session.test_lead_claims import claims
from tests.session.test_resume_v2 import KeptKeys, step_until

ONE_ONE = next(t for t in TILES if t.text == "[1|1]")
NAMES = ["Ann", "Bob", "Cid", "Dan"]


def test_a_whole_kozel_match_is_played_by_pairs_and_verifies() -> None:
    played = play_table("kozel", 4, hands=None, seed=5)
    assert played.table.blames == [None] * 4
    ended = played.match_ended()
    assert ended is not None and ended.outcome.over and ended.outcome.pairs
    scores = ended.scores
    assert len(scores) == 2  # us and them
    (loser,) = ended.outcome.losers
    assert scores[loser] >= 101 and scores[1 - loser] < 101 and ended.outcome.winner == 1 - loser
    assert ended.outcome.title == "goat"
    totals = [0, 0]
    for hand in played.hands_ended():
        result = hand.result
        assert len(result.points) == 2 and len(result.seat_pips) == 4
        assert all(p == 0 or p >= 13 for p in result.points)  # under 13 is not written
        assert result.ceremonies == ()  # the plain preset has them off
        totals = [t + p for t, p in zip(totals, result.points, strict=True)]
        assert list(hand.scores) == totals
        assert replay(hand.record).result == result  # every peer's record replays alone
    transcripts = {s.transcript.to_bytes() for s in played.sessions}
    assert len(transcripts) == 1
    report = verify_transcript(transcripts.pop())
    assert report.ok and report.complete and report.scores == scores
    assert report.outcome is not None and report.outcome.losers == (loser,)
    shown = report_summary(report)["match"]  # verify --json
    assert shown["losers"] == [loser] and shown["title"] == "goat" and shown["winner"] == 1 - loser


def test_only_the_holder_of_1_1_shows_a_tile_before_the_lead() -> None:
    played = play_table("kozel", 4, hands=2, seed=8)
    assert played.table.blames == [None] * 4
    made = claims(played.sessions[0])
    hands = [h.record.hands for h in played.hands_ended()]
    assert len(hands) == 2
    start = 0
    for deal in hands:
        holder = next(s for s, hand in enumerate(deal) if ONE_ONE in hand)
        these = made[start : start + holder + 1]
        assert these == [*((s, None) for s in range(holder)), (holder, ONE_ONE)]  # then nobody
        start += holder + 1
    assert start == len(made)
    for hand in played.hands_ended():  # and each hand's lead is that very [1|1]
        holder = next(s for s, tiles in enumerate(hand.record.hands) if ONE_ONE in tiles)
        assert hand.record.actions[0] == {"seat": holder, "play": "1|1"}


def test_a_kozel_match_with_the_ceremonies_wipes_the_winner_and_verifies() -> None:
    """The deals are seeded (a ceremony is rare: about one hand in fifteen), so this match
    certainly has one."""
    rngs = [DeterministicRandom(f"ceremonies/1/{s}".encode()) for s in range(4)]
    played = play_table(PRESETS["kozel-ceremonies"], 4, hands=None, seed=1, rngs=rngs)
    assert played.table.blames == [None] * 4
    ceremonial = [h for h in played.hands_ended() if h.result.ceremonies]
    assert ceremonial, "the seeded deals no longer bring a ceremony: pick another seed"
    previous = (0, 0)
    for hand in played.hands_ended():
        result = hand.result
        expected = [s + p for s, p in zip(previous, result.points, strict=True)]
        if result.ceremonies:
            assert result.title == result.ceremonies[0]
            assert result.title in ("admiral", "snotty_goat", "general")
            assert result.winner is not None
            expected[result.winner] = 0  # «Победитель обнуляется»
        assert list(hand.scores) == expected
        previous = hand.scores
    ended = played.match_ended()
    assert ended is not None and ended.outcome.title in (
        "goat",
        "admiral",
        "snotty_goat",
        "general",
    )
    report = verify_transcript(played.sessions[2].transcript.to_bytes())
    assert report.ok and report.scores == ended.scores


def test_a_partner_who_comes_back_from_his_transcript_mid_hand_keeps_the_pairs_scores() -> None:
    """Cid (seat 2) is rebuilt from his transcript in the turns of hand 2, as `resume` does,
    with the pairs' totals of hand 1 already written; the match goes on to the same end."""
    ids = [Identity.generate() for _ in range(4)]
    nonces = [new_table_nonce() for _ in range(4)]
    table = LocalTable.create(
        PRESETS["kozel"],
        NAMES,
        [partner_bot] * 4,
        seed=3,
        max_hands=2,
        identities=ids,
        nonces=nonces,
    )
    keys = KeptKeys()
    table.sessions[2]._hand_keys = keys
    for seat, session in enumerate(table.sessions):
        table._broadcast(seat, session.start())
    old = table.sessions[2]

    def in_hand_two() -> bool:
        hand = old.hand
        return hand is not None and hand.number == 2 and old.phase is Phase.TURNS

    assert step_until(table, in_hand_two)
    written = old.scores
    assert len(written) == 2  # us and them, after hand 1
    entries = old.transcript.entries
    resumed = TableSession(
        Transcript(entries[0].envelope, default_registry()),
        2,
        ids[2],
        hand_keys=keys,
        table_nonce=nonces[2],
    )
    for entry in entries[1:]:
        resumed.admit(entry.envelope)
    assert resumed.scores == written and resumed.phase is Phase.TURNS
    table.sessions[2] = resumed
    table._broadcast(2, resumed.start())
    step_until(table, lambda: all(s.finished for s in table.sessions))
    assert table.blames == [None] * 4
    assert len({s.scores for s in table.sessions}) == 1
    data = table.sessions[0].transcript.to_bytes()
    assert data == resumed.transcript.to_bytes()
    report = verify_transcript(data)
    assert report.ok and report.hands == 2 and report.scores == resumed.scores
