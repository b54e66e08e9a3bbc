"""Shared plumbing of the protocol messages: type tags and turning decode failures into blame."""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import TypeVar

from p2p_dominoes.mental.encoding import Reader
from p2p_dominoes.mental.errors import EncodingError, InvalidMessageError, message_of
from p2p_dominoes.words import phrase

T = TypeVar("T")


class MessageTag(enum.IntEnum):
    """First byte of every mental-poker message."""

    KEY_COMMIT = 0x01
    KEY_REVEAL = 0x02
    SHUFFLE = 0x03
    SHARE = 0x04
    TILE_REVEAL = 0x05
    SECRET_REVEAL = 0x06


def decode(
    data: bytes,
    sender: int,
    tag: MessageTag,
    step: str,
    parse: Callable[[Reader], T],
) -> T:
    """Parse a whole message from `sender`: tag, seat (must equal `sender`), body, no trailer.

    Any malformation becomes InvalidMessageError blaming `sender` at `step`.
    """
    try:
        reader = Reader(data)
        if reader.u8() != tag:
            raise EncodingError(phrase("mental.why.not_message", tag=tag.name))
        seat = reader.u8()
        if seat != sender:
            raise EncodingError(
                phrase("mental.why.message_claims_seat_but_was", seat=seat + 1, sender=sender + 1)
            )
        message = parse(reader)
        reader.finish()
    except EncodingError as exc:
        raise InvalidMessageError(
            sender, step, phrase("mental.why.malformed_message", reason=message_of(exc))
        ) from None
    return message
