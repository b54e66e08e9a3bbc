"""Table genesis: who sits where with which key, under which rules; and each seat's signature.

The genesis message (type 1) is the first entry of every transcript; each seat in it carries the
commitment to its secret table nonce (`table_code`), and it fixes how long the match lasts (a
number of hands, or nil for a whole match), so an offline record knows when it ended. Then
every seat, in seat order, sends one ``genesis_sign`` (type 2) whose body is the genesis
message hash and the nonce that opens its commitment; the table is set up once all have signed,
and nothing else may come before that. Every seat's nonce then gives the table code the players
compare aloud.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from p2p_dominoes.session.envelope import (
    HASH_SIZE,
    MAX_SEATS,
    PROTOCOL_VERSION,
    SUPPORTED_VERSIONS,
    TABLE_ID_SIZE,
    Envelope,
    MessageType,
    genesis_head,
)
from p2p_dominoes.session.errors import InvalidMessage
from p2p_dominoes.session.hand_messages import MAX_HANDS
from p2p_dominoes.session.identity import (
    PUBLIC_KEY_SIZE,
    Identity,
    InvalidIdentity,
    PublicIdentity,
)
from p2p_dominoes.session.schema import (
    ArrayOf,
    Bin,
    Checked,
    Int,
    Nullable,
    Opaque,
    Text,
    Wire,
    record,
)
from p2p_dominoes.session.table_code import (
    COMMITMENT_SIZE,
    TABLE_NONCE_SIZE,
)
from p2p_dominoes.words import phrase

MIN_SEATS: Final = 2
MAX_NAME_BYTES: Final = 64
RULES_MAX_DEPTH: Final = 8


def _is_public_key(value: Wire) -> bool:
    try:
        PublicIdentity(value)  # type: ignore[arg-type]
    except InvalidIdentity:
        return False
    return True


_NAME: Final = Text(MAX_NAME_BYTES)
_RULES: Final = Opaque(RULES_MAX_DEPTH)
_MAX_HANDS: Final = Nullable(Int(1, MAX_HANDS))
SEAT_SCHEMA: Final = record(
    ("name", _NAME),
    ("key", Checked(Bin(PUBLIC_KEY_SIZE), _is_public_key, "Ed25519 public key")),
    ("commitment", Bin(COMMITMENT_SIZE)),
)

GENESIS: Final = MessageType(
    1,
    "genesis",
    record(
        ("protocol_version", Int(0, 2**32 - 1)),
        ("table_id", Bin(TABLE_ID_SIZE)),
        ("rules", _RULES),
        ("seats", ArrayOf(SEAT_SCHEMA, min_len=MIN_SEATS, max_len=MAX_SEATS)),
        ("max_hands", _MAX_HANDS),
    ),
)
GENESIS_SIGN: Final = MessageType(
    2,
    "genesis_sign",
    record(("genesis_hash", Bin(HASH_SIZE)), ("nonce", Bin(TABLE_NONCE_SIZE))),
)


@dataclass(frozen=True)
class SeatInfo:
    """One seat: the player's display name, long-term public key and table-nonce commitment."""

    name: str
    key: PublicIdentity
    commitment: bytes
    """``seat_commitment(key, nonce)`` for the nonce this seat reveals in its genesis_sign."""

    def __post_init__(self) -> None:
        _NAME.check(self.name, "seat.name")
        if not isinstance(self.key, PublicIdentity):
            raise TypeError("SeatInfo.key must be a PublicIdentity")
        if type(self.commitment) is not bytes or len(self.commitment) != COMMITMENT_SIZE:
            raise InvalidMessage(
                "bad-genesis",
                phrase("session.why.seat_commitment_bytes", commitment_size=COMMITMENT_SIZE),
            )


@dataclass(frozen=True)
class Genesis:
    """The table's founding facts. Seats are in clockwise order; seat numbers are indices."""

    table_id: bytes
    rules: Wire
    seats: tuple[SeatInfo, ...]
    protocol_version: int = PROTOCOL_VERSION
    max_hands: int | None = None
    """The match ends after this many hands (or earlier, when a seat reaches the target);
    None plays the whole match to the rules' target."""

    def __post_init__(self) -> None:
        bad = "bad-genesis"
        if type(self.table_id) is not bytes or len(self.table_id) != TABLE_ID_SIZE:
            raise InvalidMessage(
                bad, phrase("session.why.table_id_must_bytes", table_id_size=TABLE_ID_SIZE)
            )
        if type(self.protocol_version) is not int or (
            self.protocol_version not in SUPPORTED_VERSIONS
        ):
            raise InvalidMessage(
                "unsupported-version",
                phrase(
                    "session.why.genesis_version_not_supported",
                    protocol_version=self.protocol_version,
                ),
            )
        object.__setattr__(self, "rules", _RULES.check(self.rules, "genesis.rules"))
        hands = self.max_hands
        if hands is not None and (type(hands) is not int or not 1 <= hands <= MAX_HANDS):
            raise InvalidMessage(
                bad, phrase("session.why.max_hands_nil_or_number", max_hands=MAX_HANDS)
            )
        seats = tuple(self.seats)
        if not MIN_SEATS <= len(seats) <= MAX_SEATS:
            raise InvalidMessage(
                bad, phrase("session.why.table_has_seats", min_seats=MIN_SEATS, max_seats=MAX_SEATS)
            )
        if not all(isinstance(seat, SeatInfo) for seat in seats):
            raise TypeError("Genesis.seats must be SeatInfo values")
        if len({seat.key for seat in seats}) != len(seats):
            raise InvalidMessage(bad, phrase("session.why.same_identity_key_holds_two"))
        object.__setattr__(self, "seats", seats)

    @classmethod
    def new(cls, rules: Wire, seats: Sequence[SeatInfo], max_hands: int | None = None) -> Genesis:
        """A genesis for a new table with a fresh random table id."""
        return cls(new_table_id(), rules, tuple(seats), max_hands=max_hands)

    @classmethod
    def from_wire(cls, body: Sequence[Wire]) -> Genesis:
        """Parse a genesis body (raises InvalidMessage)."""
        version, table_id, rules, seats, max_hands = GENESIS.body.check(body, GENESIS.name)
        assert isinstance(seats, tuple)
        infos = []
        for seat in seats:
            assert isinstance(seat, tuple)
            name, key, commitment = seat
            assert isinstance(name, str) and isinstance(key, bytes)
            assert isinstance(commitment, bytes)
            infos.append(SeatInfo(name, PublicIdentity(key), commitment))
        assert isinstance(version, int) and isinstance(table_id, bytes)
        assert max_hands is None or isinstance(max_hands, int)
        return cls(table_id, rules, tuple(infos), version, max_hands)

    def to_wire(self) -> tuple[Wire, ...]:
        """The body: ``[protocol_version, table_id, rules, [[name, key, commitment], …],
        max_hands | nil]``."""
        seats = tuple((seat.name, seat.key.raw, seat.commitment) for seat in self.seats)
        return (self.protocol_version, self.table_id, self.rules, seats, self.max_hands)

    def seat_of(self, key: PublicIdentity) -> int | None:
        """The seat held by ``key``, if any."""
        for index, seat in enumerate(self.seats):
            if seat.key == key:
                return index
        return None

    def sign(self, identity: Identity, seat: int) -> Envelope:
        """The genesis message, sent by ``seat`` (whose key must be ``identity``)."""
        if not 0 <= seat < len(self.seats) or self.seats[seat].key != identity.public:
            raise ValueError(f"identity does not hold seat {seat + 1} in this genesis")
        return Envelope.sign(
            identity,
            table_id=self.table_id,
            seat=seat,
            head=genesis_head(self.table_id),
            mtype=GENESIS,
            body=self.to_wire(),
            version=self.protocol_version,
        )


def new_table_id() -> bytes:
    """A fresh random table id."""
    return secrets.token_bytes(TABLE_ID_SIZE)
