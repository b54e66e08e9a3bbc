"""The envelope decoder under random and mutated input: real messages of every type and table.

Properties: only ``InvalidMessage`` escapes ``Envelope.decode``; what decodes re-encodes to the
same bytes (canonical); and a mutated message that still decodes never verifies under the key
of the seat it names, so no edit of a signed message passes for the original.
"""

from __future__ import annotations

import random
from functools import cache

import msgpack  # type: ignore[import-untyped]
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from p2p_dominoes.session import Envelope, InvalidMessage, PublicIdentity
from tests.fuzz.counts import CASES, DETAILS, scaled, timed
from tests.fuzz.games import CONFIGS, REGISTRY, all_messages, checkpoints
from tests.fuzz.mutate import mutate_bytes, random_wire

SEEDS = 100
FUZZ = settings(
    max_examples=SEEDS,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@cache
def keys() -> dict[bytes, tuple[tuple[PublicIdentity, ...], ...]]:
    """Each fuzzed table's keys a seat, by table id: every key that held the seat (v4: a
    continuation gives a seat a new key, PROTOCOL.md §16)."""
    tables: dict[bytes, list[list[PublicIdentity]]] = {}
    for points in (checkpoints(*config) for config in CONFIGS):
        held = tables.setdefault(points[0].envelope.table_id, [[] for _ in points[0].ids])
        for point in points:
            for seat, identity in enumerate(point.ids):
                if identity.public not in held[seat]:
                    held[seat].append(identity.public)
    return {table: tuple(tuple(seat) for seat in held) for table, held in tables.items()}


def _verifies(envelope: Envelope, held: tuple[PublicIdentity, ...]) -> bool:
    """Whether one of the keys that held the envelope's seat signed it."""
    for key in held:
        try:
            envelope.verify(key)
        except InvalidMessage:
            continue
        return True
    return False


@cache
def real() -> frozenset[bytes]:
    return frozenset(all_messages())


def check(data: bytes, original: bytes | None) -> bool:
    """Decode under the properties; True if it decoded."""
    try:
        envelope = Envelope.decode(data, REGISTRY)
    except InvalidMessage:
        return False
    assert envelope.encode() == data, "decoded bytes that are not canonical"
    if original is not None and data not in real():  # a splice can rebuild another message
        table = keys().get(envelope.table_id, ())
        if envelope.seat < len(table) and _verifies(envelope, table[envelope.seat]):
            raise AssertionError("a mutated message still verifies")
    return True


def _case(rnd: random.Random, samples: list[bytes]) -> tuple[bytes, bytes | None]:
    choice = rnd.randrange(10)
    if choice == 0:
        return rnd.randbytes(rnd.randint(0, 120)), None
    if choice == 1:  # a well-formed array of seven arbitrary things
        items = [random_wire(rnd, 1) for _ in range(rnd.choice((6, 7, 7, 8)))]
        packed = msgpack.packb(items, use_bin_type=True)
        assert isinstance(packed, bytes)
        return packed, None
    original = rnd.choice(samples)
    return mutate_bytes(rnd, original, samples), original


@pytest.mark.slow
@FUZZ
@given(seed=st.integers(0, 2**64 - 1))
def test_envelope_decoder(seed: int) -> None:
    samples = all_messages()
    rnd = random.Random(seed)
    cases = scaled(4000)
    decoded = 0
    with timed("envelope decoder"):
        for case in range(cases):
            data, original = _case(rnd, samples)
            try:
                decoded += check(data, original)
            except AssertionError as exc:
                raise AssertionError(f"seed {seed}, case {case}: {data.hex()}: {exc}") from None
    CASES["envelope decoder"] += cases
    DETAILS["envelope mutants that still decoded (none verified)"] += decoded


def test_every_real_message_decodes_and_verifies() -> None:
    """The mutation fuzz starts from valid inputs: they must all be accepted as they are."""
    samples = all_messages()
    assert {Envelope.decode(d, REGISTRY).type.name for d in samples} == {t.name for t in REGISTRY}
    for data in samples:
        envelope = Envelope.decode(data, REGISTRY)
        assert _verifies(envelope, keys()[envelope.table_id][envelope.seat])
