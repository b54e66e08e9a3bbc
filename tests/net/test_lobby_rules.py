"""The table's full rules over the lobby: carried in `seats`, validated on arrival, shown to the
joiner before it sits down, and a joiner signs no genesis whose rules differ from the ones it
was shown (real TCP, real handshake)."""

from __future__ import annotations

import dataclasses

import msgpack  # type: ignore[import-untyped]
import pytest

from p2p_dominoes.engine import Rules, preset
from p2p_dominoes.net import PeerOptions, advertised_rules, rules_lines
from p2p_dominoes.net.lobby import (
    LobbyError,
    SeatAddress,
    Seats,
    decode_lobby,
    encode_lobby,
)
from p2p_dominoes.session import Genesis, Identity, SeatInfo
from tests.net.false_host import join_a_false_host
from tests.net.joiner_ui import LinesUI

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
    signed = dataclasses.replace(CUSTOM, draw_limit=2)  # not the limit the lobby showed
    refusal = await join_a_false_host(
        joiner,
        host,
        lambda seats: Seats("t", CUSTOM, 2, seats),
        lambda connection, join, host_seat: Genesis.new(
            signed.to_wire(),
            [host_seat, SeatInfo("joiner", connection.peer, join.commitment)],
        ),
    )
    assert refusal.failure is not None
    assert "the host's genesis changes the rules it showed (draw_limit)" in str(refusal.failure)
    assert any(ln.startswith("Table 't' (kitchen): 2 of 2") for ln in lines.lines), lines.lines
    assert ["  " + line for line in KITCHEN_EN] == [ln for ln in lines.lines if ln[:2] == "  "]
    assert refusal.after_genesis == []  # no genesis_sign for rules it did not agree to
