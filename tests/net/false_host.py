"""A host that shows a joiner one table in the lobby and offers it the genesis of another (real
TCP, real handshake): the joiner must refuse it and send nothing after it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import trio

from p2p_dominoes.net import PeerFailure, PeerOptions, Target, join_table, lobby_message
from p2p_dominoes.net.connection import Connection
from p2p_dominoes.net.errors import ConnectionClosed
from p2p_dominoes.net.framing import Data
from p2p_dominoes.net.listener import open_listener
from p2p_dominoes.net.lobby import (
    CHANNEL_SESSION,
    GenesisOffer,
    Join,
    SeatAddress,
    Seats,
    encode_lobby,
)
from p2p_dominoes.session import Genesis, Identity, SeatInfo, new_table_nonce, seat_commitment
from tests.net.joiner_ui import peer_failure

Shown = Callable[[tuple[SeatAddress, ...]], Seats]
"""The lobby's seat list the host shows, given the host's and the joiner's seat addresses."""
Offered = Callable[[Connection, Join, SeatInfo], Genesis]
"""The genesis the host offers, given the joiner's connection and join and the host's seat."""


@dataclass
class Refusal:
    """How the joiner ended: its failure, the joins it sent, and what it sent after the genesis."""

    failure: PeerFailure | None = None
    joins: list[Join] = field(default_factory=list)
    after_genesis: list[bytes] = field(default_factory=list)


async def join_a_false_host(
    joiner: PeerOptions, host: Identity, shown: Shown, offered: Offered
) -> Refusal:
    """Let `joiner` join a host that shows `shown` and offers `offered`; how it ended."""
    out = Refusal()
    listener = await open_listener(interface="127.0.0.1", port=0)

    async def fake_host(connection: Connection) -> None:
        join = lobby_message(await connection.receive())
        assert isinstance(join, Join)
        out.joins.append(join)
        seats = (
            SeatAddress("host", host.public, "127.0.0.1", listener.port),
            SeatAddress("joiner", connection.peer, "127.0.0.1", join.listen_port),
        )
        await connection.send(encode_lobby(shown(seats)))
        host_seat = SeatInfo("host", host.public, seat_commitment(host.public, new_table_nonce()))
        genesis = offered(connection, join, host_seat)
        await connection.send(encode_lobby(GenesisOffer(genesis.sign(host, 0).encode())))
        try:
            while True:
                message = await connection.receive()
                if isinstance(message, Data) and message.payload[:1] == bytes([CHANNEL_SESSION]):
                    out.after_genesis.append(message.payload)
        except ConnectionClosed:
            pass

    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            await nursery.start(listener.serve, host, fake_host)
            try:
                await join_table(joiner, Target(("127.0.0.1",), listener.port, host.public))
            except BaseException as exc:  # the PeerFailure may come inside a group
                out.failure = peer_failure(exc)
                if out.failure is None:
                    raise
            await trio.sleep(0.5)  # anything the joiner sent after the genesis has arrived
            nursery.cancel_scope.cancel()
    return out
