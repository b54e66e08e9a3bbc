"""OR-proof that a shown tile is the plaintext of one of a seat's positions, without saying which.

For each position p of a public set S the other seats' decryption shares are public, so anyone
computes the partial opening `P_p = c2_p − Σ_{j≠i} D_j,p = M_p + x_i·c1_p`. The tile T sits at p
iff `X_p = P_p − M_T` equals `x_i·c1_p`, i.e. `log_G PK_i = log_{c1_p} X_p`. The seat proves the
disjunction of these Chaum–Pedersen statements over S (Cramer–Damgård–Schoenmakers): the real
branch is proven, every other branch simulated, and the branch challenges must sum to the
Fiat–Shamir challenge. On the wire: `c_j ‖ s_j` per position of S in ascending order, 64·|S|
bytes (the verifier knows S, so there is no count). See protocol/MENTAL_POKER.md §9.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from p2p_dominoes.mental.context import HandContext, ProofBinding, Step
from p2p_dominoes.mental.elgamal import Deck
from p2p_dominoes.mental.encoding import Reader, u8
from p2p_dominoes.mental.errors import (
    EncodingError,
    GroupError,
    InvalidMessageError,
    ProofError,
    message_of,
)
from p2p_dominoes.mental.group import (
    BASE,
    IDENTITY,
    L,
    Point,
    Scalar,
    msm,
    mul,
    mul_base,
    sub,
    sum_points,
)
from p2p_dominoes.mental.keys import HandKeys, JointKey
from p2p_dominoes.mental.randomness import SYSTEM_RANDOM, RandomSource, random_scalar
from p2p_dominoes.mental.shares import POSITIONS, DecryptionShare, collect_shares
from p2p_dominoes.mental.tiles import TILE_COUNT, tile_point, tile_text
from p2p_dominoes.mental.transcript import Transcript
from p2p_dominoes.words import phrase

OR_PROOF_NAME: Final = b"or-play"
BRANCH_SIZE: Final = 64
"""Bytes per position of S: the branch challenge and response, two canonical scalars."""
MAX_BRANCHES: Final = POSITIONS


@dataclass(frozen=True)
class Branch:
    """One position of S as the statement sees it: the position, its `c1` and `P_p`."""

    position: int
    c1: Point
    opening: bytes
    """The partial opening `P_p` (a canonical encoding; the identity is possible only for a
    deck that no honest shuffle produces, and then the branch simply cannot verify)."""


def partial_opening(
    ctx: HandContext,
    joint: JointKey,
    deck: Deck,
    position: int,
    owner: int,
    shares: Iterable[DecryptionShare],
    *,
    checked: bool = False,
) -> bytes:
    """`P_p = c2_p − Σ_{j≠owner} D_j,p`: what is left of position p once the other seats'
    shares are taken off (InvalidMessageError blames a seat whose share is wrong or missing)."""
    others = collect_shares(ctx, joint, deck, position, owner, shares, checked=checked)
    try:
        return sub(deck[position].c2.raw, sum_points(others))
    except GroupError:
        return IDENTITY


def branches_for(
    deck: Deck, positions: Iterable[int], openings: Mapping[int, bytes]
) -> tuple[Branch, ...]:
    """The statement's branches for the set `positions` (ascending, no repeats)."""
    ordered = sorted(set(positions))
    if not 1 <= len(ordered) <= MAX_BRANCHES or ordered[-1] >= len(deck) or ordered[0] < 0:
        raise ValueError("an OR-proof ranges over 1..28 positions of the deck")
    return tuple(Branch(p, deck[p].c1, openings[p]) for p in ordered)


def _difference(opening: bytes, tile: int) -> bytes:
    """`X_p = P_p − M_T` (the identity when it does not exist as a valid point)."""
    if opening == IDENTITY:
        return IDENTITY
    try:
        return sub(opening, tile_point(tile).raw)
    except GroupError:
        return IDENTITY


def _transcript(
    binding: ProofBinding, public_key: Point, tile: int, branches: Sequence[Branch]
) -> Transcript:
    transcript = Transcript(OR_PROOF_NAME, binding)
    transcript.append(b"public-key", public_key.raw)
    transcript.append(b"tile", u8(tile) + tile_point(tile).raw)
    for branch in branches:
        transcript.append(b"position", u8(branch.position) + branch.c1.raw + branch.opening)
    return transcript


def _commitments(
    public_key: Point, branch: Branch, difference: bytes, c: int, s: int
) -> tuple[bytes, bytes]:
    """`A = s·G − c·PK`, `B = s·c1 − c·X` (X may be the identity: then B = s·c1)."""
    a = msm(((s, BASE), (-c, public_key.raw)))
    terms = [(s, branch.c1.raw)]
    if difference != IDENTITY:
        terms.append((-c, difference))
    return a, msm(terms)


@dataclass(frozen=True)
class OrProof:
    """The compact CDS proof: one (challenge, response) pair per position of S, ascending."""

    branches: tuple[tuple[Scalar, Scalar], ...]

    @classmethod
    def prove(
        cls,
        binding: ProofBinding,
        secret: int,
        public_key: Point,
        tile: int,
        branches: Sequence[Branch],
        real: int,
        rng: RandomSource = SYSTEM_RANDOM,
    ) -> OrProof:
        """Prove that `tile` is at one position of `branches`; `real` is that position."""
        index = next((i for i, b in enumerate(branches) if b.position == real), None)
        if index is None:
            raise ValueError("the real position is not one of the branches")
        transcript = _transcript(binding, public_key, tile, branches)
        pairs: list[tuple[int, int]] = []
        nonce = random_scalar(rng)
        for i, branch in enumerate(branches):
            difference = _difference(branch.opening, tile)
            if i == index:
                a, b = mul_base(nonce), mul(nonce, branch.c1.raw)
                pairs.append((0, 0))
            else:
                c, s = random_scalar(rng), random_scalar(rng)
                a, b = _commitments(public_key, branch, difference, c, s)
                pairs.append((c, s))
            transcript.append(b"commitment", a + b)
        total = transcript.challenge(b"c")
        real_c = (total - sum(c for c, _ in pairs)) % L
        pairs[index] = (real_c, (nonce + real_c * secret) % L)
        return cls(tuple((Scalar(c), Scalar(s)) for c, s in pairs))

    def verify(
        self, binding: ProofBinding, public_key: Point, tile: int, branches: Sequence[Branch]
    ) -> None:
        """Raise ProofError unless `tile` is proven to sit at one position of `branches`."""
        if len(self.branches) != len(branches):
            raise ProofError(
                phrase(
                    "mental.why.branches_positions", count=len(self.branches), count2=len(branches)
                )
            )
        transcript = _transcript(binding, public_key, tile, branches)
        total = 0
        for (c, s), branch in zip(self.branches, branches, strict=True):
            difference = _difference(branch.opening, tile)
            a, b = _commitments(public_key, branch, difference, c.value, s.value)
            transcript.append(b"commitment", a + b)
            total += c.value
        if transcript.challenge(b"c") != total % L:
            raise ProofError(phrase("mental.why.or_proof_does_not_verify"))

    def to_bytes(self) -> bytes:
        """`c_0 ‖ s_0 ‖ c_1 ‖ s_1 ‖ …`, 64 bytes per position."""
        return b"".join(c.to_bytes() + s.to_bytes() for c, s in self.branches)

    @classmethod
    def from_bytes(cls, data: bytes, count: int) -> OrProof:
        """Decode a proof over `count` positions: exactly 64·count bytes of canonical scalars."""
        if not isinstance(data, bytes) or len(data) != BRANCH_SIZE * count:
            size = len(data) if isinstance(data, bytes) else "no"
            raise EncodingError(
                phrase(
                    "mental.why.proof_bytes_positions_need",
                    size=size,
                    count=count,
                    value=64 * count,
                )
            )
        reader = Reader(data)
        pairs = tuple((reader.scalar(), reader.scalar()) for _ in range(count))
        reader.finish()
        return cls(pairs)


def or_binding(ctx: HandContext, step: Step, seat: int) -> ProofBinding:
    """The binding of a play's or a lead claim's OR-proof: the hand, the step, the prover."""
    return ProofBinding(ctx, step, seat)


def prove_tile(
    ctx: HandContext,
    keys: HandKeys,
    step: Step,
    tile: int,
    branches: Sequence[Branch],
    real: int,
    rng: RandomSource = SYSTEM_RANDOM,
) -> bytes:
    """This seat's proof bytes that `tile` (at its position `real`) is at one of `branches`."""
    if not 0 <= tile < TILE_COUNT:
        raise ValueError("tile out of range")
    proof = OrProof.prove(
        or_binding(ctx, step, keys.seat),
        keys.secret.value,
        keys.reveal.public_key,
        tile,
        branches,
        real,
        rng,
    )
    return proof.to_bytes()


def check_tile(
    ctx: HandContext,
    seat: int,
    step: Step,
    tile: int,
    proof: bytes,
    joint: JointKey,
    branches: Sequence[Branch],
) -> None:
    """Raise InvalidMessageError blaming `seat` unless `proof` shows `tile` at one of
    `branches` (malformed bytes and a proof that fails are told apart in the reason)."""
    where = step.said
    if not 0 <= seat < ctx.seats:
        raise InvalidMessageError(seat, where, phrase("mental.why.not_seat_hand"))
    if not 0 <= tile < TILE_COUNT:
        raise InvalidMessageError(seat, where, phrase("mental.why.tile_out_range", tile=tile))
    try:
        decoded = OrProof.from_bytes(proof, len(branches))
    except EncodingError as exc:
        raise InvalidMessageError(
            seat, where, phrase("mental.why.malformed_proof", reason=message_of(exc))
        ) from None
    try:
        decoded.verify(or_binding(ctx, step, seat), joint.seat_keys[seat], tile, branches)
    except (ProofError, GroupError):
        raise InvalidMessageError(
            seat,
            where,
            phrase("mental.why.not_any_positions", value=tile_text(tile), count=len(branches)),
        ) from None
