"""A real `join` process that cheats one peer only: its first shuffle reaches the lowest other
seat with two cards swapped (re-signed, so it is a message the cheater really signed), and the
other seats get nothing for that place — they could only learn of it from the victim.

Run as ``python -m tests.net.cheating_peer ARGS…`` with the arguments of ``p2p-dominoes join``.
"""

from __future__ import annotations

import dataclasses
import sys
from typing import Any

from p2p_dominoes import cli
from p2p_dominoes.mental import Deck, ShuffleStep
from p2p_dominoes.net import runtime
from p2p_dominoes.net.lobby import CHANNEL_SESSION
from p2p_dominoes.session import Envelope
from p2p_dominoes.session.events import Update

_original_handle = runtime._handle
_done: list[bool] = []


def _swapped(envelope: Envelope, run: Any) -> bytes:
    data = envelope.field("step")
    assert isinstance(data, bytes)
    step = ShuffleStep.from_bytes(data, envelope.seat)
    cards = list(step.deck.cards)
    bad = dataclasses.replace(step, deck=Deck([cards[1], cards[0], *cards[2:]])).to_bytes()
    return Envelope.sign(
        run.options.identity,
        table_id=envelope.table_id,
        seat=envelope.seat,
        head=envelope.head,
        mtype=envelope.type,
        body=(envelope.field("hand"), bad),
        version=envelope.version,
    ).encode()


async def _handle(run: Any, update: Update, nursery: Any) -> None:
    registry = run.session.transcript.registry
    for data in list(update.outgoing):
        envelope = Envelope.decode(data, registry)
        if _done or envelope.type.name != "shuffle" or envelope.seat != run.seat:
            continue
        _done.append(True)
        update.outgoing.remove(data)  # never sent as it is (catch-up may still offer it later)
        victim = min(seat for seat in range(len(run.names)) if seat != run.seat)
        if victim in run.links:
            run.links[victim].post(bytes([CHANNEL_SESSION]) + _swapped(envelope, run))
        print(f"cheating: a swapped shuffle to seat {victim} only", file=sys.stderr, flush=True)
    await _original_handle(run, update, nursery)


if __name__ == "__main__":
    runtime._handle = _handle  # type: ignore[assignment]
    sys.exit(cli.main(["join", *sys.argv[1:]]))
