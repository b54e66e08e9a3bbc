"""v4 (§16): the handover a proposer gives the bot that takes a seat reads back as written, and
anything else on that line is refused with a reason (the bot then exits 2, one line)."""

from __future__ import annotations

import msgpack  # type: ignore[import-untyped]
import pytest

from p2p_dominoes.net.handover import Handover


def test_a_handover_reads_back_as_written() -> None:
    handover = Handover(2, (b"genesis", b"m1"), ((0, "127.0.0.1", 4000), (1, "::1", 4001)))
    line = handover.encode()
    assert line.endswith(b"\n") and b"\n" not in line[:-1]
    assert Handover.decode(line.decode()) == handover


@pytest.mark.parametrize(
    "body",
    [
        "not hex",
        msgpack.packb([2, [], []]).hex(),  # no genesis
        msgpack.packb([2, [b"g"], [[0, "h"]]]).hex(),  # an address without its port
        msgpack.packb(["2", [b"g"], []]).hex(),  # a seat that is no number
        msgpack.packb({"seat": 2}).hex(),
    ],
)
def test_anything_else_is_refused(body: str) -> None:
    with pytest.raises(ValueError):
        Handover.decode(body)
