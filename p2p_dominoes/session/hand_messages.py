"""The hand-flow message types: their codes and body schemas (PROTOCOL.md §10).

Every body starts with the hand number. Cryptographic payloads are carried as the exact bytes of
the mental-poker encodings (protocol/MENTAL_POKER.md), which validate themselves on decoding.
"""

from __future__ import annotations

from typing import Final

from p2p_dominoes.session.envelope import MessageType
from p2p_dominoes.session.schema import ArrayOf, Bin, Bool, Int, Nullable, Record, Text, record

MAX_HANDS: Final = 10_000
"""A match never needs more hands than this; bounds the hand number on the wire."""

_HAND: Final = ("hand", Int(1, MAX_HANDS))
_BLOB: Final = Bin(min_size=1, max_size=16_384)
_SHARE: Final = Bin(min_size=1, max_size=512)

KEY_COMMIT: Final = MessageType(16, "key_commit", record(_HAND, ("commit", _SHARE)))
KEY_REVEAL: Final = MessageType(17, "key_reveal", record(_HAND, ("reveal", _SHARE)))
SHUFFLE: Final = MessageType(18, "shuffle", record(_HAND, ("step", _BLOB)))
DEAL: Final = MessageType(19, "deal", record(_HAND, ("shares", ArrayOf(_SHARE, max_len=28))))
LEAD_CLAIM: Final = MessageType(20, "lead_claim", record(_HAND, ("reveal", Nullable(_SHARE))))
"""v2: nil when the seat holds nothing that beats the best claim so far (v1: never nil)."""
PLAY: Final = MessageType(
    21,
    "play",
    Record(
        (
            _HAND,
            ("reveal", _SHARE),
            ("at", Nullable(Int(0, 27))),
            ("side", Nullable(Text(4))),
            ("along", Bool()),
        ),
        optional=1,
    ),
)
"""v2: a fifth field `along`, present (always true) only when a double is laid lengthwise by
the player's choice (`doubles = choice`); v1 plays have four fields."""
DRAW: Final = MessageType(22, "draw", record(_HAND))
DRAW_SHARE: Final = MessageType(23, "draw_share", record(_HAND, ("share", _SHARE)))
PASS: Final = MessageType(24, "pass", record(_HAND))
HAND_REVEAL: Final = MessageType(
    25, "hand_reveal", record(_HAND, ("reveals", ArrayOf(_SHARE, max_len=28)))
)
SECRET_REVEAL: Final = MessageType(26, "secret_reveal", record(_HAND, ("secret", _SHARE)))
SKIP: Final = MessageType(27, "skip", record(_HAND))
"""v2: decline the second double a turn may take (two_doubles); only when one may follow."""

_TILE: Final = ("tile", Int(0, 27))
_OR_PROOF: Final = ("proof", Bin(min_size=64, max_size=64 * 28))
PLAY3: Final = MessageType(
    28,
    "play3",
    Record(
        (
            _HAND,
            _TILE,
            _OR_PROOF,
            ("drawn", Nullable(Bool())),
            *PLAY.body.fields[2:],
        ),
        optional=PLAY.body.optional,
    ),
)
"""v3: the tile and an OR-proof that it is at one of the seat's positions (64 bytes a position
of the set, which the verifier computes), never the position; `drawn` says whether the set is
this turn's draws when the rules score a drawn tile apart (else nil). The place fields after it
are the v2 play's own, read by the same code."""
LEAD_CLAIM3: Final = MessageType(
    29, "lead_claim3", record(_HAND, ("claim", Nullable(record(_TILE, _OR_PROOF))))
)
"""v3: nil, or the claimed tile with an OR-proof over the seat's dealt positions."""

HAND_MESSAGES: Final[tuple[MessageType, ...]] = (
    KEY_COMMIT,
    KEY_REVEAL,
    SHUFFLE,
    DEAL,
    LEAD_CLAIM,
    PLAY,
    DRAW,
    DRAW_SHARE,
    PASS,
    HAND_REVEAL,
    SECRET_REVEAL,
    SKIP,
    PLAY3,
    LEAD_CLAIM3,
)
