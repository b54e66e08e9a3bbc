"""What every proof and commitment is bound to: the hand, the protocol step and the prover."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Final

from p2p_dominoes.mental.encoding import frame, u8, u16, u64
from p2p_dominoes.words import Phrase, phrase

PROTOCOL_LABEL: Final = b"p2p-dominoes/mental"
PROTOCOL_VERSION: Final = 1
MIN_SEATS: Final = 2
MAX_SEATS: Final = 4


@dataclass(frozen=True)
class HandContext:
    """One hand at one table: the protocol version, table id, hand number and seat count."""

    table_id: bytes
    hand_number: int
    seats: int
    version: int = PROTOCOL_VERSION

    def __post_init__(self) -> None:
        if self.version != PROTOCOL_VERSION:
            raise ValueError(f"unsupported mental-poker version {self.version}")
        if not isinstance(self.table_id, bytes) or not 1 <= len(self.table_id) <= 255:
            raise ValueError("table id must be 1..255 bytes")
        if not 0 <= self.hand_number < 2**64:
            raise ValueError("hand number out of range")
        if not MIN_SEATS <= self.seats <= MAX_SEATS:
            raise ValueError(f"seat count must be {MIN_SEATS}..{MAX_SEATS}")

    def to_bytes(self) -> bytes:
        """`u16(version) ‖ frame(table_id) ‖ u64(hand_number) ‖ u8(seats)`."""
        return u16(self.version) + frame(self.table_id) + u64(self.hand_number) + u8(self.seats)

    def check_seat(self, seat: int) -> None:
        """Raise ValueError unless `seat` is a seat of this hand."""
        if not 0 <= seat < self.seats:
            raise ValueError(f"seat {seat} is not in 0..{self.seats - 1}")


class StepKind(enum.IntEnum):
    """The protocol steps that carry a proof or commitment."""

    KEY_COMMIT = 1
    KEY_REVEAL = 2
    SHUFFLE = 3
    SHARE = 4
    TILE_REVEAL = 5
    SECRET_REVEAL = 6
    PLAY = 7
    """A v3 play's OR-proof; the index is the number of tiles on the line before it."""
    LEAD_CLAIM = 8
    """A v3 lead claim's OR-proof (index 0)."""


@dataclass(frozen=True)
class Step:
    """A step of the hand: its kind and an index (shuffle number, deck position, or 0)."""

    kind: StepKind
    index: int = 0

    def to_bytes(self) -> bytes:
        """`u8(kind) ‖ u8(index)`."""
        return u8(self.kind) + u8(self.index)

    @property
    def said(self) -> Phrase:
        """The step in words, as a failure reason names it ("shuffle 2"; `said.in_(lang)`)."""
        kind, index = self.kind, self.index
        if kind is StepKind.KEY_COMMIT:
            return phrase("mental.why.step_key_commitment")
        if kind is StepKind.KEY_REVEAL:
            return phrase("mental.why.step_key_reveal")
        if kind is StepKind.SHUFFLE:
            return phrase("mental.why.step_shuffle", index=index)
        if kind is StepKind.SHARE:
            return phrase("mental.why.step_share", index=index)
        if kind is StepKind.TILE_REVEAL:
            return phrase("mental.why.step_tile_reveal", index=index)
        if kind is StepKind.SECRET_REVEAL:
            return phrase("mental.why.step_secret_reveal")
        if kind is StepKind.PLAY:
            return phrase("mental.why.step_play", index=index)
        return phrase("mental.why.step_lead_claim")

    def __str__(self) -> str:
        return str(self.said)


@dataclass(frozen=True)
class ProofBinding:
    """Everything a Fiat–Shamir challenge is bound to besides the statement itself."""

    ctx: HandContext
    step: Step
    prover: int
