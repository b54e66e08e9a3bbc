"""Per-hand key setup: commit to a key share and lottery share, then reveal both with a proof.

Each seat draws a fresh secret x_i, publishes `KeyCommit` (a hash of PK_i = x_i·G and 32
random lottery bytes, bound to hand and seat), and only after every commitment is in publishes
`KeyReveal` (PK_i, the lottery bytes and a Schnorr proof of x_i bound to hand and seat). The
joint key is PK = Σ PK_i; the shared lottery value hashes every seat's lottery bytes.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from p2p_dominoes.mental.context import HandContext, ProofBinding, Step, StepKind
from p2p_dominoes.mental.encoding import Reader, frame, u8
from p2p_dominoes.mental.errors import (
    EncodingError,
    GroupError,
    InvalidMessageError,
    ProofError,
    message_of,
)
from p2p_dominoes.mental.group import Point, Scalar, sum_points
from p2p_dominoes.mental.messages import MessageTag, decode
from p2p_dominoes.mental.randomness import SYSTEM_RANDOM, RandomSource, random_scalar
from p2p_dominoes.mental.schnorr import SchnorrProof
from p2p_dominoes.words import phrase

COMMIT_DOMAIN: Final = b"p2p-dominoes/mental/v1/key-commit"
LOTTERY_DOMAIN: Final = b"p2p-dominoes/mental/v1/lottery"
COMMITMENT_SIZE: Final = 32
LOTTERY_SIZE: Final = 32
COMMITTED_SIZE: Final = 2 + COMMITMENT_SIZE
"""Size of an encoded `KeyCommit`: tag, seat, commitment."""
REVEAL_SIZE: Final = 2 + 32 + LOTTERY_SIZE + 64
"""Size of an encoded `KeyReveal`: tag, seat, PK_i, lottery share, Schnorr proof."""

_COMMIT_STEP: Final = Step(StepKind.KEY_COMMIT)
_REVEAL_STEP: Final = Step(StepKind.KEY_REVEAL)


def key_commitment(ctx: HandContext, seat: int, public_key: Point, lottery: bytes) -> bytes:
    """The commitment: `SHA-512(frame(domain) ‖ frame(ctx) ‖ frame(u8(seat)) ‖ frame(PK_i)
    ‖ frame(lottery))[:32]`."""
    data = (
        frame(COMMIT_DOMAIN)
        + frame(ctx.to_bytes())
        + frame(u8(seat))
        + frame(public_key.raw)
        + frame(lottery)
    )
    return hashlib.sha512(data).digest()[:COMMITMENT_SIZE]


@dataclass(frozen=True)
class KeyCommit:
    """A seat's hash commitment to its key share and lottery share."""

    seat: int
    commitment: bytes

    def to_bytes(self) -> bytes:
        """`tag ‖ u8(seat) ‖ commitment[32]`."""
        return u8(MessageTag.KEY_COMMIT) + u8(self.seat) + self.commitment

    @classmethod
    def from_bytes(cls, data: bytes, sender: int) -> KeyCommit:
        """Decode a message sent by `sender`; InvalidMessageError if malformed."""
        return decode(
            data,
            sender,
            MessageTag.KEY_COMMIT,
            _COMMIT_STEP.said,
            lambda r: cls(sender, r.take(COMMITMENT_SIZE)),
        )


@dataclass(frozen=True)
class KeyReveal:
    """A seat's key share PK_i, lottery share and Schnorr proof of knowledge of x_i."""

    seat: int
    public_key: Point
    lottery: bytes
    proof: SchnorrProof

    def to_bytes(self) -> bytes:
        """`tag ‖ u8(seat) ‖ PK_i ‖ lottery[32] ‖ proof[64]`."""
        return (
            u8(MessageTag.KEY_REVEAL)
            + u8(self.seat)
            + self.public_key.raw
            + self.lottery
            + self.proof.to_bytes()
        )

    @classmethod
    def from_bytes(cls, data: bytes, sender: int) -> KeyReveal:
        """Decode a message sent by `sender`; InvalidMessageError if malformed."""

        def parse(r: Reader) -> KeyReveal:
            return cls(sender, r.point(), r.take(LOTTERY_SIZE), SchnorrProof.read(r))

        return decode(data, sender, MessageTag.KEY_REVEAL, _REVEAL_STEP.said, parse)


@dataclass(frozen=True)
class HandKeys:
    """One seat's private per-hand key material and the two messages it publishes."""

    seat: int
    secret: Scalar = field(repr=False)
    commit: KeyCommit
    reveal: KeyReveal

    def to_bytes(self) -> bytes:
        """`u8(seat) ‖ x_i[32] ‖ KeyCommit ‖ KeyReveal` (197 bytes), to keep across a crash.

        The secret and the lottery share cannot be re-drawn after the commitment went out, so a
        peer stores them before first use and loads them when it resumes. Keep it private.
        """
        return (
            u8(self.seat)
            + self.secret.to_bytes()
            + self.commit.to_bytes()
            + (self.reveal.to_bytes())
        )

    @classmethod
    def from_bytes(cls, data: bytes, ctx: HandContext | None = None) -> HandKeys:
        """Decode `to_bytes`; EncodingError unless the parts agree (PK_i = x_i·G, one seat).

        With `ctx`, also insist that the commitment and the proof are for that hand (else the
        keys of another table or hand could be loaded by mistake).
        """
        reader = Reader(data)
        seat = reader.u8()
        secret = reader.scalar()
        try:
            commit = KeyCommit.from_bytes(reader.take(COMMITTED_SIZE), seat)
            reveal = KeyReveal.from_bytes(reader.take(REVEAL_SIZE), seat)
        except InvalidMessageError as exc:
            raise EncodingError(exc.reason) from None
        reader.finish()
        if secret.value == 0 or Point.base_mul(secret.value) != reveal.public_key:
            raise EncodingError(phrase("mental.why.secret_does_not_match_public"))
        if ctx is not None:
            if not 0 <= seat < ctx.seats:
                raise EncodingError(phrase("mental.why.seat_not_hand", seat=seat + 1))
            try:
                check_key_reveal(ctx, commit, reveal)
            except InvalidMessageError as exc:
                raise EncodingError(
                    phrase("mental.why.not_hand_s_keys", reason=exc.reason)
                ) from None
        return cls(seat, secret, commit, reveal)


def new_hand_keys(ctx: HandContext, seat: int, rng: RandomSource = SYSTEM_RANDOM) -> HandKeys:
    """Draw x_i and the lottery share; build the commitment and the reveal (send it later)."""
    ctx.check_seat(seat)
    secret = random_scalar(rng)
    public_key = Point.base_mul(secret)
    lottery = rng.random_bytes(LOTTERY_SIZE)
    proof = SchnorrProof.prove(ProofBinding(ctx, _REVEAL_STEP, seat), secret, public_key, rng)
    return HandKeys(
        seat=seat,
        secret=Scalar(secret),
        commit=KeyCommit(seat, key_commitment(ctx, seat, public_key, lottery)),
        reveal=KeyReveal(seat, public_key, lottery, proof),
    )


def check_key_reveal(ctx: HandContext, commit: KeyCommit, reveal: KeyReveal) -> None:
    """Raise InvalidMessageError unless `reveal` opens `commit` and proves knowledge of its key."""
    step = _REVEAL_STEP.said
    if commit.seat != reveal.seat or not 0 <= reveal.seat < ctx.seats:
        raise InvalidMessageError(
            reveal.seat, step, phrase("mental.why.reveal_and_commitment_seats_differ")
        )
    expected = key_commitment(ctx, reveal.seat, reveal.public_key, reveal.lottery)
    if expected != commit.commitment:
        raise InvalidMessageError(reveal.seat, step, phrase("mental.why.key_share_does_not_match"))
    try:
        reveal.proof.verify(ProofBinding(ctx, _REVEAL_STEP, reveal.seat), reveal.public_key)
    except (ProofError, GroupError) as exc:
        raise InvalidMessageError(
            reveal.seat, step, phrase("mental.why.no_proof_knowledge_key", reason=message_of(exc))
        ) from None


@dataclass(frozen=True)
class JointKey:
    """The hand's public keys: every seat's PK_i, their sum PK, and the shared lottery value."""

    seat_keys: tuple[Point, ...]
    key: Point
    lottery: bytes


def combine_keys(
    ctx: HandContext,
    commits: Sequence[KeyCommit],
    reveals: Sequence[KeyReveal],
) -> JointKey:
    """Check every seat's reveal against its commitment (index = seat) and combine them."""
    for seat in range(ctx.seats):
        if seat >= len(commits) or commits[seat].seat != seat:
            raise InvalidMessageError(
                seat, _COMMIT_STEP.said, phrase("mental.why.no_key_commitment_from_seat")
            )
        if seat >= len(reveals) or reveals[seat].seat != seat:
            raise InvalidMessageError(
                seat, _REVEAL_STEP.said, phrase("mental.why.no_key_reveal_from_seat")
            )
        check_key_reveal(ctx, commits[seat], reveals[seat])
    if len(commits) != ctx.seats or len(reveals) != ctx.seats:
        raise ValueError("more key messages than seats")
    seat_keys = tuple(r.public_key for r in reveals)
    try:
        joint = Point.from_libsodium(sum_points(p.raw for p in seat_keys))
    except GroupError:
        # Needs a seat to choose its share after seeing the others, which the commitments
        # prevent; blame the last seat, the only one that could have tried.
        raise InvalidMessageError(
            ctx.seats - 1, _REVEAL_STEP.said, phrase("mental.why.joint_key_identity")
        ) from None
    lottery = hashlib.sha512(
        frame(LOTTERY_DOMAIN) + frame(ctx.to_bytes()) + b"".join(frame(r.lottery) for r in reveals)
    ).digest()[:LOTTERY_SIZE]
    return JointKey(seat_keys, joint, lottery)
