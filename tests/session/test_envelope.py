"""The envelope: canonical round trips, signatures, and every way decoding refuses input."""

from __future__ import annotations

import msgpack  # type: ignore[import-untyped]
import pytest

from p2p_dominoes.session import (
    ENVELOPE_SIGNATURE_DOMAIN,
    GENESIS_SIGN,
    MAX_ENVELOPE_SIZE,
    PROTOCOL_VERSION,
    SUPPORTED_VERSIONS,
    Envelope,
    Identity,
    Int,
    InvalidMessage,
    MessageRegistry,
    MessageType,
    Text,
    default_registry,
    record,
)
from tests.session.conftest import NOTE, TABLE_ID, Table, fixed_identity, make_registry

HEAD = b"\x11" * 32
REGISTRY = make_registry()


def note(
    text: str = "hello", n: int = 7, *, seat: int = 1, signer: Identity | None = None
) -> Envelope:
    return Envelope.sign(
        signer or fixed_identity("player 1"),
        table_id=TABLE_ID,
        seat=seat,
        head=HEAD,
        mtype=NOTE,
        body=(text, n),
    )


def fields(envelope: Envelope) -> list[object]:
    """The seven wire elements of an envelope, as plain Python values."""
    return list(msgpack.unpackb(envelope.encode(), use_list=True))


def pack(values: object) -> bytes:
    packed: bytes = msgpack.packb(values, use_bin_type=True)
    return packed


def splice(values: list[object], index: int, raw: bytes) -> bytes:
    """Encode a 7-element envelope array, with element ``index`` replaced by ``raw`` bytes."""
    parts = [raw if i == index else pack(v) for i, v in enumerate(values)]
    return bytes([0x90 | len(values)]) + b"".join(parts)


def rejects(data: bytes, code: str, registry: MessageRegistry = REGISTRY) -> InvalidMessage:
    with pytest.raises(InvalidMessage) as caught:
        Envelope.decode(data, registry)
    assert caught.value.code == code, caught.value
    assert caught.value.seat is None  # decoding never authenticates, so never blames a seat
    return caught.value


# -- round trips ---------------------------------------------------------------------------------


def test_round_trip_is_byte_exact() -> None:
    envelope = note()
    data = envelope.encode()
    decoded = Envelope.decode(data, REGISTRY)
    assert decoded == envelope
    assert decoded.encode() == data
    assert decoded.field("text") == "hello" and decoded.field("n") == 7
    decoded.verify(fixed_identity("player 1").public)


def test_wire_layout_is_a_seven_element_array() -> None:
    envelope = note()
    assert fields(envelope) == [
        PROTOCOL_VERSION,
        TABLE_ID,
        1,
        HEAD,
        NOTE.code,
        ["hello", 7],
        envelope.signature,
    ]


def test_signature_covers_domain_and_the_first_six_fields() -> None:
    envelope = note()
    expected = ENVELOPE_SIGNATURE_DOMAIN + pack(fields(envelope)[:6])
    assert envelope.signed_bytes() == expected
    assert fixed_identity("player 1").public.verify(envelope.signature, expected)


def test_lists_in_bodies_are_normalised_to_tuples() -> None:
    a = Envelope.sign(
        fixed_identity("x"), table_id=TABLE_ID, seat=0, head=HEAD, mtype=NOTE, body=["a", 1]
    )
    assert a.body == ("a", 1)


def test_golden_vector() -> None:
    """A fixed key and fields give fixed bytes (Ed25519 is deterministic): pins the format."""
    envelope = Envelope.sign(
        fixed_identity("alice"),
        table_id=TABLE_ID,
        seat=2,
        head=HEAD,
        mtype=GENESIS_SIGN,
        body=(b"\x22" * 32, b"\x33" * 32),
        version=1,  # the version PROTOCOL.md §11 was written for; the layout is unchanged
    )
    assert envelope.encode().hex() == GOLDEN_GENESIS_SIGN_HEX
    assert envelope.hash.hex() == GOLDEN_GENESIS_SIGN_HASH


# Built independently by hand (raw msgpack bytes + cryptography), see PROTOCOL.md §11.
GOLDEN_GENESIS_SIGN_HEX = (
    "9701c410000102030405060708090a0b0c0d0e0f02c420"
    + "11" * 32
    + "0292c420"
    + "22" * 32
    + "c420"
    + "33" * 32
    + "c440d352caaef56cbea01a237558bd1e186a8492c31bca642d78c8e0ba03b23b2ea753601e9595b0d08e2085"
    "c78e9e016cf3908e5a04b17bc4456d6977147654810a"
)
GOLDEN_GENESIS_SIGN_HASH = "0aedabced0296a6a9d9fcb3bf370488c0036526be3a88aa840e08d19d5c846f9"


# -- signatures ----------------------------------------------------------------------------------


def test_bad_signature_rejected() -> None:
    envelope = note()
    forged = Envelope(1, TABLE_ID, 1, HEAD, NOTE, envelope.body, bytes(64))
    with pytest.raises(InvalidMessage) as caught:
        forged.verify(fixed_identity("player 1").public)
    assert caught.value.code == "bad-signature"


def test_wrong_key_rejected() -> None:
    envelope = note(signer=fixed_identity("mallory"))
    with pytest.raises(InvalidMessage, match="bad signature"):
        envelope.verify(fixed_identity("player 1").public)


def test_any_changed_field_breaks_the_signature() -> None:
    envelope = note()
    key = fixed_identity("player 1").public
    changed = [
        Envelope(1, b"\x00" * 16, 1, HEAD, NOTE, envelope.body, envelope.signature),
        Envelope(1, TABLE_ID, 2, HEAD, NOTE, envelope.body, envelope.signature),
        Envelope(1, TABLE_ID, 1, b"\x00" * 32, NOTE, envelope.body, envelope.signature),
        Envelope(1, TABLE_ID, 1, HEAD, NOTE, ("hellO", 7), envelope.signature),
    ]
    for other in changed:
        with pytest.raises(InvalidMessage):
            other.verify(key)


# -- decoding rejections -------------------------------------------------------------------------


def test_oversized_rejected_before_unpacking() -> None:
    # Not even msgpack: only the size check can have produced "too-large".
    rejects(b"\xc1" * (MAX_ENVELOPE_SIZE + 1), "too-large")


def test_exactly_max_size_is_unpacked() -> None:
    rejects(b"\xc1" * MAX_ENVELOPE_SIZE, "malformed")


def test_big_body_within_limits_round_trips() -> None:
    big = MessageType(101, "big", record(("blob", Text(60000))))
    registry = REGISTRY.extended(big)
    envelope = Envelope.sign(
        fixed_identity("x"), table_id=TABLE_ID, seat=0, head=HEAD, mtype=big, body=("a" * 60000,)
    )
    assert Envelope.decode(envelope.encode(), registry) == envelope


@pytest.mark.parametrize("data", [b"", b"\xc1", b"\x97", b"\xdc\x00"])
def test_malformed_msgpack(data: bytes) -> None:
    rejects(data, "malformed")


def test_truncated_rejected_at_every_length() -> None:
    data = note().encode()
    for cut in range(len(data)):
        rejects(data[:cut], "malformed")


def test_trailing_bytes_rejected() -> None:
    rejects(note().encode() + b"\x00", "malformed")


def test_extra_field_rejected() -> None:
    rejects(pack([*fields(note()), 0]), "bad-envelope")


def test_missing_field_rejected() -> None:
    rejects(pack(fields(note())[:6]), "bad-envelope")


def test_extra_body_field_rejected() -> None:
    values = fields(note())
    values[5] = ["hello", 7, 1]
    rejects(pack(values), "bad-body")


def test_missing_body_field_rejected() -> None:
    values = fields(note())
    values[5] = ["hello"]
    rejects(pack(values), "bad-body")


def test_unknown_type_rejected() -> None:
    values = fields(note())
    values[4] = 99
    rejects(pack(values), "unknown-type")
    rejects(note().encode(), "unknown-type", default_registry())  # NOTE is not registered there


def test_unsupported_version_rejected() -> None:
    values = fields(note())
    values[0] = max(SUPPORTED_VERSIONS) + 1
    rejects(pack(values), "unsupported-version")


@pytest.mark.parametrize(
    ("index", "value"),
    [
        (0, True),  # version must be an int, not a bool
        (0, 1.0),  # no floats anywhere
        (1, b"\x00" * 15),  # table id is exactly 16 bytes
        (1, "0123456789abcdef"),  # bin, not str
        (2, 4),  # seats 0..3
        (2, -1),
        (2, False),
        (3, b"\x00" * 31),  # head is exactly 32 bytes
        (4, "test_note"),  # the type travels as its int code
        (5, {"text": "hi", "n": 1}),  # body is an array, never a map
        (5, "body"),
        (6, b"\x00" * 63),  # signature is exactly 64 bytes
        (6, None),
    ],
)
def test_wrong_field_types_and_lengths(index: int, value: object) -> None:
    values = fields(note())
    values[index] = value
    with pytest.raises(InvalidMessage) as caught:
        Envelope.decode(pack(values), REGISTRY)
    assert caught.value.code in {"bad-envelope", "bad-body", "unsupported-version", "malformed"}


def test_whole_envelope_as_map_rejected() -> None:
    rejects(pack(dict(enumerate(fields(note())))), "malformed")


@pytest.mark.parametrize(
    ("index", "raw"),
    [
        (2, b"\xcc\x01"),  # seat 1 as uint8: an int wider than needed
        (2, b"\xd0\x01"),  # seat 1 as int8
        (0, b"\xcd\x00\x04"),  # version 4 as uint16
        (1, b"\xc5\x00\x10" + bytes(range(16))),  # table id as bin16
        (4, b"\xd1\x00\x64"),  # type 100 as int16
    ],
)
def test_non_canonical_encodings_rejected(index: int, raw: bytes) -> None:
    values = fields(note())
    assert msgpack.unpackb(raw) == values[index]  # the same value, encoded differently
    rejects(splice(values, index, raw), "non-canonical")


def test_non_canonical_array_header_rejected() -> None:
    canonical = note().encode()
    assert canonical[0] == 0x97
    rejects(b"\xdc\x00\x07" + canonical[1:], "non-canonical")


def test_non_canonical_string_in_body_rejected() -> None:
    values = fields(note())
    body = b"\x92" + b"\xd9\x05hello" + b"\x07"  # str8 where fixstr fits
    rejects(splice(values, 5, body), "non-canonical")


def test_ext_types_rejected() -> None:
    values = fields(note())
    rejects(splice(values, 6, b"\xd4\x01\x00"), "malformed")  # fixext1
    rejects(splice(values, 6, b"\xc7\x00\x05"), "bad-envelope")  # empty ext8


def test_float_in_body_rejected() -> None:
    values = fields(note())
    values[5] = ["hi", 1.0]
    rejects(pack(values), "bad-body")


def test_invalid_utf8_rejected() -> None:
    values = fields(note())
    rejects(splice(values, 5, b"\x92\xa2\xff\xfe\x07"), "malformed")


def test_deep_nesting_rejected() -> None:
    rejects(b"\x91" * 5000 + b"\xc0", "malformed")


def test_non_bytes_input_rejected() -> None:
    for data in (bytearray(note().encode()), memoryview(note().encode()), "text", None):
        rejects(data, "bad-envelope")  # type: ignore[arg-type]


# -- constructing ----------------------------------------------------------------------------------


def test_cannot_construct_invalid_envelopes() -> None:
    key = fixed_identity("x")
    with pytest.raises(InvalidMessage):
        Envelope.sign(key, table_id=b"short", seat=0, head=HEAD, mtype=NOTE, body=("a", 1))
    with pytest.raises(InvalidMessage):
        Envelope.sign(key, table_id=TABLE_ID, seat=4, head=HEAD, mtype=NOTE, body=("a", 1))
    with pytest.raises(InvalidMessage):
        Envelope.sign(key, table_id=TABLE_ID, seat=0, head=HEAD, mtype=NOTE, body=("a", 1001))
    with pytest.raises(InvalidMessage):
        Envelope.sign(key, table_id=TABLE_ID, seat=0, head=HEAD, mtype=NOTE, body=("a",))


# -- registry --------------------------------------------------------------------------------------


def test_registry_plugs_in_new_types() -> None:
    extra = MessageType(100, "chat", record(("position", Int(0, 27))))
    registry = default_registry().extended(extra)
    assert registry.by_code(100) is extra and registry.by_name("chat") is extra
    assert extra in registry and extra not in default_registry()
    assert [t.code for t in registry] == [t.code for t in default_registry()] + [100]


def test_registry_refuses_clashes() -> None:
    registry = default_registry()
    with pytest.raises(ValueError, match="clashes"):
        registry.register(MessageType(1, "other", record()))
    with pytest.raises(ValueError, match="clashes"):
        registry.register(MessageType(50, "genesis", record()))
    before = len(registry)
    registry.register(GENESIS_SIGN)  # registering the same type again is harmless
    assert len(registry) == before


@pytest.mark.parametrize(
    ("code", "name"), [(0, "x"), (128, "x"), (True, "x"), (5, "Bad"), (5, ""), (5, "a" * 33)]
)
def test_message_type_validation(code: int, name: str) -> None:
    with pytest.raises(ValueError):
        MessageType(code, name, record(("t", Text(5))))


def test_table_fixture_is_usable(table: Table) -> None:
    assert table.note(1).seat == 1
