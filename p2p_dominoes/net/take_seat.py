"""v4 (PROTOCOL.md §16): a bot peer that takes a seat someone left.

The peer that proposes the continuation (the lowest remaining seat, normally the host) starts
the new holder as a child process and hands it, on its standard input after its identity key,
a *handover*: the seat, the transcript so far (genesis first: the catch-up path never sends
the genesis) and where the other seats listen. The bot replays the transcript as an observer,
checking every message as `verify` would, takes the seat (`TableSession.take_seat`, which
signs the continuation) and joins the mesh by dialling every other seat (their own dials go
to the leaver's old address).
"""

from __future__ import annotations

from collections.abc import Sequence

import trio

from p2p_dominoes.net.addresses import dial_host
from p2p_dominoes.net.connection import Connection
from p2p_dominoes.net.handover import Handover
from p2p_dominoes.net.listener import open_listener
from p2p_dominoes.net.mesh import dial_seat, serve_seated
from p2p_dominoes.net.peer_options import PeerFailure, PeerOptions, ui_lang
from p2p_dominoes.net.runtime import play_table
from p2p_dominoes.net.said import said
from p2p_dominoes.net.table_run import Inbox, TableRun
from p2p_dominoes.session import (
    Envelope,
    InvalidMessage,
    TableSession,
    Transcript,
    default_registry,
)
from p2p_dominoes.words import reason_in


def replayed(messages: Sequence[bytes], lang: str = "en") -> TableSession:
    """An observer that followed `messages` (genesis first), each checked as `verify` does;
    PeerFailure (its words in `lang`) when one of them is not valid."""
    registry = default_registry()
    try:
        transcript = Transcript(Envelope.decode(messages[0], registry), registry)
        session = TableSession(transcript, None, None)
        for data in messages[1:]:
            session.admit(Envelope.decode(data, registry))
    except InvalidMessage as exc:
        raise PeerFailure(said("handover_bad", lang, reason=reason_in(exc.reason, lang))) from None
    session.goes_on_after_goodbye = True
    return session


async def take_seat_table(
    options: PeerOptions, handover: Handover, bot_nursery: trio.Nursery | None = None
) -> int:
    """Replay the handed-over transcript, take the seat, and play it to the match's end. The
    bots we start for seats that leave live in `bot_nursery` when given (a returner's: the
    bots it resumed live there, and all are given time to finish at the end)."""
    lang = ui_lang(options)
    session = replayed(handover.messages, lang)
    try:
        first = session.take_seat(handover.seat, options.identity)
    except ValueError as exc:
        raise PeerFailure(
            said("cannot_take_seat", lang, seat=handover.seat + 1, reason=reason_in(exc, lang))
        ) from None
    listener = await open_listener(interface=options.interface, port=0)
    inbox = Inbox.new()
    run = TableRun(session, options, tuple(session.names), inbox=inbox)
    run.bot_nursery = bot_nursery
    # Where every seat listens, ours included: if we come to propose a continuation ourselves.
    run.peers = {seat: (host, port) for seat, host, port in handover.peers}
    run.peers[handover.seat] = (
        dial_host(options) if options.interface else "127.0.0.1",
        listener.port,
    )

    async def handler(connection: Connection) -> None:
        await serve_seated(connection, session, inbox)

    keys = session.transcript.keys
    async with listener, trio.open_nursery() as nursery:
        await nursery.start(listener.serve, options.identity, handler)
        for seat, host, port in handover.peers:
            if seat != handover.seat and 0 <= seat < len(keys):
                nursery.start_soon(dial_seat, options, inbox, seat, (host, port), keys[seat])
        status = await play_table(run, nursery, first=first)
        nursery.cancel_scope.cancel()
    return status
