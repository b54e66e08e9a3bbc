"""v4 (§16): after a continuation the mesh lets the seat's new holder in and keeps its old
holder out, at the handshake (`seated_only`) and when the link is served (`seat_now`)."""

from __future__ import annotations

from p2p_dominoes.net.mesh import seat_now, seated_only
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
    authorize = seated_only([host])
    assert authorize(new) is None
    refusal = authorize(old)
    assert refusal is not None and refusal.code == "playing"
