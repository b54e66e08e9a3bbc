"""The joiner's side of the table code over real TCP: it commits in `join` and reveals nothing
for a genesis that does not carry that commitment.

A fake host (a real listener on 127.0.0.1, the real handshake) seats the joiner, then sends a
genesis in which the joiner's seat carries a commitment the host chose — what a man in the
middle would need to pick the joiner's nonce for it. The real `join_table` must leave with a
clear one-line reason and never send its `genesis_sign` (which would reveal its nonce).
"""

from __future__ import annotations

import trio

from p2p_dominoes.engine import preset
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
from p2p_dominoes.net.runtime import PeerFailure, PeerOptions, lobby_message
from p2p_dominoes.net.tables import Target, join_table
from p2p_dominoes.session import (
    COMMITMENT_SIZE,
    Genesis,
    Identity,
    SeatInfo,
    new_table_nonce,
    seat_commitment,
)
from tests.net.joiner_ui import LinesUI, peer_failure


async def test_a_joiner_refuses_a_genesis_that_swaps_its_commitment() -> None:
    host = Identity.generate()
    joiner = PeerOptions(
        "joiner", Identity.generate(), LinesUI(), interface="127.0.0.1", port=0, mdns=False
    )
    rules = preset("draw")
    received: list[Join] = []
    after_genesis: list[bytes] = []
    listener = await open_listener(interface="127.0.0.1", port=0)

    async def fake_host(connection: Connection) -> None:
        join = lobby_message(await connection.receive())
        assert isinstance(join, Join)
        received.append(join)
        chosen = seat_commitment(connection.peer, new_table_nonce())  # not the joiner's
        host_nonce = new_table_nonce()
        seats = (
            SeatAddress("host", host.public, "127.0.0.1", listener.port),
            SeatAddress("joiner", connection.peer, "127.0.0.1", join.listen_port),
        )
        await connection.send(encode_lobby(Seats("t", rules, 2, seats)))
        genesis = Genesis.new(
            rules.to_wire(),
            [
                SeatInfo("host", host.public, seat_commitment(host.public, host_nonce)),
                SeatInfo("joiner", connection.peer, chosen),
            ],
        )
        offer = GenesisOffer(genesis.sign(host, 0).encode())
        await connection.send(encode_lobby(offer))
        try:
            while True:
                message = await connection.receive()
                if isinstance(message, Data) and message.payload[:1] == bytes([CHANNEL_SESSION]):
                    after_genesis.append(message.payload)
        except ConnectionClosed:
            pass

    failure: PeerFailure | None = None
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            await nursery.start(listener.serve, host, fake_host)
            try:
                await join_table(joiner, Target(("127.0.0.1",), listener.port, host.public))
            except BaseException as exc:  # the PeerFailure may come inside a group
                failure = peer_failure(exc)
                if failure is None:
                    raise
            await trio.sleep(0.5)  # anything the joiner sent after the genesis has arrived
            nursery.cancel_scope.cancel()
    assert failure is not None
    assert "does not carry the commitment" in str(failure)
    assert len(received) == 1 and len(received[0].commitment) == COMMITMENT_SIZE
    assert after_genesis == []  # no genesis_sign: the joiner's nonce stayed secret
