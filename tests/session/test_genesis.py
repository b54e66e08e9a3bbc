"""Genesis: the founding message, its validation, and the seats' signatures over it."""

from __future__ import annotations

import pytest

from p2p_dominoes.engine.errors import InvalidRecord
from p2p_dominoes.engine.rules import draft_of
from p2p_dominoes.engine.wire_range import MSGPACK_INT_MAX, MSGPACK_INT_MIN
from p2p_dominoes.session import (
    GENESIS,
    GENESIS_SIGN,
    PROTOCOL_VERSION,
    Envelope,
    Genesis,
    InvalidMessage,
    SeatInfo,
    Transcript,
    check_setup_message,
    default_registry,
    genesis_head,
    next_genesis_signer,
    seat_commitment,
    sign_genesis,
    transcript_table_code,
)
from tests.session.conftest import RULES, TABLE_ID, fixed_identity, fixed_nonce, make_table

IDS = [fixed_identity(f"player {i}") for i in range(5)]
NONCES = [fixed_nonce(f"player {i}") for i in range(5)]
COMMITS = [seat_commitment(IDS[i].public, NONCES[i]) for i in range(5)]


def seats(n: int) -> tuple[SeatInfo, ...]:
    return tuple(SeatInfo(f"Player {i}", IDS[i].public, COMMITS[i]) for i in range(n))


def test_genesis_round_trip() -> None:
    genesis = Genesis.new(RULES, seats(4))
    assert len(genesis.table_id) == 16
    assert Genesis.from_wire(genesis.to_wire()) == genesis
    env = Envelope.decode(genesis.sign(IDS[2], 2).encode(), default_registry())
    assert env.type == GENESIS and env.head == genesis_head(genesis.table_id)
    assert Genesis.from_wire(env.body) == genesis
    assert genesis.seat_of(IDS[3].public) == 3 and genesis.seat_of(IDS[4].public) is None


def test_wire_form_is_an_array_of_arrays() -> None:
    genesis = Genesis(TABLE_ID, RULES, seats(2))
    assert genesis.to_wire() == (
        PROTOCOL_VERSION,
        TABLE_ID,
        RULES,
        (
            ("Player 0", IDS[0].public.raw, COMMITS[0]),
            ("Player 1", IDS[1].public.raw, COMMITS[1]),
        ),
        None,
    )
    assert Genesis(TABLE_ID, RULES, seats(2), max_hands=3).to_wire()[4] == 3


@pytest.mark.parametrize("hands", [None, 1, 2, 10_000])
def test_the_match_length_is_signed_in_the_genesis(hands: int | None) -> None:
    genesis = Genesis.new(RULES, seats(2), hands)
    envelope = Envelope.decode(genesis.sign(IDS[0], 0).encode(), default_registry())
    assert Genesis.from_wire(envelope.body).max_hands == hands
    assert Transcript(envelope, default_registry()).genesis.max_hands == hands


@pytest.mark.parametrize("hands", [0, -1, 10_001, True, "2", 2.0])
def test_a_match_length_is_nil_or_a_number_of_hands(hands: object) -> None:
    with pytest.raises(InvalidMessage, match="max_hands"):
        Genesis(TABLE_ID, RULES, seats(2), max_hands=hands)  # type: ignore[arg-type]
    body = list(Genesis(TABLE_ID, RULES, seats(2)).to_wire())
    body[4] = hands
    with pytest.raises(InvalidMessage, match="max_hands"):
        Genesis.from_wire(body)


def test_a_genesis_without_a_match_length_is_not_a_genesis() -> None:
    """The field is part of the body of version 1: a four-element body is malformed."""
    body = list(Genesis(TABLE_ID, RULES, seats(2)).to_wire())[:4]
    with pytest.raises(InvalidMessage):
        Genesis.from_wire(body)


def test_setup_phase_in_seat_order() -> None:
    table = make_table(3, set_up=False)
    t = table.transcript
    assert next_genesis_signer(t) == 0
    with pytest.raises(InvalidMessage) as caught:  # seat 1 before seat 0
        t.append(sign_genesis(t, table.ids[1], 1, table.nonces[1]), check_setup_message)
    assert (caught.value.code, caught.value.seat) == ("out-of-turn", 1)
    with pytest.raises(InvalidMessage, match="before every seat"):
        t.append(table.note(0), check_setup_message)
    for seat in range(3):
        assert transcript_table_code(t) is None  # not every nonce is revealed yet
        t.append(sign_genesis(t, table.ids[seat], seat, table.nonces[seat]), check_setup_message)
    assert next_genesis_signer(t) is None
    assert transcript_table_code(t) is not None
    with pytest.raises(InvalidMessage, match="already signed"):
        t.append(sign_genesis(t, table.ids[0], 0, table.nonces[0]), check_setup_message)
    t.append(table.note(0), check_setup_message)


def test_genesis_sign_must_name_this_genesis() -> None:
    table = make_table(2, set_up=False)
    t = table.transcript
    wrong = t.sign_next(table.ids[0], 0, GENESIS_SIGN, (b"\x00" * 32, table.nonces[0]))
    with pytest.raises(InvalidMessage) as caught:
        t.append(wrong, check_setup_message)
    assert (caught.value.code, caught.value.seat) == ("bad-genesis", 0)


def test_forged_genesis_rejected() -> None:
    """A genesis signed by a key that is not the sending seat's key (as listed in it)."""
    genesis = Genesis(TABLE_ID, RULES, seats(2))
    honest = genesis.sign(IDS[0], 0)
    # Seat 0's genesis, re-labelled as sent by seat 1 but still carrying seat 0's signature.
    forged = Envelope(
        honest.version, TABLE_ID, 1, honest.head, GENESIS, honest.body, honest.signature
    )
    with pytest.raises(InvalidMessage) as caught:
        Transcript(forged, default_registry())
    assert caught.value.code == "bad-signature"
    with pytest.raises(ValueError, match="does not hold seat"):
        genesis.sign(IDS[4], 1)


def test_genesis_envelope_must_agree_with_body() -> None:
    genesis = Genesis(TABLE_ID, RULES, seats(2))
    other_table = Envelope.sign(
        IDS[0],
        table_id=b"\x01" * 16,
        seat=0,
        head=genesis_head(b"\x01" * 16),
        mtype=GENESIS,
        body=genesis.to_wire(),
    )
    with pytest.raises(InvalidMessage, match="disagrees"):
        Transcript(other_table, default_registry())
    off_head = Envelope.sign(
        IDS[0], table_id=TABLE_ID, seat=0, head=b"\x00" * 32, mtype=GENESIS, body=genesis.to_wire()
    )
    with pytest.raises(InvalidMessage, match="genesis head"):
        Transcript(off_head, default_registry())
    outsider = Envelope.sign(
        IDS[3],
        table_id=TABLE_ID,
        seat=3,
        head=genesis_head(TABLE_ID),
        mtype=GENESIS,
        body=genesis.to_wire(),
    )
    with pytest.raises(InvalidMessage, match="not at this table"):
        Transcript(outsider, default_registry())


def test_transcript_must_start_with_genesis() -> None:
    table = make_table(2)
    with pytest.raises(InvalidMessage, match="first message"):
        Transcript(table.transcript.entries[1].envelope, default_registry())


@pytest.mark.parametrize("version", [True, 5, 0, "1"])
def test_genesis_version_must_be_supported_int(version: object) -> None:
    with pytest.raises(InvalidMessage, match="not supported"):
        Genesis(TABLE_ID, RULES, seats(2), version)  # type: ignore[arg-type]


@pytest.mark.parametrize("count", [0, 1, 5])
def test_seat_count_limits(count: int) -> None:
    with pytest.raises(InvalidMessage):
        Genesis(TABLE_ID, RULES, seats(count))


def test_one_key_cannot_hold_two_seats() -> None:
    twice = (SeatInfo("A", IDS[0].public, COMMITS[0]), SeatInfo("B", IDS[0].public, COMMITS[0]))
    with pytest.raises(InvalidMessage, match="two seats"):
        Genesis(TABLE_ID, RULES, twice)


@pytest.mark.parametrize(
    "name",
    [
        "",
        "x" * 65,
        "é" * 33,
        "tab\there",
        "new\nline",
        "del\x7f",
        "c1\x85",
        "rtl\u202eoverride",
        "isolate\u2066",
        "lrm\u200e",
        "sep\u2028",
        "alm\u061c",
    ],
)
def test_bad_names_rejected(name: str) -> None:
    with pytest.raises(InvalidMessage):
        SeatInfo(name, IDS[0].public, COMMITS[0])


@pytest.mark.parametrize("name", ["Аня", "李雷", "x" * 64, "é" * 32, "🂡 dealer", "O'Brien-Smith"])
def test_good_names_accepted(name: str) -> None:
    assert SeatInfo(name, IDS[0].public, COMMITS[0]).name == name


@pytest.mark.parametrize(
    "rules", [1.5, {"a": 1}, (1, (2, (3, (4, (5, (6, (7, (8, (9,))))))))), 2**64, bytearray(b"x")]
)
def test_rules_must_be_plain_msgpack_arrays_and_atoms(rules: object) -> None:
    with pytest.raises(InvalidMessage):
        Genesis(TABLE_ID, rules, seats(2))  # type: ignore[arg-type]


def test_bad_key_in_genesis_body_rejected() -> None:
    body = list(Genesis(TABLE_ID, RULES, seats(2)).to_wire())
    body[3] = (("A", IDS[0].public.raw, COMMITS[0]), ("B", b"\x01" + b"\x00" * 31, COMMITS[1]))
    with pytest.raises(InvalidMessage, match="Ed25519 public key"):
        Genesis.from_wire(body)


def test_a_seat_commitment_is_32_bytes() -> None:
    for commitment in (b"", b"\x00" * 31, b"\x00" * 33):
        with pytest.raises(InvalidMessage, match="commitment"):
            SeatInfo("A", IDS[0].public, commitment)
    body = list(Genesis(TABLE_ID, RULES, seats(2)).to_wire())
    body[3] = (("A", IDS[0].public.raw), ("B", IDS[1].public.raw))  # no commitments
    with pytest.raises(InvalidMessage):
        Genesis.from_wire(body)


def test_a_nonce_that_does_not_open_the_commitment_is_blamed_on_its_seat() -> None:
    """Seat 1 reveals another nonce than the one its genesis seat committed to."""
    table = make_table(3, set_up=False)
    t = table.transcript
    t.append(sign_genesis(t, table.ids[0], 0, table.nonces[0]), check_setup_message)
    for wrong in (table.nonces[0], table.nonces[2], b"\x00" * 32):
        forged = t.sign_next(table.ids[1], 1, GENESIS_SIGN, (t.genesis_hash, wrong))
        with pytest.raises(InvalidMessage) as caught:
            t.append(forged, check_setup_message)
        assert (caught.value.code, caught.value.seat) == ("bad-nonce", 1)
    with pytest.raises(ValueError, match="does not open"):
        sign_genesis(t, table.ids[1], 1, table.nonces[2])  # our own code refuses to send it
    t.append(sign_genesis(t, table.ids[1], 1, table.nonces[1]), check_setup_message)
    assert next_genesis_signer(t) == 2


def test_a_genesis_sign_without_a_nonce_is_not_a_message() -> None:
    table = make_table(2, set_up=False)
    t = table.transcript
    with pytest.raises(InvalidMessage) as caught:
        t.sign_next(table.ids[0], 0, GENESIS_SIGN, (t.genesis_hash,))
    assert caught.value.code == "bad-body"


@pytest.mark.parametrize(
    ("number", "fits"),
    [
        (MSGPACK_INT_MIN, True),
        (MSGPACK_INT_MAX, True),
        (MSGPACK_INT_MIN - 1, False),
        (MSGPACK_INT_MAX + 1, False),
    ],
)
def test_a_rules_file_is_read_with_the_genesis_schemas_own_bounds(number: int, fits: bool) -> None:
    """A number a rules file may hold is exactly one the genesis carries: one past the edge is
    refused when the file is read, not when the table starts."""
    pairs = [[2, 7], [3, number], [4, 7]]
    wire = (("targets", tuple(tuple(pair) for pair in pairs)),)
    if fits:
        assert draft_of({"base": "house", "targets": pairs})["targets"] == pairs
        assert Genesis.new(wire, seats(2)).rules == wire
    else:
        with pytest.raises(InvalidRecord, match="outside"):
            draft_of({"base": "house", "targets": pairs})
        with pytest.raises(InvalidMessage, match="outside"):
            Genesis.new(wire, seats(2))
