"""Every session message validator, through ``TableSession.receive``, with hostile messages.

At every message of an honest hand (2, 3 and 4 seats, every preset: every message type in
every phase it occurs in) the receiving peer is handed a forgery instead: the real body
mutated and re-signed by the sender (fields replaced, bits flipped, bytes resized, parts of
other valid messages spliced in, lists reordered, another hand number or message type), the
message signed by another seat or by a stranger, put on an old or unknown head, or its bytes
mangled after signing. Whatever comes in:

- ``receive`` never raises;
- a rejected message leaves the peer's state exactly as it was (transcript length and head,
  the match, the hand, what it expects next), except the documented halt-and-blame, which
  names the seat whose key signed the message and nobody else;
- a message nobody can be blamed for (a stranger's, or bytes that do not authenticate) changes
  nothing at all;
- an accepted message is the one that was sent (a mutation can be a legal alternative move).
"""

from __future__ import annotations

import dataclasses
import enum
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from p2p_dominoes.session import Envelope, Identity, Phase, TableSession
from p2p_dominoes.session.schema import Wire
from tests.fuzz.counts import CASES, DETAILS, scaled, timed
from tests.fuzz.games import CONFIGS, REGISTRY, Checkpoint, checkpoints, copy_session
from tests.fuzz.mutate import mutate_bytes, random_wire

STRANGER = Identity.generate()
TYPES = list(REGISTRY)
MUTATIONS = (
    "field",
    "flip",
    "flip",
    "flip",
    "resize",
    "splice",
    "splice",
    "items",
    "hand",
    "type",
    "other-seat",
    "impersonate",
    "stranger",
    "old-head",
    "new-head",
    "raw",
    "duplicate",
    "real",
)


# -- the state that must not change -------------------------------------------------------


def plain(value: object, depth: int = 0) -> object:
    """A comparable copy of a session's state: values with bytes, containers, dataclasses."""
    if depth > 12:
        return repr(value)
    if value is None or isinstance(value, (bool, int, str, bytes, float, enum.Enum)):
        return value
    if isinstance(value, (list, tuple)):
        return tuple(plain(item, depth + 1) for item in value)
    if isinstance(value, dict):
        return tuple(sorted((repr(k), plain(v, depth + 1)) for k, v in value.items()))
    to_bytes = getattr(value, "to_bytes", None)
    if callable(to_bytes):
        try:
            return to_bytes()
        except TypeError:
            pass
    if dataclasses.is_dataclass(value):  # a field marked as a cache is not state
        return tuple(
            (f.name, plain(getattr(value, f.name), depth + 1))
            for f in dataclasses.fields(value)
            if not f.metadata.get("cache")
        )
    if hasattr(value, "__dict__"):
        return tuple(sorted((k, plain(v, depth + 1)) for k, v in vars(value).items()))
    return repr(value)


def snapshot(session: TableSession) -> dict[str, object]:
    """Everything observable about a peer but its buffer of early messages."""
    transcript = session.transcript
    return {
        "phase": session.phase,
        "blame": session.blame,
        "expected": session.expected,
        "length": len(transcript),
        "head": transcript.head,
        "entries": tuple(e.hash for e in transcript.entries),
        "equivocations": transcript.equivocations,
        "match": plain(session.match),
        "hand": plain(session.hand),
    }


HALT_CHANGES = ("phase", "blame", "expected", "equivocations")
"""What halt-and-blame changes: the table stops (so nothing is expected) and keeps evidence."""


# -- forging --------------------------------------------------------------------------------


def _paths(value: Wire, path: tuple[int, ...] = ()) -> list[tuple[int, ...]]:
    """Paths to the bytes leaves of a body."""
    if isinstance(value, bytes):
        return [path]
    if isinstance(value, tuple):
        return [p for i, item in enumerate(value) for p in _paths(item, (*path, i))]
    return []


def _get(value: Wire, path: tuple[int, ...]) -> Wire:
    for i in path:
        assert isinstance(value, tuple)
        value = value[i]
    return value


def _set(value: Wire, path: tuple[int, ...], new: Wire) -> Wire:
    if not path:
        return new
    assert isinstance(value, tuple)
    items = list(value)
    items[path[0]] = _set(items[path[0]], path[1:], new)
    return tuple(items)


def _sign(
    identity: Identity,
    envelope: Envelope,
    *,
    seat: int | None = None,
    head: bytes | None = None,
    mtype: Any = None,
    body: tuple[Wire, ...] | None = None,
) -> bytes | None:
    try:
        return Envelope.sign(
            identity,
            table_id=envelope.table_id,
            seat=envelope.seat if seat is None else seat,
            head=envelope.head if head is None else head,
            mtype=envelope.type if mtype is None else mtype,
            body=envelope.body if body is None else body,
        ).encode()
    except Exception:  # the mutated body does not fit the schema: it cannot even be sent
        return None


def _mutated_body(
    rnd: random.Random, kind: str, point: Checkpoint, same_type: list[Envelope]
) -> tuple[Wire, ...]:
    body: Wire = point.envelope.body
    paths = _paths(body)
    if kind == "field" or (not paths and kind in ("flip", "resize", "splice")):
        field = rnd.randrange(len(point.envelope.body))
        return tuple(_set(body, (field,), random_wire(rnd)))  # type: ignore[arg-type]
    if kind == "flip":
        path = rnd.choice(paths)
        leaf = bytearray(_get(body, path))  # type: ignore[arg-type]
        if leaf:
            leaf[rnd.randrange(len(leaf))] ^= 1 << rnd.randrange(8)
        return tuple(_set(body, path, bytes(leaf)))  # type: ignore[arg-type]
    if kind == "resize":
        path = rnd.choice(paths)
        leaf = _get(body, path)
        assert isinstance(leaf, bytes)
        new = (
            leaf[: rnd.randrange(len(leaf) + 1)]
            if rnd.random() < 0.5
            else leaf + rnd.randbytes(rnd.choice((1, 32, 64)))
        )
        return tuple(_set(body, path, new))  # type: ignore[arg-type]
    if kind == "splice":
        donor = rnd.choice(same_type).body
        donor_paths = [p for p in _paths(donor) if p in paths]
        if donor_paths:
            path = rnd.choice(donor_paths)
            return tuple(_set(body, path, _get(donor, path)))  # type: ignore[arg-type]
        return tuple(donor)
    if kind == "items":
        fields = [i for i, v in enumerate(point.envelope.body) if isinstance(v, tuple) and v]
        if fields:
            field = rnd.choice(fields)
            items = list(point.envelope.body[field])  # type: ignore[arg-type]
            how = rnd.randrange(4)
            if how == 0:
                del items[rnd.randrange(len(items))]
            elif how == 1:
                items.append(rnd.choice(items))
            elif how == 2:
                rnd.shuffle(items)
            else:
                items.reverse()
            return tuple(_set(body, (field,), tuple(items)))  # type: ignore[arg-type]
    # "hand" (and "items" on a body without lists): another hand number
    number = point.envelope.body[0]
    other = rnd.choice((0, 1, 2, 2**64 - 1, number + 1 if isinstance(number, int) else 3))
    return (other, *point.envelope.body[1:])


def forge(
    rnd: random.Random, kind: str, point: Checkpoint, same_type: list[Envelope]
) -> tuple[bytes | None, int | None]:
    """(The bytes to deliver, the seat whose key signed them if it is seated, else None)."""
    envelope, sender, ids = point.envelope, point.sender, point.ids
    others = [s for s in range(len(ids)) if s != sender]
    if kind in ("real", "duplicate"):
        return point.data, sender
    if kind == "other-seat":
        seat = rnd.choice(others)
        return _sign(ids[seat], envelope, seat=seat), seat
    if kind == "impersonate":
        signer = rnd.choice(others)
        return _sign(ids[signer], envelope), signer
    if kind == "stranger":
        return _sign(STRANGER, envelope), None
    if kind == "raw":
        mangled = mutate_bytes(rnd, point.data)
        # Edits can cancel out (a bit flipped twice, a byte set to its own value): then these are
        # the sender's own signed bytes.
        return mangled, (sender if mangled == point.data else None)
    if kind == "new-head":
        return _sign(ids[sender], envelope, head=rnd.randbytes(32)), sender
    if kind == "old-head":
        earlier = [e.envelope.head for e in point.receiver.transcript.entries[1:]]
        if not earlier:
            return None, sender
        return _sign(ids[sender], envelope, head=rnd.choice(earlier)), sender
    if kind == "type":
        return _sign(ids[sender], envelope, mtype=rnd.choice(TYPES)), sender
    body = _mutated_body(rnd, kind, point, same_type)
    return _sign(ids[sender], envelope, body=body), sender


# -- the property --------------------------------------------------------------------------


def deliver(point: Checkpoint, data: bytes, signer: int | None, kind: str) -> str:
    """Hand ``data`` to a fresh copy of the checkpoint's peer; check the outcome; name it."""
    session = copy_session(point.receiver)
    if kind == "duplicate":
        session.receive(data)
    before = snapshot(session)
    session.receive(data)  # must not raise, whatever the bytes
    after = snapshot(session)
    if session.phase is Phase.HALTED and before["phase"] is not Phase.HALTED:
        assert signer is not None, "blamed a seat for a message no seat signed"
        assert session.blame is not None and session.blame.seat == signer, (
            f"blamed seat {session.blame and session.blame.seat}, but seat {signer} signed"
        )
        for key in HALT_CHANGES:
            before.pop(key)
            after.pop(key)
        assert before == after, "a rejected message changed the peer's state"
        return "blamed"
    if after["length"] > before["length"]:  # type: ignore[operator]
        assert signer is not None, "accepted a message no seat signed"
        assert session.transcript[before["length"]].encoded == data  # type: ignore[index]
        return "accepted"
    assert before == after, "an ignored message changed the peer's state"
    return "ignored"


@pytest.mark.parametrize(("players", "preset"), CONFIGS, ids=[f"{p}-{r}" for p, r in CONFIGS])
@settings(
    max_examples=scaled(20),
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(seed=st.integers(0, 2**64 - 1))
def test_every_validator_rejects_forgeries_without_side_effects(
    players: int, preset: str, seed: int
) -> None:
    points = checkpoints(players, preset)
    by_type: dict[str, list[Envelope]] = {}
    for config in CONFIGS:  # donors from every table: valid parts out of their context
        for point in checkpoints(*config):
            by_type.setdefault(point.envelope.type.name, []).append(point.envelope)
    rnd = random.Random(seed)
    cases = 0
    with timed("session validators"):
        for index, point in enumerate(points):
            kind = rnd.choice(MUTATIONS)
            data, signer = forge(rnd, kind, point, by_type[point.envelope.type.name])
            if data is None:
                continue
            try:
                outcome = deliver(point, data, signer, kind)
            except AssertionError as exc:
                raise AssertionError(
                    f"{players} seats, {preset}, seed {seed}, message #{index} "
                    f"({point.envelope.type.name} in {point.phase.value}), {kind}: {exc}"
                ) from None
            cases += 1
            DETAILS[f"validator outcome: {outcome}"] += 1
            DETAILS[f"validator type fuzzed: {point.envelope.type.name}"] += 1
    CASES["session validators"] += cases


def test_checkpoints_cover_every_message_type_and_phase() -> None:
    """The fuzz above reaches every validator: each type, in each phase it belongs to."""
    seen = {(p.envelope.type.name, p.phase) for config in CONFIGS for p in checkpoints(*config)}
    names = {name for name, _ in seen}
    assert names == {t.name for t in REGISTRY} - {"genesis"}
    assert {phase for _, phase in seen} == set(Phase) - {Phase.OVER, Phase.HALTED}
