"""Hostile but authenticated input: a seat signs garbage of every shape; no peer ever raises.

Each example takes an honest table at some point of a hand, lets the expected seat sign a
mutated copy of its real next message, and hands it to another peer. The peer must either
accept it (if the mutation happens to be harmless) or blame that seat; nothing else.
"""

from __future__ import annotations

import copy
from functools import cache

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from p2p_dominoes.bots import random_bot
from p2p_dominoes.engine import DRAW_RULES
from p2p_dominoes.session import Envelope, Identity, Phase, TableSession
from p2p_dominoes.session.local import LocalTable
from tests.session.tables import REGISTRY


@cache
def checkpoints() -> tuple[tuple[list[Identity], TableSession, bytes], ...]:
    """(identities, the receiving peer, the real next message) at every step of one hand."""
    ids = [Identity.generate() for _ in range(2)]
    table = LocalTable.create(DRAW_RULES, ["a", "b"], [random_bot] * 2, identities=ids, max_hands=1)
    points = []
    for seat, session in enumerate(table.sessions):
        table._broadcast(seat, session.start())
    while table.queue or any(s.awaiting_action for s in table.sessions):
        if table.queue:
            _, receiver, data = table.queue[0]
            if len(points) < 80:
                points.append((ids, _copy(table.sessions[receiver]), data))
        table.step()
    return tuple(points)


def _copy(session: TableSession) -> TableSession:
    """A deep copy that shares the (unpicklable, immutable) identity."""
    identity = session._identity
    return copy.deepcopy(session, {id(identity): identity})


def wire_values() -> st.SearchStrategy[object]:
    leaves = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-(2**64), 2**64),
        st.binary(max_size=80),
        st.text(max_size=10),
    )
    return st.recursive(leaves, lambda inner: st.lists(inner, max_size=4).map(tuple), max_leaves=8)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_seated_peer_signing_mutated_messages_is_blamed_or_harmless(data: st.DataObject) -> None:
    points = checkpoints()
    ids, template, real = data.draw(st.sampled_from(points), label="checkpoint")
    session = _copy(template)
    envelope = Envelope.decode(real, REGISTRY)
    body = list(envelope.body)
    field = data.draw(st.integers(0, len(body) - 1), label="field")
    if isinstance(body[field], bytes) and data.draw(st.booleans(), label="flip"):
        raw = bytearray(body[field])
        raw[data.draw(st.integers(0, len(raw) - 1))] ^= 1 << data.draw(st.integers(0, 7))
        body[field] = bytes(raw)
    else:
        body[field] = data.draw(wire_values(), label="value")
    if tuple(body) == tuple(envelope.body):
        return  # not a mutation (e.g. a v3 play's nil `drawn` set to nil): the real message
    try:
        forged = Envelope.sign(
            ids[envelope.seat],
            table_id=envelope.table_id,
            seat=envelope.seat,
            head=envelope.head,
            mtype=envelope.type,
            body=tuple(body),
        ).encode()
    except Exception:
        return
    before = len(session.transcript)
    update = session.receive(forged)
    if session.phase is Phase.HALTED:
        assert session.blame is not None and session.blame.seat == envelope.seat
        assert len(session.transcript) == before
    else:
        assert not update.events or len(session.transcript) in (before, before + 1)
