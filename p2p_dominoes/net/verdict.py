"""One verdict for a stalled table, in players' words, told to every peer that can be reached.

A peer that names a seat as stalling (the rules' stall timeout passed without the message it
waited for) signs a *stop notice* — the table, the transcript head it stopped at, the stalled
seat, the kind of message that seat had to send — and sends it to every seat before it stops
(PROTOCOL.md §15). A peer that receives a valid notice stops too, the stalled one included,
and every one of them shows the same sentence, built from the notice: who stalled and what it
had to do, never an internal message name ("it was Bob's turn to play", not ``play3``).

Here: the words and the notice itself (pure); the runtime's side is in `stopping.py`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import msgpack  # type: ignore[import-untyped]

from p2p_dominoes.session import Identity, PublicIdentity
from p2p_dominoes.session.envelope import HASH_SIZE, TABLE_ID_SIZE
from p2p_dominoes.session.transcript import Entry
from p2p_dominoes.words import line

CHANNEL_NOTICE: Final = 0x04
"""The channel byte of a stop notice (PROTOCOL.md §4: 0x01 session, 0x02 lobby, 0x03 presence)."""
NOTICE_DOMAIN: Final = b"p2p-dominoes/stop-notice/v1\x00"
"""Signed before the notice's fields, so its signature can never pass for an envelope's."""
MAX_TYPE_NAME: Final = 32
SIGNATURE_SIZE: Final = 64

_TASK_OF_TYPE: Final[dict[str, str]] = {
    "genesis_sign": "verdict.sign_start",
    "key_commit": "verdict.hand_keys",
    "key_reveal": "verdict.hand_keys",
    "shuffle": "verdict.shuffle",
    "deal": "verdict.deal",
    "lead_claim": "verdict.opener",
    "lead_claim3": "verdict.opener",
    "play": "verdict.turn",
    "play3": "verdict.turn",
    "draw": "verdict.turn",
    "pass": "verdict.turn",
    "skip": "verdict.turn",
    "draw_share": "verdict.draw_share",
    "hand_reveal": "verdict.show_tiles",
    "secret_reveal": "verdict.audit",
    "goodbye": "verdict.left",
    "continue": "verdict.go_on",
    "continue_sign": "verdict.go_on",
}
"""What each kind of message is, to a player (every type a seat can be waited for), as the
catalogue's key of its words (p2p_dominoes/words)."""


def task_words(type_name: str | None, name: str, lang: str = "en") -> str:
    """What seat `name` had to do, waited for as a `type_name` message, in players' words."""
    return line(_TASK_OF_TYPE.get(type_name or "", "verdict.next"), lang, name=name)


def verdict_line(name: str, type_name: str | None, lang: str = "en", lottery: bool = False) -> str:
    """The one sentence every peer shows when the table stopped because `name` stalled."""
    task = task_words(type_name, name, lang)
    key = "verdict.stopped_lottery" if lottery else "verdict.stopped"
    return line(key, lang, name=name, task=task)


class NoticeError(Exception):
    """A stop notice that is malformed, for another table, or not signed by its sender."""


@dataclass(frozen=True)
class StopNotice:
    """A seat's signed word that it stopped the table because `stalled` sent nothing."""

    table_id: bytes
    head: bytes
    """The transcript head the sender stopped at."""
    stalled: int
    expected: str
    """The type name of the message the stalled seat had to send (shown only as words)."""
    lottery: bool
    by: int
    """The seat that signed it."""
    signature: bytes = b""

    def _signed(self) -> bytes:
        fields = [self.table_id, self.head, self.stalled, self.expected, self.lottery, self.by]
        packed: bytes = msgpack.packb(fields, use_bin_type=True)
        return NOTICE_DOMAIN + packed

    def sign(self, identity: Identity) -> StopNotice:
        """This notice with `identity`'s signature (the sender's long-term key)."""
        return StopNotice(
            self.table_id,
            self.head,
            self.stalled,
            self.expected,
            self.lottery,
            self.by,
            identity.sign(self._signed()),
        )

    def verify(self, key: PublicIdentity) -> bool:
        return key.verify(self.signature, self._signed())

    def encode(self) -> bytes:
        """The notice as sent: the channel byte, then a msgpack array (PROTOCOL.md §15)."""
        body = [
            "stopped",
            self.table_id,
            self.head,
            self.stalled,
            self.expected,
            self.lottery,
            self.by,
            self.signature,
        ]
        packed: bytes = msgpack.packb(body, use_bin_type=True)
        return bytes([CHANNEL_NOTICE]) + packed

    def line(self, names: tuple[str, ...], lang: str = "en") -> str:
        """The verdict sentence (`names` already cleaned, by seat)."""
        return verdict_line(names[self.stalled], self.expected, lang, self.lottery)


def decode_notice(payload: bytes) -> StopNotice:
    """A stop notice from its payload (after the channel byte); NoticeError if malformed."""
    try:
        body = msgpack.unpackb(payload, raw=False, strict_map_key=True, max_bin_len=64)
    except Exception as exc:  # msgpack raises several types for garbage
        raise NoticeError(f"not a stop notice: {exc}") from None
    if not isinstance(body, list) or len(body) != 8 or body[0] != "stopped":
        raise NoticeError("not a stop notice")
    _, table_id, head, stalled, expected, lottery, by, signature = body
    ok = (
        isinstance(table_id, bytes)
        and len(table_id) == TABLE_ID_SIZE
        and isinstance(head, bytes)
        and len(head) == HASH_SIZE
        and type(stalled) is int
        and type(by) is int
        and isinstance(expected, str)
        and len(expected) <= MAX_TYPE_NAME
        and type(lottery) is bool
        and isinstance(signature, bytes)
        and len(signature) == SIGNATURE_SIZE
    )
    if not ok:
        raise NoticeError("a malformed stop notice")
    return StopNotice(table_id, head, stalled, expected, lottery, by, signature)


def checked_notice(
    payload: bytes, seat: int, table_id: bytes, keys: tuple[PublicIdentity, ...]
) -> StopNotice:
    """The notice `seat` sent us, checked: for our table, from that seat, naming a seat of it,
    signed by that seat's key. NoticeError otherwise (the notice is then ignored)."""
    notice = decode_notice(payload)
    if notice.table_id != table_id or notice.by != seat:
        raise NoticeError("a stop notice for another table or from another seat")
    if not (0 <= notice.stalled < len(keys)) or notice.stalled == notice.by:
        raise NoticeError("a stop notice naming no other seat of the table")
    if not notice.verify(keys[seat]):
        raise NoticeError("a stop notice with a bad signature")
    return notice


def agrees(
    notice: StopNotice,
    entries: Sequence[Entry],
    expected: tuple[int, object] | None,
) -> bool:
    """Whether a transcript (its entries, and whom it waits for) agrees with `notice`."""
    if entries[-1].hash == notice.head:
        return expected is not None and expected[0] == notice.stalled
    later = next((i for i, e in enumerate(entries) if e.envelope.head == notice.head), None)
    return later is not None and all(e.envelope.seat == notice.stalled for e in entries[later:])
