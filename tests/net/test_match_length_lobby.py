"""The match length over the lobby: shown in `seats`, signed only in the genesis, and a joiner
signs no genesis whose length is not the one it was shown (real TCP, real handshake)."""

from __future__ import annotations

import msgpack  # type: ignore[import-untyped]
import pytest

from p2p_dominoes.engine import preset
from p2p_dominoes.net import PeerOptions
from p2p_dominoes.net.lobby import (
    CHANNEL_LOBBY,
    GenesisOffer,
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
    refusal = await join_a_false_host(
        joiner,
        host,
        lambda seats: Seats("t", rules, 2, seats, 2),
        lambda connection, join, host_seat: Genesis.new(
            rules.to_wire(),
            [host_seat, SeatInfo("joiner", connection.peer, join.commitment)],  # the joiner's own
            max_hands=5,  # not the 2 hands the lobby showed
        ),
    )
    assert refusal.failure is not None
    assert "the host's genesis plays 5 hands, not 2 hands as the lobby showed" in str(
        refusal.failure
    )
    assert any("Table 't' (draw, 2 hands): " in line for line in lines.lines), lines.lines
    assert refusal.after_genesis == []  # no genesis_sign for a match it did not agree to
