"""Answering catch-up requests: a seat that says which head it holds is sent what follows it
(bounded; `sync_limit.py`), and the requests a link deferred are answered when they may go."""

from __future__ import annotations

import time

from p2p_dominoes.net.lobby import CHANNEL_SESSION
from p2p_dominoes.net.sync_limit import bounded_answer
from p2p_dominoes.net.table_run import SyncAsked, TableRun
from p2p_dominoes.session import Envelope


def answer_sync(run: TableRun, asked: SyncAsked) -> None:
    """Send the asking connection what follows its head (at most ``MAX_SYNC_ANSWER_BYTES``;
    it asks again for the rest), then a request its link deferred, if one may go now."""
    run.heads[asked.seat] = asked.head
    held = set(run.held)
    for link in [*run.links.values(), *run.spare_links]:
        if link.connection is asked.connection:
            after = run.session.messages_after(asked.head)
            for data in bounded_answer(d for d in after if d not in held):  # held: paused
                link.post(bytes([CHANNEL_SESSION]) + data)
            break
    if asked.gate is not None:
        asked.gate.answered()
        head = asked.gate.due(time.monotonic())
        if head is not None:
            answer_sync(run, SyncAsked(asked.seat, head, asked.connection, asked.gate))


def answer_deferred(run: TableRun) -> None:
    """Answer the catch-up requests links deferred (they came too fast), when they may go."""
    for link in [*run.links.values(), *run.spare_links]:
        head = link.gate.due(time.monotonic())
        if head is not None:
            answer_sync(run, SyncAsked(link.seat, head, link.connection, link.gate))


def public_head(run: TableRun) -> bytes:
    """The head of what we have sent: messages held back during a pause are not yet known."""
    if run.held:
        return Envelope.decode(run.held[0], run.session.transcript.registry).head
    return run.session.transcript.head
