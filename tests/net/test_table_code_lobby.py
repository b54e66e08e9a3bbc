"""The joiner's side of the table code over real TCP: it commits in `join` and reveals nothing
for a genesis that does not carry that commitment.

A fake host (a real listener on 127.0.0.1, the real handshake) seats the joiner, then sends a
genesis in which the joiner's seat carries a commitment the host chose — what a man in the
middle would need to pick the joiner's nonce for it. The real `join_table` must leave with a
clear one-line reason and never send its `genesis_sign` (which would reveal its nonce).
"""

from __future__ import annotations

from p2p_dominoes.engine import preset
from p2p_dominoes.net import PeerOptions
from p2p_dominoes.net.lobby import (
    Seats,
)
from p2p_dominoes.session import (
    COMMITMENT_SIZE,
    Genesis,
    Identity,
    SeatInfo,
    new_table_nonce,
    seat_commitment,
)
from tests.net.false_host import join_a_false_host
from tests.net.joiner_ui import LinesUI


async def test_a_joiner_refuses_a_genesis_that_swaps_its_commitment() -> None:
    host = Identity.generate()
    joiner = PeerOptions(
        "joiner", Identity.generate(), LinesUI(), interface="127.0.0.1", port=0, mdns=False
    )
    rules = preset("draw")
    refusal = await join_a_false_host(
        joiner,
        host,
        lambda seats: Seats("t", rules, 2, seats),
        lambda connection, join, host_seat: Genesis.new(
            rules.to_wire(),
            [
                host_seat,
                SeatInfo(  # not the joiner's commitment
                    "joiner", connection.peer, seat_commitment(connection.peer, new_table_nonce())
                ),
            ],
        ),
    )
    assert refusal.failure is not None
    assert "does not carry the commitment" in str(refusal.failure)
    assert len(refusal.joins) == 1 and len(refusal.joins[0].commitment) == COMMITMENT_SIZE
    assert refusal.after_genesis == []  # no genesis_sign: the joiner's nonce stayed secret
