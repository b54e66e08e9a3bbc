"""Scripted cheaters: each is caught, blamed on the right seat, and every honest peer agrees.

A cheater signs its own messages, so each cheat below is a message the cheater really signed:
a rewritten body on the wire, or a message crafted at the right moment.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import pytest

from p2p_dominoes import mental
from p2p_dominoes.bots import greedy_bot, random_bot
from p2p_dominoes.engine import DRAW, SeatView
from p2p_dominoes.mental import Deck, DecryptionShare, HandContext, ShuffleStep
from p2p_dominoes.session import (
    PROTOCOL_VERSION,
    Envelope,
    Genesis,
    Identity,
    Phase,
    SeatInfo,
    TableSession,
    Transcript,
    new_table_nonce,
    seat_commitment,
)
from p2p_dominoes.session import hand_messages as msg
from p2p_dominoes.session.local import LocalTable
from p2p_dominoes.session.transcript import message_hash
from tests.mental.conftest import tag
from tests.session.tables import REGISTRY, force, play_table, rewriting_link, send_as

CHEATER = 1


def honest_blames(table: LocalTable, cheater: int = CHEATER) -> set[tuple[int, str]]:
    """(seat, code) of the blame each honest peer reached; one element when they agree."""
    blames = set()
    for seat, session in enumerate(table.sessions):
        if seat == cheater:
            continue
        assert session.phase is Phase.HALTED, f"peer {seat} did not stop"
        assert session.blame is not None
        blames.add((session.blame.seat, session.blame.code))
    return blames


def reasons(table: LocalTable, cheater: int = CHEATER) -> str:
    return " | ".join(
        s.blame.reason for seat, s in enumerate(table.sessions) if seat != cheater and s.blame
    )


# -- bad shuffles ------------------------------------------------------------------------------


def shuffle_cheat(
    change: Callable[[ShuffleStep], bytes],
) -> Callable[[Envelope], tuple[object, ...]]:
    def rewrite(envelope: Envelope) -> tuple[object, ...]:
        data = envelope.field("step")
        assert isinstance(data, bytes)
        return (envelope.field("hand"), change(ShuffleStep.from_bytes(data, envelope.seat)))

    return rewrite


def swapped(step: ShuffleStep) -> bytes:
    cards = list(step.deck.cards)
    return dataclasses.replace(step, deck=Deck([cards[1], cards[0], *cards[2:]])).to_bytes()


def duplicated(step: ShuffleStep) -> bytes:
    cards = list(step.deck.cards)
    return dataclasses.replace(step, deck=Deck([cards[0], cards[0], *cards[2:]])).to_bytes()


def dropped(step: ShuffleStep) -> bytes:
    data = step.to_bytes()
    return data[:2] + data[2 + 64 :]


def torsion_tagged(step: ShuffleStep) -> bytes:
    data = step.to_bytes()
    return data[:2] + tag(data[2:34]) + data[34:]


def non_canonical_scalar(step: ShuffleStep) -> bytes:
    data = step.to_bytes()
    value = int.from_bytes(data[-32:], "little") + mental.L
    assert value < 2**256
    return data[:-32] + value.to_bytes(32, "little")


@pytest.mark.parametrize(
    ("cheat", "words"),
    [
        (swapped, "shuffle"),
        (duplicated, "shuffle"),
        (dropped, "malformed"),
        (torsion_tagged, "invalid point"),
        (non_canonical_scalar, "non-canonical"),
    ],
)
def test_a_bad_shuffle_is_blamed_on_the_shuffler(
    cheat: Callable[[ShuffleStep], bytes], words: str
) -> None:
    ids = [Identity.generate() for _ in range(3)]
    link = rewriting_link(CHEATER, "shuffle", ids[CHEATER], shuffle_cheat(cheat))
    played = play_table("draw", 3, link=link, identities=ids)
    assert honest_blames(played.table) == {(CHEATER, "bad-proof")}
    assert words in reasons(played.table)


def test_a_re_randomised_output_is_blamed_on_the_shuffler() -> None:
    ids = [Identity.generate() for _ in range(3)]
    holder: list[LocalTable] = []

    def rerandomise(step: ShuffleStep) -> bytes:
        hand = holder[0].sessions[CHEATER].hand
        assert hand is not None and hand.joint is not None
        cards = list(step.deck.cards)
        cards[3] = cards[3].reencrypt(424242, hand.joint.key)
        return dataclasses.replace(step, deck=Deck(cards)).to_bytes()

    link = rewriting_link(CHEATER, "shuffle", ids[CHEATER], shuffle_cheat(rerandomise))
    played = play_table("draw", 3, link=link, identities=ids, setup=holder.append)
    assert honest_blames(played.table) == {(CHEATER, "bad-proof")}


@pytest.mark.parametrize("bound_to", ["hand", "seat", "table"])
def test_a_shuffle_proven_for_another_hand_seat_or_table_is_rejected(bound_to: str) -> None:
    ids = [Identity.generate() for _ in range(3)]
    holder: list[LocalTable] = []

    def reprove(envelope: Envelope) -> tuple[object, ...]:
        hand = holder[0].sessions[CHEATER].hand
        assert hand is not None and hand.joint is not None
        ctx, seat = hand.ctx, CHEATER
        if bound_to == "hand":
            ctx = HandContext(ctx.table_id, ctx.hand_number + 1, ctx.seats)
        elif bound_to == "table":
            ctx = HandContext(bytes(16), ctx.hand_number, ctx.seats)
        else:
            seat = 2
        step = mental.shuffle_deck(ctx, seat, hand.joint, hand.decks[-2])
        data = step.to_bytes()
        data = data[:1] + bytes([CHEATER]) + data[2:]  # the seat byte says the cheater's seat
        return (envelope.field("hand"), data)

    link = rewriting_link(CHEATER, "shuffle", ids[CHEATER], reprove)
    played = play_table("draw", 3, link=link, identities=ids, setup=holder.append)
    assert honest_blames(played.table) == {(CHEATER, "bad-proof")}


# -- wrong shares and false tile claims -----------------------------------------------------------


def test_a_wrong_decryption_share_in_the_deal_is_blamed_on_its_sender() -> None:
    ids = [Identity.generate() for _ in range(3)]

    def wrong_share(envelope: Envelope) -> tuple[object, ...]:
        shares = list(envelope.field("shares"))  # type: ignore[arg-type]
        first = DecryptionShare.from_bytes(shares[0], CHEATER)
        second = DecryptionShare.from_bytes(shares[1], CHEATER)
        shares[0] = dataclasses.replace(first, share=second.share).to_bytes()
        return (envelope.field("hand"), tuple(shares))

    link = rewriting_link(CHEATER, "deal", ids[CHEATER], wrong_share)
    played = play_table("draw", 3, link=link, identities=ids)
    assert honest_blames(played.table) == {(CHEATER, "bad-proof")}
    assert "wrong decryption share" in reasons(played.table)


def run_until(table: LocalTable, stop: Callable[[LocalTable], bool]) -> None:
    """Run the table message by message until `stop` holds (before anyone acts on it)."""
    for seat, session in enumerate(table.sessions):
        table._broadcast(seat, session.start())
    for _ in range(100_000):
        if stop(table):
            return
        if not table.step() and not table.catch_up():
            raise AssertionError("the table got stuck before the moment came")
    raise AssertionError("the moment never came")


def finish(table: LocalTable) -> None:
    for _ in range(100_000):
        if not table.step() and not table.catch_up():
            return


def cheaters_turn(table: LocalTable) -> bool:
    return table.sessions[CHEATER].awaiting_action and not table.queue


def make_table(
    rules: str, players: int, bots: list | None = None, version: int = PROTOCOL_VERSION
) -> tuple[LocalTable, list[Identity]]:
    from p2p_dominoes.engine import PRESETS

    ids = [Identity.generate() for _ in range(players)]
    table = LocalTable.create(
        PRESETS[rules],
        [f"p{s}" for s in range(players)],
        bots or [random_bot] * players,
        max_hands=1,
        identities=ids,
        protocol_version=version,
    )
    return table, ids


def play_message(session: TableSession, position: int, tile_index: int) -> bytes:
    hand = session.hand
    assert hand is not None and hand.keys is not None and hand.public is not None
    reveal = mental.reveal_tile(hand.ctx, hand.keys, hand.deck, position, tile_index)
    line = hand.public.line
    at, side = (None, None)
    if line.tiles:
        place = line.places[0]
        at, side = place.tile.index, place.side.value
    body = (hand.number, reveal.to_bytes(), at, side)
    return session._sign(msg.PLAY, body).encode()


def test_playing_a_tile_it_does_not_hold_is_caught_by_the_decryption() -> None:
    table, _ = make_table("draw", 3, version=2)  # v3: tests/session/test_play3.py
    run_until(table, cheaters_turn)
    session = table.sessions[CHEATER]
    hand = session.hand
    assert hand is not None
    position = hand.held[CHEATER][0]
    real = hand.known[position]
    fake = next(
        t for t in range(28) if t != real.index and t not in [k.index for k in hand.known.values()]
    )
    send_as(table, CHEATER, play_message(session, position, fake))
    finish(table)
    assert honest_blames(table) == {(CHEATER, "bad-proof")}
    assert "claims" in reasons(table) and "decrypts to" in reasons(table)


def test_playing_from_someone_elses_position_is_refused() -> None:
    table, _ = make_table("draw", 3, version=2)
    run_until(table, cheaters_turn)
    session = table.sessions[CHEATER]
    hand = session.hand
    assert hand is not None
    someone_elses = hand.held[2][0]
    send_as(table, CHEATER, play_message(session, someone_elses, 0))
    finish(table)
    assert honest_blames(table) == {(CHEATER, "not-held")}


# -- rules broken in the open, and at the audit ---------------------------------------------------


def test_an_illegal_pass_is_found_at_the_audit_by_every_peer() -> None:
    table, _ = make_table("block", 3, [greedy_bot] * 3)

    def cheater_could_play(t: LocalTable) -> bool:
        return cheaters_turn(t) and bool(t.sessions[CHEATER].view().legal_plays())

    run_until(table, cheater_could_play)
    session = table.sessions[CHEATER]
    assert session.hand is not None
    force(table, CHEATER, session._sign(msg.PASS, (session.hand.number,)).encode())
    finish(table)
    blames = {(s.blame.seat, s.blame.code) for s in table.sessions if s.blame}
    assert blames == {(CHEATER, "audit-rules")}
    assert all(s.phase is Phase.HALTED for s in table.sessions)  # the cheater's own peer too
    assert "found at the audit: cannot pass: they hold a playable tile" in reasons(table)


def eager_drawer(view: SeatView, rng: object) -> object:
    """Draws whenever drawing is allowed, so the boneyard reaches its reserve quickly."""
    return DRAW if view.can_draw() else greedy_bot(view, rng)  # type: ignore[arg-type]


def test_drawing_from_the_reserve_is_refused_at_once() -> None:
    table, _ = make_table("draw", 4, [eager_drawer] * 4)  # type: ignore[list-item]

    def reserve_reached(t: LocalTable) -> bool:
        hand = t.sessions[CHEATER].hand
        return (
            cheaters_turn(t)
            and hand is not None
            and hand.public is not None
            and (hand.public.boneyard_size == 2)
        )

    run_until(table, reserve_reached)
    session = table.sessions[CHEATER]
    assert session.hand is not None
    send_as(table, CHEATER, session._sign(msg.DRAW, (session.hand.number,)).encode())
    finish(table)
    assert honest_blames(table) == {(CHEATER, "illegal-action")}
    assert "the last 2 are never drawn" in reasons(table)


def test_acting_out_of_turn_is_refused() -> None:
    table, _ = make_table("block", 3)

    def someone_elses_turn(t: LocalTable) -> bool:
        others = [s for seat, s in enumerate(t.sessions) if seat != CHEATER]
        return any(s.awaiting_action for s in others) and not t.queue

    run_until(table, someone_elses_turn)
    session = table.sessions[CHEATER]
    assert session.hand is not None
    send_as(table, CHEATER, session._sign(msg.PASS, (session.hand.number,)).encode())
    finish(table)
    assert honest_blames(table) == {(CHEATER, "out-of-turn")}


# -- equivocation, replay, impersonation, forged genesis -------------------------------------------


def test_equivocation_is_exposed_when_the_peers_compare_chains() -> None:
    ids = [Identity.generate() for _ in range(3)]
    holder: list[LocalTable] = []

    def other_commit(envelope: Envelope) -> tuple[object, ...]:
        hand = holder[0].sessions[CHEATER].hand
        assert hand is not None
        keys = mental.new_hand_keys(hand.ctx, CHEATER)
        return (envelope.field("hand"), keys.commit.to_bytes())

    link = rewriting_link(CHEATER, "key_commit", ids[CHEATER], other_commit, only_to=2)
    played = play_table("draw", 3, link=link, identities=ids, setup=holder.append)
    assert honest_blames(played.table) == {(CHEATER, "equivocation")}
    evidence = [s.blame.evidence for s in played.sessions if s.blame]
    assert all(len(e) == 2 and e[0] != e[1] for e in evidence)


def test_replaying_an_old_message_in_a_later_hand_is_refused() -> None:
    ids = [Identity.generate() for _ in range(3)]
    first_commit: list[bytes] = []

    def replay_commit(envelope: Envelope) -> tuple[object, ...]:
        commit = envelope.field("commit")
        assert isinstance(commit, bytes)
        if not first_commit:
            first_commit.append(commit)
            return envelope.body
        return (1, first_commit[0])  # hand 1's commitment, again, in hand 2

    link = rewriting_link(CHEATER, "key_commit", ids[CHEATER], replay_commit, times=2)
    played = play_table("block", 3, hands=2, link=link, identities=ids)
    assert honest_blames(played.table) == {(CHEATER, "wrong-hand")}


def test_a_message_signed_by_another_seats_key_is_blamed_on_the_signer() -> None:
    table, ids = make_table("draw", 3)

    def turns_begin(t: LocalTable) -> bool:
        return t.sessions[2].phase is Phase.TURNS and not t.queue

    run_until(table, turns_begin)
    session = table.sessions[2]
    hand = session.hand
    assert hand is not None
    forged = Envelope.sign(  # claims to come from seat 0, signed with the cheater's own key
        ids[CHEATER],
        table_id=session.transcript.table_id,
        seat=0,
        head=session.transcript.head,
        mtype=msg.PASS,
        body=(hand.number,),
    )
    send_as(table, CHEATER, forged.encode(), to=[2])
    finish(table)
    assert table.sessions[2].blame is not None
    assert (table.sessions[2].blame.seat, table.sessions[2].blame.code) == (
        CHEATER,
        "impersonation",
    )


def test_a_genesis_signature_for_a_forged_genesis_is_blamed() -> None:
    ids = [Identity.generate() for _ in range(3)]

    def other_genesis(envelope: Envelope) -> tuple[object, ...]:
        return (message_hash(b"a different table"), envelope.field("nonce"))

    link = rewriting_link(CHEATER, "genesis_sign", ids[CHEATER], other_genesis)
    played = play_table("draw", 3, link=link, identities=ids)
    assert honest_blames(played.table) == {(CHEATER, "bad-genesis")}


def test_a_genesis_that_does_not_seat_you_or_is_not_signed_by_seat_0_is_refused() -> None:
    from p2p_dominoes.engine import DRAW_RULES
    from p2p_dominoes.session import InvalidMessage

    ids = [Identity.generate() for _ in range(3)]
    nonces = [new_table_nonce() for _ in ids]
    infos = [
        SeatInfo(f"p{i}", k.public, seat_commitment(k.public, nonces[i])) for i, k in enumerate(ids)
    ]
    stranger = Identity.generate()
    genesis = Genesis.new(DRAW_RULES.to_wire(), infos)
    envelope = genesis.sign(ids[0], 0)
    with pytest.raises(ValueError, match="does not hold seat 2"):
        TableSession(Transcript(envelope, REGISTRY), 1, stranger, table_nonce=nonces[1])
    with pytest.raises(ValueError, match="does not open seat 2"):  # another seat's nonce
        TableSession(Transcript(envelope, REGISTRY), 1, ids[1], table_nonce=nonces[2])
    forged = Envelope.sign(
        stranger,
        table_id=genesis.table_id,
        seat=0,
        head=envelope.head,
        mtype=envelope.type,
        body=envelope.body,
    )
    with pytest.raises(InvalidMessage, match="bad signature"):
        Transcript(forged, REGISTRY)
    bad_rules = Genesis.new((("name", "draw"),), infos)
    with pytest.raises(InvalidMessage, match="rules"):
        TableSession(
            Transcript(bad_rules.sign(ids[0], 0), REGISTRY), 0, ids[0], table_nonce=nonces[0]
        )
