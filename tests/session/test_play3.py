"""Protocol v3 plays: the tile and an OR-proof, never its deck position (PROTOCOL.md §10.6).

An observer of a v2 hand learns from each play whether the tile was dealt or drawn (the position
is on the wire); from a v3 hand it learns only the set of positions the seat ever held, which
the proof ranges over. Every cheat the position used to stop is still stopped, by the proof or
by "already played".
"""

from __future__ import annotations

from collections.abc import Callable

from p2p_dominoes import mental
from p2p_dominoes.engine import PRESETS, TILES, IllegalAction, Play
from p2p_dominoes.mental import Step, StepKind, TileReveal
from p2p_dominoes.session import Envelope, Identity, Phase, TableSession, tile_proofs
from p2p_dominoes.session import hand_messages as msg
from p2p_dominoes.session.local import LocalTable
from p2p_dominoes.session.verify import verify_transcript
from tests.session.tables import play_table, rewriting_link, send_as
from tests.session.test_table_cheaters import (
    CHEATER,
    cheaters_turn,
    finish,
    honest_blames,
    make_table,
    reasons,
    run_until,
)

DEALT = 14  # two seats of the `draw` preset: positions 0..13 dealt, then the boneyard


# -- what an observer of the wire learns of each play's position -----------------------------------


def candidate_positions(transcript: bytes) -> list[tuple[int, int, frozenset[int]]]:
    """(seat, tile, positions the message leaves possible) for each play, read from the wire
    alone: a v2 play names one position; a v3 play's proof covers 64 bytes per position of the
    set, which is every position the seat was dealt or drew so far."""
    from p2p_dominoes.session.messages import default_registry
    from p2p_dominoes.session.transcript import read_records

    held: dict[int, list[int]] = {s: list(range(s * 7, s * 7 + 7)) for s in range(2)}
    next_position, plays = DEALT, []
    for _, envelope in read_records(transcript, default_registry()):
        if envelope.type is msg.DRAW:
            held[envelope.seat].append(next_position)
            next_position += 1
        elif envelope.type is msg.PLAY:
            reveal = TileReveal.from_bytes(envelope.field("reveal"), envelope.seat)
            plays.append((envelope.seat, reveal.tile, frozenset({reveal.position})))
        elif envelope.type is msg.PLAY3:
            proof = envelope.field("proof")
            assert isinstance(proof, bytes) and envelope.field("drawn") is None
            assert len(proof) == 64 * len(held[envelope.seat])  # the proof names the set only
            tile = envelope.field("tile")
            assert isinstance(tile, int)
            plays.append((envelope.seat, tile, frozenset(held[envelope.seat])))
    return plays


def assert_positions_hidden(table: LocalTable) -> None:
    """Every play leaves possible every position its seat ever held (true in v3, not in v2),
    and the hand had plays of dealt and of drawn tiles, so there was something to hide."""
    session = table.sessions[0]
    hand = session.hand
    assert hand is not None and session.phase is Phase.OVER
    tiles = mental.decrypt_deck(hand.deck, hand.secrets)  # the truth, known after the audit
    where = {tile: position for position, tile in enumerate(tiles)}
    plays = candidate_positions(session.transcript.to_bytes())
    origins = {where[tile] >= DEALT for _, tile, _ in plays}
    assert origins == {False, True}, "a hand with plays of dealt and drawn tiles"
    for seat, tile, candidates in plays:
        assert where[tile] in candidates
        dealt = any(p < DEALT for p in candidates)
        drawn = any(p >= DEALT for p in candidates)
        assert dealt and (drawn or where[tile] < DEALT), (
            f"seat {seat}'s play of {mental.tile_text(tile)} says where it came from"
        )


def _hand_with_drawn_plays(version: int) -> LocalTable:
    """A clean 2-seat `draw` hand of protocol `version` with plays of dealt and drawn tiles."""
    for _ in range(20):
        table, _ = make_table("draw", 2, version=version)
        table.run()
        session = table.sessions[0]
        assert all(s.blame is None for s in table.sessions)
        assert verify_transcript(session.transcript.to_bytes()).ok
        hand = session.hand
        assert hand is not None
        tiles = mental.decrypt_deck(hand.deck, hand.secrets)
        where = {t: p for p, t in enumerate(tiles)}
        plays = candidate_positions(session.transcript.to_bytes())
        if {where[t] >= DEALT for _, t, _ in plays} == {False, True}:
            return table
    raise AssertionError("no hand with plays of drawn tiles in 20 tables")


def test_a_v2_play_tells_an_observer_where_its_tile_came_from() -> None:
    table = _hand_with_drawn_plays(2)
    try:
        assert_positions_hidden(table)
    except AssertionError as exc:
        assert "says where it came from" in str(exc)
    else:
        raise AssertionError("v2 plays were expected to name their positions")


def test_a_v3_play_leaves_every_held_position_possible() -> None:
    assert_positions_hidden(_hand_with_drawn_plays(3))


# -- cheats that v3 stops -------------------------------------------------------------------


def _place(session: TableSession, tile: int) -> tuple[int | None, str | None] | None:
    """A place where `tile` may legally go now, or None."""
    hand = session.hand
    assert hand is not None and hand.public is not None
    line = hand.public.line
    places = line.places if line.tiles else [None]
    for place in places:
        try:
            hand.public.check_play(CHEATER, Play(TILES[tile], place))
        except IllegalAction:
            continue
        return (None, None) if place is None else (place.tile.index, place.side.value)
    return None


def play3_message(
    session: TableSession,
    tile: int,
    real: int,
    at: int | None,
    side: str | None,
    change: Callable[[bytes], bytes] = lambda proof: proof,
    drawn: bool | None = None,
) -> bytes:
    """A play3 of `tile` signed by the session's seat, its proof made as if `real` held it."""
    hand = session.hand
    assert hand is not None and hand.keys is not None and session.seat is not None
    positions = hand.held[session.seat]
    branches = tile_proofs.branches(hand, session.seat, positions)
    step = Step(StepKind.PLAY, len(hand.tiles_played))
    proof = mental.prove_tile(hand.ctx, hand.keys, step, tile, branches, real)
    body = (hand.number, tile, change(proof), drawn, at, side)
    return session._sign(msg.PLAY3, body).encode()


def _at_cheaters_turn(players: int = 3) -> tuple[LocalTable, TableSession]:
    """The cheater to move with a tile that fits (the deal is random: it may first have to draw)."""
    table, _ = make_table("draw", players)

    def can_play(t: LocalTable) -> bool:
        session = t.sessions[CHEATER]
        hand = session.hand
        return (
            cheaters_turn(t)
            and hand is not None
            and any(
                _place(session, hand.known[p].index) is not None
                for p in hand.held[CHEATER]
                if p in hand.known and hand.known[p] not in hand.tiles_played
            )
        )

    run_until(table, can_play)
    return table, table.sessions[CHEATER]


def test_playing_a_tile_it_does_not_hold_fails_the_proof() -> None:
    table, session = _at_cheaters_turn()
    hand = session.hand
    assert hand is not None
    mine = {t.index for t in hand.known.values()}
    fake, place = next(
        (t, p) for t in range(28) if t not in mine and (p := _place(session, t)) is not None
    )
    send_as(table, CHEATER, play3_message(session, fake, hand.held[CHEATER][0], *place))
    finish(table)
    assert honest_blames(table) == {(CHEATER, "bad-proof")}
    assert "is not at any of its 7 positions" in reasons(table)


def test_a_play_proven_from_the_wrong_position_fails() -> None:
    table, session = _at_cheaters_turn()
    hand = session.hand
    assert hand is not None
    held = hand.held[CHEATER]
    tile, place = next(
        (hand.known[p].index, pl)
        for p in held
        if (pl := _place(session, hand.known[p].index)) is not None
    )
    real = next(p for p in held if hand.known[p].index == tile)
    wrong = next(p for p in held if p != real)
    send_as(table, CHEATER, play3_message(session, tile, wrong, *place))
    finish(table)
    assert honest_blames(table) == {(CHEATER, "bad-proof")}


def test_a_proof_of_the_wrong_length_is_malformed() -> None:
    table, session = _at_cheaters_turn()
    hand = session.hand
    assert hand is not None
    held = hand.held[CHEATER]
    real, place = next(
        (p, pl) for p in held if (pl := _place(session, hand.known[p].index)) is not None
    )
    cut = play3_message(session, hand.known[real].index, real, *place, lambda b: b[:-64])
    send_as(table, CHEATER, cut)
    finish(table)
    assert honest_blames(table) == {(CHEATER, "bad-proof")}
    assert "malformed proof" in reasons(table)


def test_saying_drawn_when_the_rules_do_not_ask_is_refused() -> None:
    table, session = _at_cheaters_turn()
    hand = session.hand
    assert hand is not None
    held = hand.held[CHEATER]
    real, place = next(
        (p, pl) for p in held if (pl := _place(session, hand.known[p].index)) is not None
    )
    message = play3_message(session, hand.known[real].index, real, *place, drawn=True)
    send_as(table, CHEATER, message)
    finish(table)
    assert honest_blames(table) == {(CHEATER, "bad-play")}


def test_playing_a_tile_again_is_refused() -> None:
    table, _ = make_table("draw", 3)

    def line_has_a_tile(t: LocalTable) -> bool:
        hand = t.sessions[CHEATER].hand
        return cheaters_turn(t) and hand is not None and bool(hand.tiles_played)

    run_until(table, line_has_a_tile)
    session = table.sessions[CHEATER]
    hand = session.hand
    assert hand is not None
    again = next(iter(hand.tiles_played)).index
    send_as(table, CHEATER, play3_message(session, again, hand.held[CHEATER][0], None, None))
    finish(table)
    assert honest_blames(table) == {(CHEATER, "already-played")}


def test_a_lead_claim_with_a_forged_proof_is_blamed() -> None:
    ids = [Identity.generate() for _ in range(2)]
    tables: list[LocalTable] = []
    first = 0  # the first claim is always made (a later one may be cut short)

    def forge(envelope: Envelope) -> tuple[object, ...]:
        session = tables[0].sessions[first]
        hand = session.hand
        assert hand is not None and hand.keys is not None
        held = hand.held[first]
        branches = tile_proofs.branches(hand, first, held)
        best = hand.rank[0].index  # the tile nothing beats, proven from the wrong position
        real = next(p for p in held if hand.known[p].index != best)
        step = Step(StepKind.LEAD_CLAIM)
        proof = mental.prove_tile(hand.ctx, hand.keys, step, best, branches, real)
        return (envelope.field("hand"), (best, proof))

    link = rewriting_link(first, "lead_claim3", ids[first], forge)
    played = play_table(
        PRESETS["house"], 2, identities=ids, link=link, setup=lambda t: tables.append(t)
    )
    blame = played.sessions[1].blame
    assert blame is not None and (blame.seat, blame.code) == (first, "bad-proof")
    assert "lead claim" in blame.reason
