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

CHANNEL_NOTICE: Final = 0x04
"""The channel byte of a stop notice (PROTOCOL.md §4: 0x01 session, 0x02 lobby, 0x03 presence)."""
NOTICE_DOMAIN: Final = b"p2p-dominoes/stop-notice/v1\x00"
"""Signed before the notice's fields, so its signature can never pass for an envelope's."""
MAX_TYPE_NAME: Final = 32
SIGNATURE_SIZE: Final = 64

_TASK_OF_TYPE: Final[dict[str, str]] = {
    "genesis_sign": "sign_start",
    "key_commit": "hand_keys",
    "key_reveal": "hand_keys",
    "shuffle": "shuffle",
    "deal": "deal",
    "lead_claim": "opener",
    "lead_claim3": "opener",
    "play": "turn",
    "play3": "turn",
    "draw": "turn",
    "pass": "turn",
    "skip": "turn",
    "draw_share": "draw_share",
    "hand_reveal": "show_tiles",
    "secret_reveal": "audit",
}
"""What each kind of message is, to a player (every type a seat can be waited for)."""

_WORDS: Final[dict[str, tuple[str, str]]] = {
    "sign_start": (
        "{name} had to sign the table's start",
        "{name} должен(на) был(а) подписать начало стола",
    ),
    "hand_keys": (
        "{name} had to send their part of the hand's keys",
        "{name} должен(на) был(а) прислать свою часть ключей раздачи",
    ),
    "shuffle": ("{name} had to shuffle the tiles", "{name} должен(на) был(а) перемешать кости"),
    "deal": ("{name} had to deal the tiles", "{name} должен(на) был(а) раздать кости"),
    "opener": (
        "{name} had to say whether they hold the opening tile",
        "{name} должен(на) был(а) сказать, есть ли у него кость первого хода",
    ),
    "turn": ("it was {name}'s turn to play", "был ход игрока {name}"),
    "draw_share": (
        "{name} had to send their share of a drawn tile",
        "{name} должен(на) был(а) прислать свою долю вытянутой кости",
    ),
    "show_tiles": (
        "{name} had to show their tiles at the end of the hand",
        "{name} должен(на) был(а) показать свои кости в конце раздачи",
    ),
    "audit": (
        "{name} had to reveal the hand's secrets for the audit",
        "{name} должен(на) был(а) раскрыть секреты раздачи для проверки",
    ),
    "next": (
        "{name} had to send the table's next message",
        "{name} должен(на) был(а) прислать следующее сообщение стола",
    ),
    "stopped": (
        "The table stopped: {name} is not responding — {task}.",
        "Стол остановлен: {name} не отвечает — {task}.",
    ),
    "stopped_lottery": (
        "The table stopped: {name} stalled the opener lottery — {task}.",
        "Стол остановлен: {name} сорвал(а) жеребьёвку первого хода — {task}.",
    ),
}


def _said(key: str, lang: str, **values: object) -> str:
    english, russian = _WORDS[key]
    return (russian if lang == "ru" else english).format(**values)


def task_words(type_name: str | None, name: str, lang: str = "en") -> str:
    """What seat `name` had to do, waited for as a `type_name` message, in players' words."""
    return _said(_TASK_OF_TYPE.get(type_name or "", "next"), lang, name=name)


def verdict_line(name: str, type_name: str | None, lang: str = "en", lottery: bool = False) -> str:
    """The one sentence every peer shows when the table stopped because `name` stalled."""
    task = task_words(type_name, name, lang)
    return _said("stopped_lottery" if lottery else "stopped", lang, name=name, task=task)


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
