"""v4 (PROTOCOL.md §16): what the peer that proposes a continuation hands the bot it starts
for the gone seat, on the bot's standard input after its identity key: the seat, the
transcript so far (genesis first) and where the other seats listen (`take_seat.py`)."""

from __future__ import annotations

from dataclasses import dataclass

import msgpack  # type: ignore[import-untyped]

from p2p_dominoes.words import phrase


@dataclass(frozen=True)
class Handover:
    """What the new holder of a seat needs to sit down: the seat, the transcript so far, and
    each other seat's address (seat, host, port)."""

    seat: int
    messages: tuple[bytes, ...]
    peers: tuple[tuple[int, str, int], ...]

    def encode(self) -> bytes:
        """One line of hex (the child reads it after its identity line)."""
        body = [self.seat, list(self.messages), [list(p) for p in self.peers]]
        data: bytes = msgpack.packb(body, use_bin_type=True)
        return data.hex().encode() + b"\n"

    @classmethod
    def decode(cls, line: str) -> Handover:
        """The handover in `line`, or ValueError saying what is wrong with it."""
        try:
            body = msgpack.unpackb(bytes.fromhex(line.strip()), raw=False)
        except (ValueError, msgpack.ExtraData, msgpack.FormatError, msgpack.StackError) as exc:
            raise ValueError(phrase("net.why.handover_unreadable", error=exc)) from None
        if not (isinstance(body, list) and len(body) == 3):
            raise ValueError(phrase("net.why.handover_not"))
        seat, messages, peers = body
        if type(seat) is not int or not isinstance(messages, list) or not isinstance(peers, list):
            raise ValueError(phrase("net.why.handover_not"))
        if not messages or not all(isinstance(m, bytes) for m in messages):
            raise ValueError(phrase("net.why.handover_no_genesis"))
        addresses: list[tuple[int, str, int]] = []
        for peer in peers:
            if not (isinstance(peer, list) and len(peer) == 3):
                raise ValueError(phrase("net.why.handover_address"))
            number, host, port = peer
            if type(number) is not int or not isinstance(host, str) or type(port) is not int:
                raise ValueError(phrase("net.why.handover_address"))
            addresses.append((number, host, port))
        return cls(seat, tuple(messages), tuple(addresses))
