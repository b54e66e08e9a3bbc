"""The transcript: chaining, signature checks, replay, equivocation evidence, the file format."""

from __future__ import annotations

import struct

import pytest

from p2p_dominoes.session import (
    GENESIS_SIGN,
    MESSAGE_HASH_DOMAIN,
    RECORD_EQUIVOCATION,
    TRANSCRIPT_MAGIC,
    Envelope,
    EquivocationDetected,
    InvalidMessage,
    ReplayedMessage,
    Transcript,
    genesis_head,
    message_hash,
)
from tests.session.conftest import NOTE, TABLE_ID, Table, fixed_identity, make_table


def test_chain_links_every_message(table: Table) -> None:
    t = table.transcript
    entry = t.append(table.note(1))
    assert entry.index == 4 and t.head == entry.hash == entry.envelope.hash
    previous = genesis_head(TABLE_ID)
    for e in t.entries:
        assert e.envelope.head == previous
        assert e.hash == message_hash(e.encoded)
        previous = e.hash
    assert t.genesis_hash == t.entries[0].hash == t[0].hash
    assert t[-1] is entry
    assert [env.type for env in t][:4] == [t.entries[0].envelope.type] + [GENESIS_SIGN] * 3


def test_message_hash_definition() -> None:
    import hashlib

    assert message_hash(b"abc") == hashlib.sha256(MESSAGE_HASH_DOMAIN + b"abc").digest()
    assert genesis_head(TABLE_ID).hex() == (
        "2533d2dbeee0747d3b0e013db10346dc0ab48f0fad656d8b5113d5eef1382af0"
    )


def test_receive_decodes_and_appends(table: Table) -> None:
    entry = table.transcript.receive(table.note(2, "from the wire").encode())
    assert entry.envelope.field("text") == "from the wire"


def test_wrong_head_rejected_and_blamed(table: Table) -> None:
    stale = table.note(1)
    table.transcript.append(table.note(2))
    with pytest.raises(InvalidMessage) as caught:
        table.transcript.append(stale)  # seat 1 wrote on a head where seat 2 then spoke
    assert (caught.value.code, caught.value.seat) == ("wrong-head", 1)


def test_unknown_head_rejected(table: Table) -> None:
    env = Envelope.sign(
        table.ids[1], table_id=TABLE_ID, seat=1, head=b"\x42" * 32, mtype=NOTE, body=("x", 1)
    )
    with pytest.raises(InvalidMessage, match="head"):
        table.transcript.append(env)


def test_message_signed_by_another_key_rejected_without_blame(table: Table) -> None:
    forged = table.note(1, identity=fixed_identity("mallory"))
    with pytest.raises(InvalidMessage) as caught:
        table.transcript.append(forged)
    assert caught.value.code == "bad-signature"
    assert caught.value.seat is None  # unauthenticated: the transport blames the connection
    impersonation = table.note(2, identity=table.ids[1])  # seat 1's key, claiming seat 2
    with pytest.raises(InvalidMessage, match="bad signature"):
        table.transcript.append(impersonation)
    assert len(table.transcript) == 4


def test_seat_not_at_table_rejected(table: Table) -> None:
    with pytest.raises(InvalidMessage) as caught:
        table.transcript.append(table.note(3, identity=fixed_identity("player 3")))
    assert caught.value.code == "unknown-seat"


def test_other_table_rejected(table: Table) -> None:
    env = Envelope.sign(
        table.ids[1],
        table_id=b"\x00" * 16,
        seat=1,
        head=table.transcript.head,
        mtype=NOTE,
        body=("x", 1),
    )
    with pytest.raises(InvalidMessage, match="another table"):
        table.transcript.append(env)


def test_unregistered_type_rejected(table: Table) -> None:
    from p2p_dominoes.session import MessageType, Text, record

    other = MessageType(NOTE.code, NOTE.name, record(("text", Text(5))))
    env = table.transcript.sign_next(table.ids[1], 1, other, ("x",))
    with pytest.raises(InvalidMessage) as caught:
        table.transcript.append(env)
    assert caught.value.code == "unknown-type"


def test_replay_detected(table: Table) -> None:
    env = table.note(1)
    table.transcript.append(env)
    with pytest.raises(ReplayedMessage) as caught:
        table.transcript.append(env)
    assert (caught.value.code, caught.value.seat) == ("replay", 1)
    with pytest.raises(ReplayedMessage, match="#0"):
        table.transcript.append(table.transcript.entries[0].envelope)


def test_a_duplicate_is_looked_up_before_its_signature_is_checked(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    from p2p_dominoes.session.identity import PublicIdentity

    env = table.note(1)
    checks: list[bytes] = []
    verify = PublicIdentity.verify

    def counting(self: PublicIdentity, signature: bytes, data: bytes) -> bool:
        checks.append(signature)
        return verify(self, signature, data)

    monkeypatch.setattr(PublicIdentity, "verify", counting)
    table.transcript.append(env)
    assert checks == [env.signature]  # a new message: one signature check
    for _ in range(5):
        with pytest.raises(ReplayedMessage):
            table.transcript.receive(env.encode())
    assert checks == [env.signature]  # five duplicates: none
    table.transcript.append(table.note(2, "new"))
    assert len(checks) == 2  # a message not seen before is still checked


def test_equivocation_keeps_both_signed_messages(table: Table) -> None:
    t = table.transcript
    honest_view = table.note(1, "to seat 0")
    other_view = table.note(1, "to seat 2")  # same head, different content
    t.append(honest_view)
    t.append(table.note(2))  # the chain moves on; the evidence still lands
    with pytest.raises(EquivocationDetected) as caught:
        t.append(other_view)
    evidence = caught.value.evidence
    assert (caught.value.code, caught.value.seat) == ("equivocation", 1)
    assert evidence.first == honest_view and evidence.second == other_view
    assert evidence.head == honest_view.head and evidence.seat == 1
    assert evidence.verify(table.ids[1].public)
    assert not evidence.verify(table.ids[2].public)
    assert t.equivocations == (evidence,)
    assert len(t) == 6  # the conflicting message is evidence, not part of the chain
    with pytest.raises(EquivocationDetected):
        t.append(other_view)
    assert len(t.equivocations) == 1  # the same evidence is kept once


def test_second_genesis_is_equivocation_or_rejected(table: Table) -> None:
    t = table.transcript
    rival = type(table.genesis)(TABLE_ID, ("other rules",), table.genesis.seats)
    with pytest.raises(EquivocationDetected):
        t.append(rival.sign(table.ids[0], 0))  # seat 0 signed two geneses for one table
    with pytest.raises(InvalidMessage) as caught:
        t.append(t.sign_next(table.ids[1], 1, t.entries[0].envelope.type, rival.to_wire()))
    assert caught.value.code == "bad-genesis"


def test_check_hook_errors_name_the_seat(table: Table) -> None:
    def no_notes_from_seat_two(transcript: Transcript, env: Envelope) -> None:
        if env.seat == 2:
            raise InvalidMessage("out-of-turn", "not your turn")

    table.transcript.append(table.note(1), no_notes_from_seat_two)
    with pytest.raises(InvalidMessage) as caught:
        table.transcript.append(table.note(2), no_notes_from_seat_two)
    assert caught.value.seat == 2 and len(table.transcript) == 5


# -- file format -------------------------------------------------------------------------------


def _played(table: Table) -> Transcript:
    for seat in (1, 2, 0, 1):
        table.transcript.append(table.note(seat, f"move by {seat}", seat))
    return table.transcript


def test_file_round_trip(table: Table) -> None:
    t = _played(table)
    data = t.to_bytes()
    assert data.startswith(TRANSCRIPT_MAGIC)
    again = Transcript.from_bytes(data, table.registry)
    assert again.head == t.head and again.to_bytes() == data
    assert [e.encoded for e in again.entries] == [e.encoded for e in t.entries]


def test_file_layout_is_length_prefixed_records(table: Table) -> None:
    t = table.transcript
    data = t.to_bytes()
    offset = len(TRANSCRIPT_MAGIC)
    for entry in t.entries:
        kind, length = struct.unpack_from(">BI", data, offset)
        assert kind == 1 and data[offset + 5 : offset + 5 + length] == entry.encoded
        offset += 5 + length
    assert offset == len(data)


def test_file_keeps_equivocation_evidence(table: Table) -> None:
    t = table.transcript
    t.append(table.note(1, "a"))
    conflicting = Envelope.sign(
        table.ids[1],
        table_id=TABLE_ID,
        seat=1,
        head=t.entries[-1].envelope.head,
        mtype=NOTE,
        body=("b", 1),
    )
    with pytest.raises(EquivocationDetected):
        t.append(conflicting)
    data = t.to_bytes()
    again = Transcript.from_bytes(data, table.registry)
    assert again.equivocations == t.equivocations and again.to_bytes() == data


def test_file_with_fake_evidence_rejected(table: Table) -> None:
    t = table.transcript
    fake = table.note(1)  # a fine next message, but not an equivocation
    encoded = fake.encode()
    data = t.to_bytes() + struct.pack(">BI", RECORD_EQUIVOCATION, len(encoded)) + encoded
    with pytest.raises(InvalidMessage) as caught:
        Transcript.from_bytes(data, table.registry)
    assert caught.value.index == 4 and caught.value.code == "bad-file"


def test_every_flipped_byte_is_caught_and_located(table: Table) -> None:
    """Flip any byte of a saved transcript: loading fails and names the record holding it."""
    t = _played(table)
    data = t.to_bytes()
    owner: list[int | None] = [None] * len(TRANSCRIPT_MAGIC)
    for entry in t.entries:
        owner += [entry.index] * (5 + len(entry.encoded))
    assert len(owner) == len(data)
    for position in range(len(data)):
        for mask in (0x01, 0xFF):
            mutated = bytearray(data)
            mutated[position] ^= mask
            with pytest.raises(InvalidMessage) as caught:
                Transcript.from_bytes(bytes(mutated), table.registry)
            assert caught.value.index == owner[position], (position, mask, caught.value)


@pytest.mark.parametrize(
    ("data", "index"),
    [
        (b"", None),
        (b"P2PD-TX\x02", None),
        (TRANSCRIPT_MAGIC, None),
        (TRANSCRIPT_MAGIC + b"\x01", 0),
    ],
)
def test_broken_files(data: bytes, index: int | None) -> None:
    with pytest.raises(InvalidMessage) as caught:
        Transcript.from_bytes(data, make_table().registry)
    assert caught.value.index == index


def test_truncated_file_names_the_last_record(table: Table) -> None:
    data = _played(table).to_bytes()
    with pytest.raises(InvalidMessage) as caught:
        Transcript.from_bytes(data[:-1], table.registry)
    assert caught.value.index == len(table.transcript) - 1
    assert "message #7" in str(caught.value)
