"""The record layer (`net/record_layer.py`): each frame is sealed under the next counter value,
so a frame out of order or a second time fails authentication."""

from __future__ import annotations

import pytest

from p2p_dominoes.net import FrameError
from p2p_dominoes.net.handshake import derive_keys
from p2p_dominoes.net.record_layer import Cipher


def test_record_layer_rejects_reordering_and_replay() -> None:
    k1, _ = derive_keys(b"\x01" * 32, b"\x02" * 32)
    sender, receiver = Cipher(k1), Cipher(k1)
    first, second = sender.seal(b"a")[4:], sender.seal(b"b")[4:]
    with pytest.raises(FrameError):
        receiver.open(second)
    receiver2 = Cipher(k1)
    assert receiver2.open(first) == b"a"
    with pytest.raises(FrameError):
        receiver2.open(first)
