"""The leaving messages of protocol version 4 (PROTOCOL.md §16): their codes, body schemas and
typed readings.

A `goodbye` says a seat is gone (it left, or it stalled past the limit and a remaining seat says
so); the hand in play becomes void. A `continue` from the lowest remaining seat proposes how the
match goes on: the seat list with the leaver's seat taken by a new key (`replaces` names the key
it takes over from), the carried scores and the next hand number. Every other seat, the new one
included, answers with a `continue_sign` naming the continuation's hash; when all are in, the
next hand starts with fresh keys. Every body starts with the void hand's number, so the hand
check of `validation` holds for them as for any hand message.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from p2p_dominoes.session.envelope import HASH_SIZE, MAX_SEATS, Envelope, MessageType
from p2p_dominoes.session.errors import InvalidMessage
from p2p_dominoes.session.genesis import MIN_SEATS, SEAT_SCHEMA
from p2p_dominoes.session.hand_messages import MAX_HANDS
from p2p_dominoes.session.identity import PUBLIC_KEY_SIZE, SIGNATURE_SIZE, Identity, PublicIdentity
from p2p_dominoes.session.schema import ArrayOf, Bin, Int, Nullable, Record, Text, Wire, record
from p2p_dominoes.words import phrase

LEFT: Final = "left"
"""A goodbye's reason: the seat itself said it is leaving (signed by that seat)."""
STALLED: Final = "stalled"
"""A goodbye's reason: the seat sent nothing past the stall limit (signed by a remaining seat)."""
REASONS: Final = (LEFT, STALLED)

SCORE_LIMIT: Final = 2**31 - 1
"""Carried scores on the wire are 32-bit signed: far beyond any target."""

_HAND: Final = ("hand", Int(1, MAX_HANDS))
_SEAT: Final = Int(0, MAX_SEATS - 1)

GOODBYE: Final = MessageType(30, "goodbye", record(_HAND, ("seat", _SEAT), ("reason", Text(16))))
"""v4: `seat` is gone from the table (`reason` "left": its own goodbye; "stalled": a remaining
seat's word, accepted only while the table waits for that seat)."""

CONTINUE_SEAT: Final = Record(
    (*SEAT_SCHEMA.fields[:2], ("replaces", Nullable(Bin(PUBLIC_KEY_SIZE)))),
)
"""A seat of the continuation: its name and key (as in the genesis) and `replaces`, the key this
seat's new holder takes over from (nil for a seat that keeps its player). No table nonce: the
table code was fixed by the genesis and stays."""

CONTINUE: Final = MessageType(
    31,
    "continue",
    record(
        _HAND,
        ("left", _SEAT),
        ("seats", ArrayOf(CONTINUE_SEAT, min_len=MIN_SEATS, max_len=MAX_SEATS)),
        ("scores", ArrayOf(Int(-SCORE_LIMIT, SCORE_LIMIT), min_len=MIN_SEATS, max_len=MAX_SEATS)),
        ("next_hand", Int(1, MAX_HANDS)),
    ),
)
"""v4: how the match goes on after a goodbye (sent by the lowest remaining seat)."""

CONTINUE_SIGN: Final = MessageType(
    32, "continue_sign", record(_HAND, ("continuation", Bin(HASH_SIZE)))
)
"""v4: a seat agrees to the continuation whose message hash it names."""

COME_BACK: Final = MessageType(
    33,
    "come_back",
    record(
        _HAND,
        ("seat", _SEAT),
        *SEAT_SCHEMA.fields[:2],
        ("asked", Bin(SIGNATURE_SIZE)),
    ),
)
"""v4 (§16.1): at the start of a hand, the lowest seat other than `seat` says that the player who
left `seat` asks it back under `name` with the fresh `key`; `asked` is that player's request,
signed by the key it held the seat with (`come_back_request`)."""

LEAVE_MESSAGES: Final[tuple[MessageType, ...]] = (GOODBYE, CONTINUE, CONTINUE_SIGN, COME_BACK)

COME_BACK_DOMAIN: Final = b"p2p-dominoes/v4/come-back\x00"
"""What a returner's request starts with, so that its signature means nothing else."""


def come_back_request(table_id: bytes, seat: int, name: str, key: PublicIdentity) -> bytes:
    """The bytes a returning player signs with its old seat key: this table, this seat, and the
    new key and name it asks the seat back under (no head or hand: it may be used at any hand
    start; the new key must be fresh, so it can be used once)."""
    return COME_BACK_DOMAIN + table_id + bytes((seat,)) + key.raw + name.encode("utf-8")


def ask_to_come_back(
    old: Identity, table_id: bytes, seat: int, name: str, key: PublicIdentity
) -> bytes:
    """The returner's request: `come_back_request` signed by the key it left the seat with."""
    return old.sign(come_back_request(table_id, seat, name, key))


@dataclass(frozen=True)
class ComeBack:
    """A come_back message, read: the hand set aside, the seat, who asks for it (a fresh key
    under a name) with the old key's signature, and the seat that proposes it."""

    hand: int
    seat: int
    name: str
    key: PublicIdentity
    asked: bytes
    by: int

    @classmethod
    def of(cls, envelope: Envelope) -> ComeBack:
        """Read a `come_back` envelope (its body is schema-checked)."""
        hand, seat, name, key, asked = envelope.body
        assert isinstance(hand, int) and isinstance(seat, int) and isinstance(name, str)
        assert isinstance(key, bytes) and isinstance(asked, bytes)
        return cls(hand, seat, name, PublicIdentity(key), asked, envelope.seat)


@dataclass(frozen=True)
class Goodbye:
    """A goodbye, read: the void hand, the seat that is gone and why, and who said so."""

    hand: int
    seat: int
    reason: str
    by: int

    @classmethod
    def of(cls, envelope: Envelope) -> Goodbye:
        """Read a `goodbye` envelope (its body is schema-checked); `bad-body` for a reason
        that is not one of `REASONS`."""
        hand, seat, reason = envelope.body
        assert isinstance(hand, int) and isinstance(seat, int) and isinstance(reason, str)
        if reason not in REASONS:
            raise InvalidMessage(
                "bad-body",
                phrase("session.why.goodbye_reason_not_one", reason=repr(reason), reasons=REASONS),
            )
        return cls(hand, seat, reason, envelope.seat)


@dataclass(frozen=True)
class NewSeat:
    """One seat of a continuation."""

    name: str
    key: PublicIdentity
    replaces: bytes | None
    """The raw key this seat's new holder takes over from (None: the seat keeps its player)."""


@dataclass(frozen=True)
class Continuation:
    """A continue message, read: every field typed (the schema refused a key that is not an
    Ed25519 point)."""

    hand: int
    left: int
    seats: tuple[NewSeat, ...]
    scores: tuple[int, ...]
    next_hand: int

    @classmethod
    def of(cls, envelope: Envelope) -> Continuation:
        """Read a `continue` envelope; InvalidMessage (`bad-body`) for a key that is not one."""
        hand, left, seats, scores, next_hand = envelope.body
        assert isinstance(hand, int) and isinstance(left, int) and isinstance(next_hand, int)
        assert isinstance(seats, tuple) and isinstance(scores, tuple)
        read = []
        for item in seats:
            assert isinstance(item, tuple)
            name, key, replaces = item
            assert isinstance(name, str) and isinstance(key, bytes)
            assert replaces is None or isinstance(replaces, bytes)
            read.append(NewSeat(name, PublicIdentity(key), replaces))
        return cls(
            hand, left, tuple(read), tuple(s for s in scores if isinstance(s, int)), next_hand
        )

    def to_body(self) -> tuple[Wire, ...]:
        """The wire body of this continuation."""
        seats = tuple((s.name, s.key.raw, s.replaces) for s in self.seats)
        return (self.hand, self.left, seats, self.scores, self.next_hand)

    @property
    def newcomer(self) -> NewSeat:
        """The seat whose key changes (the leaver's)."""
        return self.seats[self.left]
