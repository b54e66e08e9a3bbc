"""Framing and transport messages: exact round trips, strict rejection, and fuzzing."""

from __future__ import annotations

import msgpack  # type: ignore[import-untyped]
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2p_dominoes.net import (
    KIND_DATA,
    KIND_HELLO,
    MAX_DATA_SIZE,
    MAX_FRAME_SIZE,
    MAX_REASON_BYTES,
    Auth,
    Bye,
    Data,
    FrameDecoder,
    FrameError,
    Heartbeat,
    Hello,
    Message,
    SyncRequest,
    decode_message,
    encode_frame,
    encode_message,
)

MESSAGES: list[Message] = [
    Hello(1, b"\x01" * 32, b"\x02" * 32, b"\x03" * 32),
    Auth(b"\x04" * 64),
    Heartbeat(),
    Data(b""),
    Data(b"payload"),
    Data(b"\x00" * MAX_DATA_SIZE),
    SyncRequest(b"\x05" * 32),
    Bye("done"),
    Bye("é" * (MAX_REASON_BYTES // 2)),
]


def test_frame_is_big_endian_length_then_payload() -> None:
    assert encode_frame(b"abc") == b"\x00\x00\x00\x03abc"


@pytest.mark.parametrize("payload", [b"", b"x" * (MAX_FRAME_SIZE + 1)])
def test_encode_frame_refuses_empty_and_oversized(payload: bytes) -> None:
    with pytest.raises(FrameError):
        encode_frame(payload)


def test_decoder_returns_frames_split_anywhere() -> None:
    frames = [b"a", b"bc" * 100, b"\x00" * 7]
    wire = b"".join(encode_frame(f) for f in frames)
    for cut in range(len(wire) + 1):
        decoder = FrameDecoder()
        got = decoder.feed(wire[:cut]) + decoder.feed(wire[cut:])
        assert got == frames
        assert decoder.buffered == 0


def test_decoder_reports_a_half_frame() -> None:
    decoder = FrameDecoder()
    assert decoder.feed(encode_frame(b"hello")[:6]) == []
    assert decoder.buffered == 6


@pytest.mark.parametrize(
    "prefix", [b"\x00\x00\x00\x00", (MAX_FRAME_SIZE + 1).to_bytes(4, "big"), b"\xff\xff\xff\xff"]
)
def test_bad_length_fails_at_once_and_for_good(prefix: bytes) -> None:
    decoder = FrameDecoder()
    with pytest.raises(FrameError, match="frame length"):
        decoder.feed(prefix)  # no payload bytes needed to fail
    with pytest.raises(FrameError):
        decoder.feed(encode_frame(b"fine"))


def test_decoder_limit_is_configurable() -> None:
    decoder = FrameDecoder(max_size=10)
    assert decoder.feed(encode_frame(b"x" * 10)) == [b"x" * 10]
    with pytest.raises(FrameError):
        decoder.feed(encode_frame(b"x" * 11))


@pytest.mark.parametrize("message", MESSAGES, ids=lambda m: type(m).__name__)
def test_messages_round_trip(message: Message) -> None:
    assert decode_message(encode_message(message)) == message


def test_message_wire_forms_are_arrays_with_the_kind_first() -> None:
    assert msgpack.unpackb(encode_message(Data(b"x"))) == [KIND_DATA, b"x"]
    assert msgpack.unpackb(encode_message(Heartbeat())) == [3]


def _pack(value: object) -> bytes:
    packed = msgpack.packb(value, use_bin_type=True)
    assert isinstance(packed, bytes)
    return packed


BAD = {
    "empty": b"",
    "not msgpack": b"\xc1",
    "trailing bytes": _pack([3]) + b"\x00",
    "map": _pack({"kind": 3}),
    "empty array": _pack([]),
    "scalar": _pack(3),
    "kind as str": _pack(["data", b"x"]),
    "kind as bool": _pack([True]),
    "unknown kind": _pack([99]),
    "data as str": _pack([KIND_DATA, "text"]),
    "data too big": _pack([KIND_DATA, b"\x00" * (MAX_DATA_SIZE + 1)]),
    "extra field": _pack([KIND_DATA, b"x", 1]),
    "missing field": _pack([KIND_DATA]),
    "heartbeat with field": _pack([3, None]),
    "short key": _pack([KIND_HELLO, 1, b"\x01" * 31, b"\x02" * 32, b"\x03" * 32]),
    "version as float": _pack([KIND_HELLO, 1.0, b"\x01" * 32, b"\x02" * 32, b"\x03" * 32]),
    "negative version": _pack([KIND_HELLO, -1, b"\x01" * 32, b"\x02" * 32, b"\x03" * 32]),
    "short signature": _pack([2, b"\x00" * 63]),
    "short head": _pack([5, b"\x00" * 31]),
    "bye as bin": _pack([6, b"reason"]),
    "bye too long": _pack([6, "x" * (MAX_REASON_BYTES + 1)]),
    "non-canonical int": b"\x91\xcd\x00\x03",  # [3] with the kind as uint16
    "non-canonical array": b"\xdc\x00\x01\x03",  # array16 of one element
    "invalid utf-8": b"\x92\x06\xa1\xff",
    "ext type": b"\x92\x04\xd4\x01\x00",
    "nil kind": b"\x91\xc0",
}


@pytest.mark.parametrize("payload", BAD.values(), ids=BAD.keys())
def test_malformed_messages_raise_frame_error(payload: bytes) -> None:
    with pytest.raises(FrameError):
        decode_message(payload)


def test_bye_of_truncates_on_a_character_boundary() -> None:
    bye = Bye.of("é" * 1000)
    assert len(bye.reason.encode()) <= MAX_REASON_BYTES
    assert decode_message(encode_message(bye)) == bye


@settings(max_examples=400, deadline=None)
@given(st.binary(max_size=300))
def test_fuzz_decode_message_raises_only_frame_error(data: bytes) -> None:
    try:
        message = decode_message(data)
    except FrameError:
        return
    assert encode_message(message) == data


wire_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**64 - 1)
    | st.binary(max_size=70)
    | st.text(max_size=20)
    | st.floats(allow_nan=False),
    lambda children: (
        st.lists(children, max_size=6) | st.dictionaries(st.text(max_size=3), children, max_size=2)
    ),
    max_leaves=12,
)


@settings(max_examples=400, deadline=None)
@given(st.integers(1, 7), st.lists(wire_values, max_size=5))
def test_fuzz_structured_arrays(kind: int, rest: list[object]) -> None:
    data = _pack([kind, *rest])
    try:
        message = decode_message(data)
    except FrameError:
        return
    assert encode_message(message) == data


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.binary(min_size=1, max_size=300), max_size=8),
    st.lists(st.integers(0, 3000), max_size=10),
)
def test_fuzz_decoder_any_split(frames: list[bytes], cuts: list[int]) -> None:
    wire = b"".join(encode_frame(f) for f in frames)
    points = sorted({min(c, len(wire)) for c in cuts})
    decoder = FrameDecoder()
    got: list[bytes] = []
    start = 0
    for point in [*points, len(wire)]:
        got += decoder.feed(wire[start:point])
        start = point
    assert got == frames


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=600))
def test_fuzz_decoder_garbage_raises_only_frame_error(data: bytes) -> None:
    decoder = FrameDecoder(max_size=256)
    try:
        for frame in decoder.feed(data):
            assert 1 <= len(frame) <= 256
    except FrameError:
        pass


def test_a_bye_with_our_own_phrase_is_sent_as_its_text() -> None:
    from p2p_dominoes.words import phrase

    said = phrase("net.log_busy")
    bye = Bye(said)
    assert type(bye.reason) is str and bye.reason == str(said)
    assert encode_message(bye) == encode_message(Bye(str(said)))
