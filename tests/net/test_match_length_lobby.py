"""The match length over the lobby: shown in `seats`, signed only in the genesis, and a joiner
signs no genesis whose length is not the one it was shown (real TCP, real handshake)."""

from __future__ import annotations

import msgpack  # type: ignore[import-untyped]
import pytest
import trio

from p2p_dominoes.engine import preset
from p2p_dominoes.net.connection import Connection
from p2p_dominoes.net.errors import ConnectionClosed
from p2p_dominoes.net.framing import Data
from p2p_dominoes.net.listener import open_listener
from p2p_dominoes.net.lobby import (
    CHANNEL_LOBBY,
    CHANNEL_SESSION,
    GenesisOffer,
    Join,
    LobbyError,
    SeatAddress,
    Seats,
    decode_lobby,
    encode_lobby,
)
from p2p_dominoes.net.runtime import PeerFailure, PeerOptions, lobby_message
from p2p_dominoes.net.tables import Target, join_table
from p2p_dominoes.session import Genesis, Identity, SeatInfo, new_table_nonce, seat_commitment
from tests.net.joiner_ui import LinesUI, peer_failure

KEY = Identity.generate().public


@pytest.mark.parametrize("hands", [None, 1, 2, 10_000])
def test_seats_carry_the_match_length_and_the_genesis_offer_only_the_envelope(
    hands: int | None,
) -> None:
    seats = Seats(
        "Kitchen", preset("draw"), 2, (SeatAddress("Ann", KEY, "127.0.0.1", 47800),), hands
    )
    payload = encode_lobby(seats)
    assert payload[0] == CHANNEL_LOBBY and decode_lobby(payload[1:]) == seats
    offer = GenesisOffer(b"\x01\x02")
    assert decode_lobby(encode_lobby(offer)[1:]) == offer


@pytest.mark.parametrize("hands", [0, -1, 10_001, True, "2"])
def test_a_bad_match_length_in_seats_is_malformed(hands: object) -> None:
    rules = [list(pair) for pair in preset("draw").to_wire()]
    raw = ["seats", "Kitchen", rules, 2, [["Ann", KEY.raw, "127.0.0.1", 47800]], hands]
    with pytest.raises(LobbyError):
        decode_lobby(msgpack.packb(raw, use_bin_type=True))
    old = ["genesis", b"\x01", 2]  # the match length no longer travels unsigned
    with pytest.raises(LobbyError):
        decode_lobby(msgpack.packb(old, use_bin_type=True))


async def test_a_joiner_signs_no_genesis_with_another_match_length_than_it_was_shown() -> None:
    host = Identity.generate()
    lines = LinesUI()
    joiner = PeerOptions(
        "joiner", Identity.generate(), lines, interface="127.0.0.1", port=0, mdns=False
    )
    rules = preset("draw")
    after_genesis: list[bytes] = []
    listener = await open_listener(interface="127.0.0.1", port=0)

    async def fake_host(connection: Connection) -> None:
        join = lobby_message(await connection.receive())
        assert isinstance(join, Join)
        host_nonce = new_table_nonce()
        seats = (
            SeatAddress("host", host.public, "127.0.0.1", listener.port),
            SeatAddress("joiner", connection.peer, "127.0.0.1", join.listen_port),
        )
        await connection.send(encode_lobby(Seats("t", rules, 2, seats, 2)))
        genesis = Genesis.new(
            rules.to_wire(),
            [
                SeatInfo("host", host.public, seat_commitment(host.public, host_nonce)),
                SeatInfo("joiner", connection.peer, join.commitment),  # the joiner's own
            ],
            max_hands=5,  # not the 2 hands the lobby showed
        )
        await connection.send(encode_lobby(GenesisOffer(genesis.sign(host, 0).encode())))
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
    assert "the host's genesis plays 5 hands, not 2 hands as the lobby showed" in str(failure)
    assert any("Table 't' (draw, 2 hands): " in line for line in lines.lines), lines.lines
    assert after_genesis == []  # no genesis_sign for a match it did not agree to
