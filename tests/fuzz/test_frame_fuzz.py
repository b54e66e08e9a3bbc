"""The transport's frame decoder and message decoder under random and mutated input.

Properties: only ``FrameError`` escapes; the decoder's answer does not depend on how TCP cut
the stream; what it returns re-frames to exactly the bytes it consumed; once it fails it stays
failed; a decoded transport message re-encodes to the very payload it came from.
"""

from __future__ import annotations

import random
from itertools import pairwise

import msgpack  # type: ignore[import-untyped]
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from p2p_dominoes.net import (
    MAX_FRAME_SIZE,
    MAX_HANDSHAKE_FRAME_SIZE,
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
from tests.fuzz.counts import CASES, scaled, timed
from tests.fuzz.mutate import mutate_bytes, random_wire

SEEDS = 100
SEED = st.integers(0, 2**64 - 1)
FUZZ = settings(
    max_examples=SEEDS,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)

MESSAGES: list[Message] = [
    Hello(1, b"\x01" * 32, b"\x02" * 32, b"\x03" * 32),
    Hello(65535, bytes(range(32)), bytes(32), b"\xff" * 32),
    Auth(b"\x04" * 64),
    Heartbeat(),
    Data(b""),
    Data(b"\x01" + b"envelope" * 20),
    Data(b"\x00" * 300),
    SyncRequest(b"\x05" * 32),
    Bye("done"),
    Bye("é" * 100),
]
PAYLOADS = [encode_message(m) for m in MESSAGES]
LIMITS = (8, 64, MAX_HANDSHAKE_FRAME_SIZE, MAX_FRAME_SIZE)


def _stream(rnd: random.Random) -> bytes:
    """Some frames (valid payloads, random ones, or huge/zero lengths), maybe mutated."""
    parts = []
    for _ in range(rnd.randint(0, 5)):
        choice = rnd.randrange(4)
        if choice == 0:
            parts.append(encode_frame(rnd.choice(PAYLOADS)))
        elif choice == 1:
            parts.append(encode_frame(rnd.randbytes(rnd.randint(1, 80))))
        elif choice == 2:
            length = rnd.choice((0, 1, MAX_HANDSHAKE_FRAME_SIZE + 1, MAX_FRAME_SIZE + 1, 2**32 - 1))
            parts.append(length.to_bytes(4, "big") + rnd.randbytes(rnd.randint(0, 8)))
        else:
            parts.append(rnd.randbytes(rnd.randint(0, 12)))
    data = b"".join(parts)
    return mutate_bytes(rnd, data, PAYLOADS) if data and rnd.random() < 0.5 else data


def _feed(decoder: FrameDecoder, chunks: list[bytes]) -> tuple[list[bytes], FrameError | None]:
    frames: list[bytes] = []
    for chunk in chunks:
        try:
            frames += decoder.feed(chunk)
        except FrameError as exc:
            return frames, exc
    return frames, None


def _cut(rnd: random.Random, data: bytes) -> list[bytes]:
    cuts = sorted(rnd.randrange(len(data) + 1) for _ in range(rnd.randint(0, 4)))
    bounds = [0, *cuts, len(data)]
    return [data[a:b] for a, b in pairwise(bounds)]


def check_stream(rnd: random.Random) -> None:
    data = _stream(rnd)
    limit = rnd.choice(LIMITS)
    # The reference: one byte at a time, so every frame before a bad length is handed out.
    one_by_one = [data[i : i + 1] for i in range(len(data))]
    reference, failed_reference = _feed(FrameDecoder(limit), one_by_one)
    decoder = FrameDecoder(limit)
    frames, failed = _feed(decoder, _cut(rnd, data))
    assert (failed is None) == (failed_reference is None), "chunking changed the verdict"
    if failed is None:
        assert frames == reference, "chunking changed the frames"
        consumed = b"".join(encode_frame(f, max_size=limit) for f in frames)
        assert consumed + data[len(consumed) :] == data
        assert decoder.buffered == len(data) - len(consumed)
        assert decoder.buffered < 4 + limit
    else:
        # A chunk holding good frames then a bad length raises without returning the good
        # ones (the connection is closed anyway): what came out is a prefix of the reference.
        assert reference[: len(frames)] == frames
        try:
            decoder.feed(b"\x00\x00\x00\x01x")
        except FrameError:
            pass
        else:
            raise AssertionError("a failed decoder accepted more input")


@FUZZ
@given(seed=SEED)
def test_frame_decoder_streams(seed: int) -> None:
    rnd = random.Random(seed)
    cases = scaled(2000)
    with timed("frame decoder"):
        for case in range(cases):
            try:
                check_stream(rnd)
            except AssertionError as exc:
                raise AssertionError(f"seed {seed}, case {case}: {exc}") from None
    CASES["frame decoder"] += cases


def _random_payload(rnd: random.Random) -> bytes:
    choice = rnd.randrange(4)
    if choice == 0:
        return rnd.randbytes(rnd.randint(0, 60))
    if choice == 1:  # a well-formed msgpack array of arbitrary things
        rest = tuple(random_wire(rnd, 1) for _ in range(rnd.randint(0, 5)))
        packed = msgpack.packb((rnd.randint(0, 8), *rest), use_bin_type=True)
        assert isinstance(packed, bytes)
        return packed
    return mutate_bytes(rnd, rnd.choice(PAYLOADS), PAYLOADS)


def check_message(payload: bytes) -> None:
    try:
        message = decode_message(payload)
    except FrameError:
        return
    assert encode_message(message) == payload, "decoded a non-canonical message"


@FUZZ
@given(seed=SEED)
def test_transport_message_decoder(seed: int) -> None:
    rnd = random.Random(seed)
    cases = scaled(2000)
    with timed("transport message decoder"):
        for case in range(cases):
            payload = _random_payload(rnd)
            try:
                check_message(payload)
            except AssertionError as exc:
                raise AssertionError(f"seed {seed}, case {case}: {payload.hex()}: {exc}") from None
    CASES["transport message decoder"] += cases


@settings(max_examples=scaled(1000), deadline=None, database=None)
@given(st.lists(st.binary(max_size=40), max_size=6), st.sampled_from(LIMITS))
def test_frame_decoder_with_hypothesis_chunks(chunks: list[bytes], limit: int) -> None:
    """Hypothesis-shrinkable variant: arbitrary chunks, one after another."""
    with timed("frame decoder (hypothesis)"):
        data = b"".join(chunks)
        frames, failed = _feed(FrameDecoder(limit), chunks)
        reference, failed_reference = _feed(FrameDecoder(limit), [bytes([b]) for b in data])
        assert (failed is None) == (failed_reference is None)
        assert frames == reference if failed is None else reference[: len(frames)] == frames
    CASES["frame decoder (hypothesis)"] += 1
