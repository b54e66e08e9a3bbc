"""The table's full rules over the lobby: carried in `seats`, validated on arrival, shown to the
joiner before it sits down, and a joiner signs no genesis whose rules differ from the ones it
was shown (real TCP, real handshake)."""

from __future__ import annotations

import dataclasses

import msgpack  # type: ignore[import-untyped]
import pytest
import trio

from p2p_dominoes.engine import Rules, preset
from p2p_dominoes.net.connection import Connection
from p2p_dominoes.net.errors import ConnectionClosed
from p2p_dominoes.net.framing import Data
from p2p_dominoes.net.listener import open_listener
from p2p_dominoes.net.lobby import (
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
from p2p_dominoes.net.tables import Target, advertised_rules, join_table, rules_lines
from p2p_dominoes.session import Genesis, Identity, SeatInfo, new_table_nonce, seat_commitment
from tests.net.joiner_ui import LinesUI, peer_failure

KEY = Identity.generate().public
SEAT = (SeatAddress("Ann", KEY, "127.0.0.1", 47800),)
CUSTOM = Rules.from_dict({"base": "house", "name": "kitchen", "draw_limit": 3, "rounding": 5})
KITCHEN_EN = [
    "Rules 'kitchen', based on: Dominoes (the default game):",
    "When you cannot play: up to 3 tiles, then pass",
    "Rounding: to 5",
]


def test_seats_carry_every_switch_of_a_custom_rule_set() -> None:
    seats = Seats("Kitchen", CUSTOM, 2, SEAT)
    decoded = decode_lobby(encode_lobby(seats)[1:])
    assert decoded == seats
    assert isinstance(decoded, Seats) and decoded.rules.draw_limit == 3


def test_seats_whose_rules_cannot_be_played_are_malformed() -> None:
    wire = [list(pair) for pair in preset("draw").to_wire()]
    wire[1] = ["hand_sizes", [[2, 15], [3, 7], [4, 6]]]  # 30 tiles for two players
    raw = ["seats", "Kitchen", wire, 2, [["Ann", KEY.raw, "127.0.0.1", 47800]], None]
    with pytest.raises(LobbyError, match="the table's rules cannot be played"):
        decode_lobby(msgpack.packb(raw, use_bin_type=True))
    raw[2] = "draw"  # the first version's preset name is no longer enough
    with pytest.raises(LobbyError):
        decode_lobby(msgpack.packb(raw, use_bin_type=True))


def test_the_joiner_reads_the_preset_a_table_starts_from_and_every_switch_it_changes() -> None:
    assert rules_lines(preset("house")) == ["Rules: Dominoes (the default game), unchanged"]
    assert rules_lines(CUSTOM) == KITCHEN_EN
    assert rules_lines(CUSTOM, "ru")[0] == "Правила «kitchen», на основе: Домино (по умолчанию):"


def test_mdns_names_a_preset_or_says_custom() -> None:
    assert advertised_rules(preset("block")) == "block"
    assert advertised_rules(dataclasses.replace(preset("block"), stall_timeout_s=9)) == "block"
    assert advertised_rules(CUSTOM) == "custom"


async def test_a_joiner_signs_no_genesis_with_other_rules_than_it_was_shown() -> None:
    host = Identity.generate()
    lines = LinesUI()
    joiner = PeerOptions(
        "joiner", Identity.generate(), lines, interface="127.0.0.1", port=0, mdns=False
    )
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
        await connection.send(encode_lobby(Seats("t", CUSTOM, 2, seats)))
        signed = dataclasses.replace(CUSTOM, draw_limit=2)  # not the limit the lobby showed
        genesis = Genesis.new(
            signed.to_wire(),
            [
                SeatInfo("host", host.public, seat_commitment(host.public, host_nonce)),
                SeatInfo("joiner", connection.peer, join.commitment),
            ],
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
    assert "the host's genesis changes the rules it showed (draw_limit)" in str(failure)
    assert any(ln.startswith("Table 't' (kitchen): 2 of 2") for ln in lines.lines), lines.lines
    assert ["  " + line for line in KITCHEN_EN] == [ln for ln in lines.lines if ln[:2] == "  "]
    assert after_genesis == []  # no genesis_sign for rules it did not agree to
