"""The mesh of a seated table: who may connect once the genesis exists, serving a seated peer's
connection, and dialling the seats below ours (again, with backoff, for as long as the table
lasts)."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from contextlib import suppress
from typing import Final

import trio

from p2p_dominoes.net.backoff import Backoff
from p2p_dominoes.net.come_back_wire import CHANNEL_COME_BACK, decode_ask
from p2p_dominoes.net.connection import Connection, connect
from p2p_dominoes.net.connection import Refusal as HandshakeRefusal
from p2p_dominoes.net.errors import ConnectionClosed, HandshakeError, IdentityMismatch, NetError
from p2p_dominoes.net.framing import Data, SyncRequest
from p2p_dominoes.net.links import serve_link
from p2p_dominoes.net.lobby import CHANNEL_SESSION
from p2p_dominoes.net.peer_options import PeerOptions
from p2p_dominoes.net.strangers import StrangerTally
from p2p_dominoes.net.sync_limit import SyncGate, bounded_answer
from p2p_dominoes.net.table_run import Inbox
from p2p_dominoes.session import PublicIdentity, TableSession
from p2p_dominoes.session.come_back_relay import AskLimit

log = logging.getLogger("p2p_dominoes.net")


def seat_now(session: TableSession, peer: PublicIdentity) -> int | None:
    """The seat `peer`'s key holds now: the genesis's, or after a continuation (v4, §16) the
    new holder's; a key that lost its seat to a continuation holds none."""
    keys = session.transcript.keys
    return keys.index(peer) if peer in keys else None


def held_a_seat(session: TableSession, peer: PublicIdentity) -> bool:
    """Whether `peer` holds a seat now or held one before a continuation gave it away (v4):
    a former holder may connect to catch up, and so learn that the table went on."""
    return seat_now(session, peer) is not None or session.transcript.held_before(peer)


def seated_only(
    session_box: list[TableSession],
) -> Callable[[PublicIdentity], HandshakeRefusal | None]:
    """Once the genesis exists, refuse (at the handshake) every key that holds no seat and held
    none (a former holder may only catch up: `serve_former`): the table is full, and the code
    says so to a joiner (`playing`)."""

    def authorize(peer: PublicIdentity) -> HandshakeRefusal | None:
        if not session_box:
            return None  # the lobby: anyone may ask for a seat
        if held_a_seat(session_box[0], peer):
            return None
        return HandshakeRefusal(
            "not seated at this table (the table is full: its game has begun)", "playing"
        )

    return authorize


_NOT_SEATED: Final = StrangerTally(log, "refused: not seated at this table")
"""A resumed table's strangers: one line per source, a count after the first few."""


async def serve_seated(connection: Connection, session: TableSession, inbox: Inbox) -> None:
    """Carry a connection from another seat's holder now (the genesis's, or a continuation's);
    any other key is hung up on (and counted, not logged a line each: a flood of strangers must
    not flood the log)."""
    seat = seat_now(session, connection.peer)
    if seat is None and session.transcript.held_before(connection.peer):
        await serve_former(connection, session, inbox)
        return
    if seat is None or seat == session.seat:
        _NOT_SEATED.warn(connection.remote_address, connection.peer.fingerprint)
        await connection.aclose("not seated at this table")
        return
    connection.trust()
    await serve_link(inbox, seat, connection)


async def serve_former(
    connection: Connection, session: TableSession, inbox: Inbox | None = None
) -> None:
    """v4: a key whose seat a continuation gave to a new holder. Only its catch-up requests are
    answered (a few a second, bounded), so that a leaver who comes back (`resume`, or a frozen
    peer that wakes) reads the goodbye and the continuation; and its request to take the seat
    back (§16.1: well-formed ones only, a few at once and then one every two seconds, to
    `inbox`; the session checks its signature, or a seat that does not propose its return
    passes it on, `coming_back.pass_on`). Nothing else it sends is taken, and it is no link of
    the table's."""
    connection.trust()
    gate = SyncGate(time.monotonic())
    asks = AskLimit(time.monotonic())
    try:
        async for message in connection:
            if isinstance(message, Data) and message.payload[:1] == bytes([CHANNEL_COME_BACK]):
                if not asks.allow(time.monotonic()):
                    continue  # a flood: dropped before anything is checked
                ask = decode_ask(message.payload[1:])
                if ask is not None and inbox is not None:
                    with suppress(trio.WouldBlock, trio.BrokenResourceError):
                        inbox.send.send_nowait(ask)
                continue
            if not isinstance(message, SyncRequest):
                continue
            head = gate.ask(message.head, time.monotonic())
            if head is None:
                continue
            for data in bounded_answer(session.messages_after(head)):
                await connection.send(bytes([CHANNEL_SESSION]) + data)
            gate.answered()
    except (ConnectionClosed, NetError):
        return


async def host_link(
    options: PeerOptions,
    inbox: Inbox,
    host: Connection,
    address: tuple[str, int],
    key: PublicIdentity,
) -> None:
    """The lobby connection carries the game; when it drops, dial the host again."""
    await serve_link(inbox, 0, host)
    await trio.sleep(0.5)
    await dial_seat(options, inbox, 0, address, key)


SEAT_DIAL_FIRST_DELAY: Final = 1.0
SEAT_DIAL_MAX_DELAY: Final = 30.0
"""Backoff between dials to a seat: a failing address is dialed a handful of times a minute."""
STABLE_LINK: Final = 10.0
"""A link that lasted this long (seconds) starts the backoff over when it drops."""


async def dial_seat(
    options: PeerOptions,
    inbox: Inbox,
    seat: int,
    address: tuple[str, int],
    key: PublicIdentity,
) -> None:
    """Keep a connection to `seat` open for as long as the table lasts (cancelled when the match
    ends): dial, and dial again with backoff when it fails or drops (a peer that crashed comes
    back on the same port). Retries are decided by error type, never by a peer's words; a
    different key at the address (IdentityMismatch) is retried at the slowest pace and said once.
    """
    backoff = Backoff(first=SEAT_DIAL_FIRST_DELAY, cap=SEAT_DIAL_MAX_DELAY)
    where = f"{address[0]}:{address[1]}"
    said_mismatch = False
    while True:
        started = trio.current_time()
        try:
            async with connect([address[0]], address[1], options.identity, expect=key) as link:
                await serve_link(inbox, seat, link)
        except IdentityMismatch as exc:
            if not said_mismatch:
                options.say(
                    f"seat {seat + 1}: another key answers at {where} ({exc}); retrying slowly"
                )
                said_mismatch = True
            await trio.sleep(backoff.slowest())
            continue
        except (OSError, HandshakeError) as exc:  # unreachable, broken handshake, refused
            log.info("seat %d at %s: %s", seat, where, exc)
            await trio.sleep(backoff.next())
            continue
        if trio.current_time() - started >= STABLE_LINK:
            backoff.reset()
        await trio.sleep(backoff.next())
