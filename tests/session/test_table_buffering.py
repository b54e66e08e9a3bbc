"""Early messages wait for their predecessor; a halted peer keeps its first blame."""

from __future__ import annotations

from collections import deque

from p2p_dominoes.bots import random_bot
from p2p_dominoes.engine import DRAW_RULES
from p2p_dominoes.session import MAX_BUFFERED_PER_SEAT, Envelope, Identity, Phase
from p2p_dominoes.session import hand_messages as msg
from p2p_dominoes.session.events import CheatingDetected, Update
from p2p_dominoes.session.local import LocalTable
from tests.session.tables import REGISTRY


def test_a_cheat_found_in_the_buffer_is_the_only_blame() -> None:
    ids = [Identity.generate() for _ in range(3)]
    table = LocalTable.create(DRAW_RULES, ["a", "b", "c"], [random_bot] * 3, identities=ids)
    sessions = table.sessions
    queue: deque[tuple[int, bytes]] = deque()

    def post(sender: int, update: Update) -> None:
        for data in update.outgoing:
            queue.extend((r, data) for r in range(3) if r != sender)

    for seat, session in enumerate(sessions):
        post(seat, session.start())
    held = []
    while queue:  # seat 2 never hears the key commitments
        receiver, data = queue.popleft()
        if receiver == 2 and Envelope.decode(data, REGISTRY).type is msg.KEY_COMMIT:
            held.append(data)
            continue
        post(receiver, sessions[receiver].receive(data))
    commit0, commit1 = held
    # Seat 0 signs a second commitment placed after its own: out of turn, buffered by seat 2.
    after_commit0 = Envelope.decode(commit1, REGISTRY).head
    out_of_turn = Envelope.sign(
        ids[0],
        table_id=sessions[0].transcript.table_id,
        seat=0,
        head=after_commit0,
        mtype=msg.KEY_COMMIT,
        body=(1, Envelope.decode(commit0, REGISTRY).field("commit")),
    )
    assert sessions[2].receive(out_of_turn.encode()).events == []
    assert sessions[2].receive(commit1).events == []  # waits on the same head
    events = sessions[2].receive(commit0).events
    assert [e.blame.seat for e in events if isinstance(e, CheatingDetected)] == [0]
    assert sessions[2].blame is not None and sessions[2].blame.seat == 0
    assert sessions[2].phase is Phase.HALTED


def test_a_peer_flooding_early_messages_only_crowds_out_itself() -> None:
    ids = [Identity.generate() for _ in range(3)]
    table = LocalTable.create(DRAW_RULES, ["a", "b", "c"], [random_bot] * 3, identities=ids)
    session = table.sessions[2]
    for n in range(MAX_BUFFERED_PER_SEAT + 20):
        junk = Envelope.sign(
            ids[1],
            table_id=session.transcript.table_id,
            seat=1,
            head=bytes([n % 256]) * 32,
            mtype=msg.PASS,
            body=(1,),
        )
        session.receive(junk.encode())
    assert sum(len(v) for v in session._intake.future.values()) == MAX_BUFFERED_PER_SEAT
    table.run()  # the honest table still completes
    assert all(s.phase is Phase.OVER for s in table.sessions)
