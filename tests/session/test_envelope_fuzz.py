"""Fuzzing the decoders: whatever the bytes, only InvalidMessage escapes, and nothing forges."""

from __future__ import annotations

import msgpack  # type: ignore[import-untyped]
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from p2p_dominoes.session import (
    GENESIS_SIGN,
    Envelope,
    InvalidMessage,
    Transcript,
)
from tests.session.conftest import TABLE_ID, fixed_identity, make_registry, make_table

REGISTRY = make_registry()
TABLE = make_table(3)
for _seat in (1, 2, 0):
    TABLE.transcript.append(TABLE.note(_seat, "a move", 42))
KEYS = TABLE.transcript.keys
SAMPLES = [entry.encoded for entry in TABLE.transcript.entries]
FILE = TABLE.transcript.to_bytes()
FUZZ = settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def decode_or_invalid(data: bytes) -> Envelope | None:
    """Decode, allowing only InvalidMessage; anything decoded must re-encode to the same bytes."""
    try:
        envelope = Envelope.decode(data, REGISTRY)
    except InvalidMessage:
        return None
    assert envelope.encode() == data
    return envelope


@FUZZ
@given(st.binary(max_size=400))
def test_random_bytes(data: bytes) -> None:
    decode_or_invalid(data)


@st.composite
def mutated(draw: st.DrawFn) -> tuple[bytes, bytes]:
    original = draw(st.sampled_from(SAMPLES))
    data = bytearray(original)
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["flip", "set", "insert", "delete", "truncate", "append"]))
        at = draw(st.integers(0, max(len(data) - 1, 0)))
        if kind == "flip" and data:
            data[at] ^= draw(st.integers(1, 255))
        elif kind == "set" and data:
            data[at] = draw(st.sampled_from([0x00, 0x7F, 0x80, 0x90, 0xC0, 0xC4, 0xCC, 0xDC, 0xFF]))
        elif kind == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=8))
        elif kind == "delete":
            del data[at : at + draw(st.integers(1, 8))]
        elif kind == "truncate":
            del data[at:]
        else:
            data += draw(st.binary(min_size=1, max_size=8))
    return original, bytes(data)


@FUZZ
@given(mutated())
def test_mutated_envelopes_never_verify(pair: tuple[bytes, bytes]) -> None:
    original, data = pair
    envelope = decode_or_invalid(data)
    if envelope is None or data == original:
        return
    # It decoded, so it is canonical and differs from what the seat signed: no key accepts it.
    for key in KEYS:
        try:
            envelope.verify(key)
        except InvalidMessage:
            continue
        raise AssertionError(f"mutated envelope verified: {data.hex()}")


ATOMS = (
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**64 - 1)
    | st.floats()
    | st.text(max_size=20)
    | st.binary(max_size=70)
)
VALUES = st.recursive(
    ATOMS,
    lambda inner: (
        st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=20,
)
FIELDS = [
    st.sampled_from([0, 1, 2, True]) | VALUES,
    st.sampled_from([TABLE_ID, b"\x00" * 15]) | VALUES,
    st.integers(-1, 5) | VALUES,
    st.sampled_from([b"\x11" * 32]) | VALUES,
    st.sampled_from([1, 2, 100, 127, 0]) | VALUES,
    VALUES,
    st.binary(min_size=64, max_size=64) | VALUES,
]


@settings(max_examples=800, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.tuples(*FIELDS), st.integers(0, 2))
def test_envelope_shaped_msgpack(values: tuple[object, ...], extra: int) -> None:
    shaped = list(values) + [None] * (extra - 1) if extra else list(values)[:6]
    decode_or_invalid(msgpack.packb(shaped, use_bin_type=True))


@settings(max_examples=300, deadline=None)
@given(st.binary(min_size=32, max_size=32))
def test_signed_random_bodies_round_trip(digest: bytes) -> None:
    envelope = Envelope.sign(
        fixed_identity("fuzz"),
        table_id=TABLE_ID,
        seat=3,
        head=digest,
        mtype=GENESIS_SIGN,
        body=(digest, digest[::-1]),
    )
    assert decode_or_invalid(envelope.encode()) == envelope


@settings(max_examples=500, deadline=None)
@given(st.integers(0, len(FILE) - 1), st.binary(min_size=1, max_size=6), st.booleans())
def test_mutated_transcript_files(at: int, junk: bytes, insert: bool) -> None:
    data = bytearray(FILE)
    if insert:
        data[at:at] = junk
    else:
        flipped = bytes(b ^ (j or 1) for b, j in zip(data[at:], junk, strict=False))
        data[at : at + len(flipped)] = flipped
    try:
        loaded = Transcript.from_bytes(bytes(data), REGISTRY)
    except InvalidMessage:
        return
    raise AssertionError(f"tampered transcript loaded with head {loaded.head.hex()}")
