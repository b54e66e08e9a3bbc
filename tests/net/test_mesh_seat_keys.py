"""v4 (§16): after a continuation the mesh serves the seat's new holder as the seat
(`seat_now`); its old holder gets past the handshake only to catch up (`held_a_seat`), and a
key that never held a seat is refused (`seated_only`)."""

from __future__ import annotations

from p2p_dominoes.net.mesh import held_a_seat, seat_now, seated_only
from p2p_dominoes.session import Identity
from tests.session.tables import in_hand_two, three_seats


def test_a_continued_seat_is_held_by_its_new_key_only() -> None:
    table, _ = three_seats()
    old = table.sessions[2].transcript.keys[2]
    table.run(until=in_hand_two)
    table.kill(2)
    table.run()
    host = table.sessions[0]
    new = host.transcript.keys[2]
    assert new != old
    assert seat_now(host, new) == 2
    assert seat_now(host, old) is None
    assert seat_now(host, host.transcript.keys[1]) == 1
    assert held_a_seat(host, old) and held_a_seat(host, new)
    authorize = seated_only([host])
    assert authorize(new) is None and authorize(old) is None
    refusal = authorize(Identity.generate().public)
    assert refusal is not None and refusal.code == "playing"
