"""Byte encodings shared by hashes and messages: fixed-width integers, length framing, a reader."""

from __future__ import annotations

from p2p_dominoes.mental.errors import EncodingError
from p2p_dominoes.mental.group import POINT_SIZE, SCALAR_SIZE, Point, Scalar
from p2p_dominoes.words import phrase


def u8(value: int) -> bytes:
    """One unsigned byte."""
    return value.to_bytes(1, "big")


def u16(value: int) -> bytes:
    """Two bytes, big-endian."""
    return value.to_bytes(2, "big")


def u32(value: int) -> bytes:
    """Four bytes, big-endian."""
    return value.to_bytes(4, "big")


def u64(value: int) -> bytes:
    """Eight bytes, big-endian."""
    return value.to_bytes(8, "big")


def frame(data: bytes) -> bytes:
    """`u32(len(data)) ‖ data`: the length prefix that makes concatenations unambiguous."""
    return len(data).to_bytes(4, "big") + data


class Reader:
    """Consumes a message's bytes front to back; any shortfall or leftover is an EncodingError."""

    __slots__ = ("_data", "_offset")

    def __init__(self, data: bytes) -> None:
        if not isinstance(data, bytes):
            raise EncodingError(phrase("mental.why.message_must_bytes"))
        self._data = data
        self._offset = 0

    def take(self, size: int) -> bytes:
        """The next `size` bytes."""
        end = self._offset + size
        if end > len(self._data):
            raise EncodingError(phrase("mental.why.message_truncated_byte", count=len(self._data)))
        chunk = self._data[self._offset : end]
        self._offset = end
        return chunk

    def u8(self) -> int:
        """The next byte as an integer."""
        return self.take(1)[0]

    def point(self) -> Point:
        """The next 32 bytes as a validated point."""
        return Point(self.take(POINT_SIZE))

    def points(self, count: int) -> tuple[Point, ...]:
        """The next `count` validated points."""
        return tuple(Point(self.take(POINT_SIZE)) for _ in range(count))

    def scalar(self) -> Scalar:
        """The next 32 bytes as a canonical scalar."""
        return Scalar.from_bytes(self.take(SCALAR_SIZE))

    def scalars(self, count: int) -> tuple[Scalar, ...]:
        """The next `count` canonical scalars."""
        return tuple(Scalar.from_bytes(self.take(SCALAR_SIZE)) for _ in range(count))

    def finish(self) -> None:
        """Insist that every byte was consumed."""
        if self._offset != len(self._data):
            raise EncodingError(
                phrase("mental.why.trailing_bytes", count=len(self._data) - self._offset)
            )
