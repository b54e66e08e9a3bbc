"""The links of a seated table: one writer and one reader task per connection, the reader
forwarding what arrives to the table run's inbox (session messages, catch-up requests, checked
and rate-limited presence, stop notices, the host's word during the setup, a returning player's
request another seat passed on, §16.1); and a link that goes down, replaced by another live one
to the same seat."""

from __future__ import annotations

import logging
import time
from contextlib import suppress
from dataclasses import replace
from typing import Final

import trio

from p2p_dominoes.net.come_back_wire import CHANNEL_COME_BACK, decode_ask
from p2p_dominoes.net.connection import Connection
from p2p_dominoes.net.errors import ConnectionClosed, NetError
from p2p_dominoes.net.framing import SyncRequest
from p2p_dominoes.net.lobby import CHANNEL_LOBBY, CHANNEL_SESSION, LobbyError, Refuse, decode_lobby
from p2p_dominoes.net.page_presence import (
    CHANNEL_PRESENCE,
    PresenceError,
    PresenceLimit,
    decode_presence,
)
from p2p_dominoes.net.peer_options import ui_lang
from p2p_dominoes.net.said import said
from p2p_dominoes.net.strangers import StrangerLog
from p2p_dominoes.net.sync_limit import SyncGate
from p2p_dominoes.net.table_run import (
    Arrived,
    AskedBack,
    HostSaid,
    Inbox,
    Link,
    LinkDown,
    LinkUp,
    Noticed,
    Outgoing,
    PageSaid,
    SyncAsked,
    TableRun,
)
from p2p_dominoes.net.verdict import CHANNEL_NOTICE
from p2p_dominoes.session.come_back_relay import AskLimit

_PRESENCE_FAULTS: Final = StrangerLog(logging.getLogger("p2p_dominoes.net"))
"""Malformed or flooding presence messages from a seat: named once per source per minute."""


async def _writer(connection: Connection, outbox: trio.MemoryReceiveChannel[Outgoing]) -> None:
    """Send a link's queue in order; a failed send just ends the link (the reader notices)."""
    async with outbox:
        async for item in outbox:
            try:
                if isinstance(item, bytes):
                    await connection.send(item)
                else:
                    await connection.request_sync(item[1])
            except (ConnectionClosed, NetError, trio.BrokenResourceError, trio.ClosedResourceError):
                return


async def _reader(
    connection: Connection, seat: int, inbox: Inbox, gate: SyncGate | None = None
) -> None:
    """Forward a connection's session messages, catch-up requests (one outstanding, a few a
    second: ``gate``) and (checked, rate-limited) presence messages to the session task."""
    limit = PresenceLimit(time.monotonic())
    gate = SyncGate(time.monotonic()) if gate is None else gate
    asks = AskLimit(time.monotonic())
    try:
        async for message in connection:
            if isinstance(message, SyncRequest):
                head = gate.ask(message.head, time.monotonic())
                if head is not None:
                    await inbox.send.send(SyncAsked(seat, head, connection, gate))
                elif gate.excess:  # logged once a minute per source
                    _PRESENCE_FAULTS.warn(
                        connection.remote_address,
                        f"seat {seat} floods catch-up requests ({gate.excess} not answered)",
                    )
            elif message.payload[:1] == bytes([CHANNEL_SESSION]):
                await inbox.send.send(Arrived(seat, message.payload[1:]))
            elif message.payload[:1] == bytes([CHANNEL_PRESENCE]):
                said_page = _page_said(connection, seat, message.payload[1:], limit)
                if said_page is not None:
                    await inbox.send.send(said_page)
            elif message.payload[:1] == bytes([CHANNEL_NOTICE]):
                await inbox.send.send(Noticed(seat, message.payload[1:]))
            elif message.payload[:1] == bytes([CHANNEL_COME_BACK]):
                passed = _passed_on(seat, message.payload[1:], asks)
                if passed is not None:
                    await inbox.send.send(passed)
            elif seat == 0 and message.payload[:1] == bytes([CHANNEL_LOBBY]):
                with suppress(LobbyError):
                    word = decode_lobby(message.payload[1:])
                    if isinstance(word, Refuse):
                        await inbox.send.send(HostSaid(seat, word))
    except ConnectionClosed:
        pass
    finally:
        # Never block here: at shutdown nobody may be reading the inbox any more.
        with suppress(trio.WouldBlock, trio.BrokenResourceError, trio.ClosedResourceError):
            inbox.send.send_nowait(LinkDown(seat, connection))


def _passed_on(seat: int, payload: bytes, limit: AskLimit) -> AskedBack | None:
    """§16.1: a returning player's request that `seat` passed on to us (we propose its return;
    the session checks its signature), or None when it is malformed or comes too fast."""
    if not limit.allow(time.monotonic()):
        return None
    ask = decode_ask(payload)
    return None if ask is None else replace(ask, by=seat)


def _page_said(
    connection: Connection, seat: int, payload: bytes, limit: PresenceLimit
) -> PageSaid | None:
    """A presence message from `seat`, or None when it is malformed or comes too fast (either
    is logged once a minute and otherwise ignored: it is advisory, and never ends a link)."""
    if not limit.allow(time.monotonic()):
        _PRESENCE_FAULTS.warn(
            connection.remote_address, f"seat {seat + 1} floods presence messages"
        )
        return None
    try:
        return PageSaid(seat, decode_presence(payload))
    except PresenceError as exc:
        _PRESENCE_FAULTS.warn(
            connection.remote_address, f"seat {seat + 1}'s presence message: {exc}"
        )
        return None


def link_down(run: TableRun, down: LinkDown) -> None:
    """Forget a closed connection; another live one to the same seat takes its place."""
    for link in [*run.spare_links, *run.links.values()]:
        if link.connection is down.connection:
            link.outbox.close()
    run.spare_links = [s for s in run.spare_links if s.connection is not down.connection]
    current = run.links.get(down.seat)
    if current is None or current.connection is not down.connection:
        return
    del run.links[down.seat]
    others = [s for s in run.spare_links if s.seat == down.seat]
    if others:
        run.links[down.seat] = others[-1]
        run.spare_links.remove(others[-1])
    elif not run.session.finished:
        run.pages.pop(down.seat, None)  # it says again when it comes back
        run.lost[down.seat] = run.clock()
        run.options.say(said("lost", ui_lang(run.options), name=run.names[down.seat]))


async def serve_link(inbox: Inbox, seat: int, connection: Connection) -> None:
    """Carry a seated peer's connection until it closes: a writer task, and its reader here."""
    send, receive = trio.open_memory_channel[Outgoing](4096)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(_writer, connection, receive)
        link = Link(seat, connection, send)
        await inbox.send.send(LinkUp(link))
        await _reader(connection, seat, inbox, link.gate)
        nursery.cancel_scope.cancel()
