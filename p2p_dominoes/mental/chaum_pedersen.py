"""Chaum–Pedersen proof that log_G PK = log_B D: a decryption share matches its key share."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from p2p_dominoes.mental.context import ProofBinding
from p2p_dominoes.mental.encoding import Reader
from p2p_dominoes.mental.errors import ProofError
from p2p_dominoes.mental.group import BASE, L, Point, Scalar, msm, mul, mul_base
from p2p_dominoes.mental.randomness import SYSTEM_RANDOM, RandomSource, random_scalar
from p2p_dominoes.mental.transcript import Transcript
from p2p_dominoes.words import phrase

CHAUM_PEDERSEN_NAME: Final = b"chaum-pedersen"
CHAUM_PEDERSEN_SIZE: Final = 64


def _challenge(
    binding: ProofBinding,
    public_key: Point,
    base: Point,
    share: Point,
    commitment_g: bytes,
    commitment_base: bytes,
) -> int:
    transcript = Transcript(CHAUM_PEDERSEN_NAME, binding)
    transcript.append(b"public-key", public_key.raw)
    transcript.append(b"base", base.raw)
    transcript.append(b"share", share.raw)
    transcript.append(b"commitment-g", commitment_g)
    transcript.append(b"commitment-base", commitment_base)
    return transcript.challenge(b"c")


@dataclass(frozen=True)
class ChaumPedersenProof:
    """`c = H(binding, PK, B, D, k·G, k·B)`, `s = k + c·x`; compact form (c, s)."""

    challenge: Scalar
    response: Scalar

    @classmethod
    def prove(
        cls,
        binding: ProofBinding,
        secret: int,
        public_key: Point,
        base: Point,
        share: Point,
        rng: RandomSource = SYSTEM_RANDOM,
    ) -> ChaumPedersenProof:
        """Prove `public_key = secret·G` and `share = secret·base`."""
        nonce = random_scalar(rng)
        c = _challenge(binding, public_key, base, share, mul_base(nonce), mul(nonce, base.raw))
        return cls(Scalar(c), Scalar((nonce + c * secret) % L))

    def verify(self, binding: ProofBinding, public_key: Point, base: Point, share: Point) -> None:
        """Raise ProofError unless log_G `public_key` = log_`base` `share` (for `binding`)."""
        c, s = self.challenge.value, self.response.value
        commitment_g = msm(((s, BASE), (-c, public_key.raw)))
        commitment_base = msm(((s, base.raw), (-c, share.raw)))
        if _challenge(binding, public_key, base, share, commitment_g, commitment_base) != c:
            raise ProofError(phrase("mental.why.chaum_pedersen_proof_does_not"))

    def to_bytes(self) -> bytes:
        """`c ‖ s`, 64 bytes."""
        return self.challenge.to_bytes() + self.response.to_bytes()

    @classmethod
    def from_bytes(cls, data: bytes) -> ChaumPedersenProof:
        """Decode 64 bytes; both scalars must be canonical."""
        reader = Reader(data)
        proof = cls.read(reader)
        reader.finish()
        return proof

    @classmethod
    def read(cls, reader: Reader) -> ChaumPedersenProof:
        """Decode from the middle of a message."""
        return cls(reader.scalar(), reader.scalar())
