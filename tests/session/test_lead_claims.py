"""Lead claims, protocol v2 (PROTOCOL.md §10.5): beat the best so far, stop early, and the audit
holds every seat to its claim.

Seats claim in seat order. A seat reveals its best tile of the hand's rank list only when it
beats the best claim so far (the bound), else it sends nil; with the whole set dealt the bound
starts at the second-best tile, so only the holder of the best one reveals anything, and the phase
stops at once when the best tile is claimed. A nil claim that hid a better tile, or a revealed
tile that was not the seat's best, is found at the end-of-hand audit and blamed `audit-claim`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from p2p_dominoes import mental
from p2p_dominoes.bots import greedy_bot
from p2p_dominoes.engine import PRESETS, TILES, Rules, Tile
from p2p_dominoes.engine.opening import rank_list
from p2p_dominoes.mental import TileReveal
from p2p_dominoes.mental.randomness import DeterministicRandom
from p2p_dominoes.session import Envelope, Identity, Phase, TableSession
from p2p_dominoes.session import hand_messages as msg
from p2p_dominoes.session.events import HandEnded
from p2p_dominoes.session.local import LocalTable
from p2p_dominoes.session.verify import verify_transcript
from tests.session.tables import send_as

DRAW_UNTIL_PLAY = PRESETS["draw-until-play"]
FULL_DEAL = dataclasses.replace(
    DRAW_UNTIL_PLAY, name="full", hand_sizes=((2, 7), (4, 7)), targets=((2, 100), (4, 100))
)
"""Four players, seven each: every tile is dealt, so the holder of [6|6] certainly exists."""


def new_table(rules: Rules, players: int, seed: int, version: int = 2) -> LocalTable:
    return LocalTable.create(
        rules,
        [f"p{s}" for s in range(players)],
        [greedy_bot] * players,
        seed=seed,
        max_hands=1,
        identities=[Identity.generate() for _ in range(players)],
        rngs=[DeterministicRandom(f"claims/{seed}/{s}".encode()) for s in range(players)],
        protocol_version=version,
    )


def claims(session: TableSession) -> list[tuple[int, Tile | None]]:
    """(seat, revealed tile or None) for every lead claim in the transcript, in order."""
    out = []
    for envelope in session.transcript:
        if envelope.type is msg.LEAD_CLAIM:
            data = envelope.field("reveal")
            tile = None
            if isinstance(data, bytes):
                tile = TILES[TileReveal.from_bytes(data, envelope.seat).tile]
            out.append((envelope.seat, tile))
        elif envelope.type is msg.LEAD_CLAIM3:  # v3: the tile itself, proven to be dealt
            claim = envelope.field("claim")
            out.append((envelope.seat, None if claim is None else TILES[claim[0]]))
    return out


def deal(session_events: list[object]) -> tuple[tuple[Tile, ...], ...]:
    ended = [e for e in session_events if isinstance(e, HandEnded)]
    assert ended, "the hand did not end"
    return ended[0].record.hands


def played(table: LocalTable) -> list[list[object]]:
    events: list[list[object]] = [[] for _ in table.sessions]
    table.on_event = lambda seat, event: events[seat].append(event)
    table.run()
    assert table.blames == [None] * len(table.sessions)
    return events


def test_each_claim_beats_the_best_so_far_and_nil_hides_nothing_better() -> None:
    rank = rank_list(DRAW_UNTIL_PLAY, 1)
    for seed in range(3):
        table = new_table(DRAW_UNTIL_PLAY, 3, seed)
        events = played(table)
        made = claims(table.sessions[0])
        hands = deal(events[0])
        stopped = made[-1][1] is rank[0]  # [6|6] claimed: nobody can beat it, nobody speaks
        assert [seat for seat, _ in made] == list(range(len(made)))
        assert len(made) == 3 or stopped
        assert made[0][1] is not None  # nothing to beat yet, and every tile ranks: seat 0 shows
        bound = len(rank)
        for seat, tile in made:
            best = next(t for t in rank if t in hands[seat])
            if tile is None:
                assert rank.index(best) > bound  # it held nothing that beat the claims before
            else:
                assert tile is best and rank.index(tile) < bound
                bound = rank.index(tile)
        assert verify_transcript(table.sessions[0].transcript.to_bytes()).ok


def test_with_the_whole_set_dealt_only_the_best_tile_is_revealed_and_the_phase_stops() -> None:
    six = TILES[27]
    assert six.text == "[6|6]"
    for seed in range(2):
        table = new_table(FULL_DEAL, 4, seed)
        events = played(table)
        hands = deal(events[0])
        holder = next(s for s, hand in enumerate(hands) if six in hand)
        made = claims(table.sessions[0])
        assert made == [*((s, None) for s in range(holder)), (holder, six)]  # then nobody
        assert table.sessions[0].transcript.to_bytes() == table.sessions[3].transcript.to_bytes()


def cheat_claim(
    table: LocalTable, cheater: int, choose: Callable[[TableSession], Tile | None]
) -> None:
    """The cheater's peer signs (and accepts) the claim `choose` picks instead of its own."""
    session = table.sessions[cheater]
    honest = session._automatic_message

    def lying() -> Envelope:
        hand = session.hand
        if session.phase is not Phase.LEAD_CLAIM or hand is None or hand.keys is None:
            return honest()
        tile = choose(session)
        if tile is None:
            return session._sign(msg.LEAD_CLAIM, (hand.number, None))
        position = next(p for p in hand.held[cheater] if hand.known[p] is tile)
        reveal = mental.reveal_tile(
            hand.ctx, hand.keys, hand.deck, position, tile.index, DeterministicRandom(b"x")
        )
        return session._sign(msg.LEAD_CLAIM, (hand.number, reveal.to_bytes()))

    session._automatic_message = lying  # type: ignore[method-assign]


def test_a_false_nil_claim_is_blamed_at_the_audit() -> None:
    table = new_table(DRAW_UNTIL_PLAY, 2, 5)
    cheat_claim(table, 0, lambda session: None)  # seat 0 always holds a ranked tile
    table.run()
    assert {(b.seat, b.code) for b in table.blames if b} == {(0, "audit-claim")}
    assert all(s.phase is Phase.HALTED for s in table.sessions)
    blame = table.sessions[1].blame
    assert blame is not None and "claimed nothing, but held" in blame.reason
    first_claim = next(
        i for i, e in enumerate(table.sessions[1].transcript) if e.type is msg.LEAD_CLAIM
    )
    assert blame.index == first_claim  # the signed nil claim is the evidence


def test_a_revealed_claim_that_is_not_the_seats_best_is_blamed_at_the_audit() -> None:
    table = new_table(DRAW_UNTIL_PLAY, 2, 6)
    rank = rank_list(DRAW_UNTIL_PLAY, 1)

    def worst(session: TableSession) -> Tile:
        hand = session.hand
        assert hand is not None
        mine = [hand.known[p] for p in hand.held[0]]
        return max(mine, key=rank.index)

    cheat_claim(table, 0, worst)
    table.run()
    assert {(b.seat, b.code) for b in table.blames if b} == {(0, "audit-claim")}
    blame = table.sessions[1].blame
    assert blame is not None and "was not its best" in blame.reason


def refused_claim(seed: int) -> str | None:
    """Seat 1 also sends a claim that does not beat seat 0's; seat 0's blame (None: seat 1
    held nothing worse, so there was nothing to try)."""
    rank = rank_list(DRAW_UNTIL_PLAY, 1)
    table = new_table(DRAW_UNTIL_PLAY, 2, seed)
    session = table.sessions[1]
    honest = session._automatic_message
    sent: list[bytes] = []

    def lying() -> Envelope:
        hand = session.hand
        if session.phase is Phase.LEAD_CLAIM and hand is not None and hand.keys is not None:
            worse = [p for p in hand.held[1] if rank.index(hand.known[p]) >= hand.bound]
            if worse and not sent:
                position, rng = worse[0], DeterministicRandom(b"y")
                tile = hand.known[position]
                keys, deck = hand.keys, hand.deck
                reveal = mental.reveal_tile(hand.ctx, keys, deck, position, tile.index, rng)
                forged = session._sign(msg.LEAD_CLAIM, (hand.number, reveal.to_bytes()))
                sent.append(forged.encode())
                send_as(table, 1, forged.encode())
        return honest()

    session._automatic_message = lying  # type: ignore[method-assign]
    table.run()
    if not sent:
        return None
    blame = table.sessions[0].blame
    assert blame is not None and (blame.seat, blame.code) == (1, "illegal-action")
    return blame.reason


def test_a_claim_that_does_not_beat_the_best_so_far_is_refused_at_once() -> None:
    for seed in range(40):
        reason = refused_claim(seed)
        if reason is not None:
            assert "a claim must beat" in reason
            return
    raise AssertionError("no deal gave seat 1 a tile worse than seat 0's claim")


def test_a_first_version_table_still_has_every_seat_reveal_and_verifies() -> None:
    table = new_table(DRAW_UNTIL_PLAY, 3, 1, version=1)
    played(table)
    made = claims(table.sessions[0])
    assert [s for s, _ in made] == [0, 1, 2] and all(t is not None for _, t in made)
    report = verify_transcript(table.sessions[0].transcript.to_bytes())
    assert report.ok and report.hands == 1


REDEAL = Rules.from_dict(
    {
        "base": "house",
        "name": "redeal",
        "hand_sizes": [[2, 2]],
        "targets": [[2, 101]],
        "first_fallback": "redeal",
    }
)


def forced_redeal(seed: int) -> LocalTable | None:
    """Seat 0 hides the double it holds, hoping for a redeal; None when the deal did not give
    seat 0 the only double(s) (then there was nothing to force)."""
    table = new_table(REDEAL, 2, seed)
    cheat_claim(table, 0, lambda session: None)
    table.run()
    if any(e.type is msg.PLAY for e in table.sessions[1].transcript):
        return None  # seat 1 claimed a double, so the hand was played
    blame = table.sessions[1].blame
    return table if blame is not None else None


def test_hiding_a_double_to_force_a_redeal_is_blamed_before_any_redeal() -> None:
    for seed in range(60):
        table = forced_redeal(seed)
        if table is None:
            continue
        honest = table.sessions[1]
        assert honest.blame is not None
        assert (honest.blame.seat, honest.blame.code) == (0, "audit-claim")
        assert "claimed nothing, but held" in honest.blame.reason
        kinds = [e.type for e in honest.transcript]
        assert msg.HAND_REVEAL not in kinds  # straight to the secrets: nothing was played
        assert kinds[-1] is msg.SECRET_REVEAL  # and no second deal began
        return
    raise AssertionError("no deal gave seat 0 the only double")
