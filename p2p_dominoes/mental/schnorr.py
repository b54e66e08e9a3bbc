"""Schnorr proof of knowledge of x with PK = x·G, in compact form (challenge, response)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from p2p_dominoes.mental.context import ProofBinding
from p2p_dominoes.mental.encoding import Reader
from p2p_dominoes.mental.errors import ProofError
from p2p_dominoes.mental.group import BASE, L, Point, Scalar, msm, mul_base
from p2p_dominoes.mental.randomness import SYSTEM_RANDOM, RandomSource, random_scalar
from p2p_dominoes.mental.transcript import Transcript
from p2p_dominoes.words import phrase

SCHNORR_NAME: Final = b"schnorr-pok"
SCHNORR_SIZE: Final = 64


def _challenge(binding: ProofBinding, public_key: Point, commitment: bytes) -> int:
    transcript = Transcript(SCHNORR_NAME, binding)
    transcript.append(b"public-key", public_key.raw)
    transcript.append(b"commitment", commitment)
    return transcript.challenge(b"c")


@dataclass(frozen=True)
class SchnorrProof:
    """`c = H(binding, PK, R)`, `s = k + c·x` where `R = k·G`; verified as `R = s·G − c·PK`."""

    challenge: Scalar
    response: Scalar

    @classmethod
    def prove(
        cls,
        binding: ProofBinding,
        secret: int,
        public_key: Point,
        rng: RandomSource = SYSTEM_RANDOM,
    ) -> SchnorrProof:
        """Prove knowledge of `secret` = log_G `public_key`."""
        nonce = random_scalar(rng)
        c = _challenge(binding, public_key, mul_base(nonce))
        return cls(Scalar(c), Scalar((nonce + c * secret) % L))

    def verify(self, binding: ProofBinding, public_key: Point) -> None:
        """Raise ProofError unless this proves knowledge of log_G `public_key` for `binding`."""
        c, s = self.challenge.value, self.response.value
        commitment = msm(((s, BASE), (-c, public_key.raw)))
        if _challenge(binding, public_key, commitment) != c:
            raise ProofError(phrase("mental.why.schnorr_proof_does_not_verify"))

    def to_bytes(self) -> bytes:
        """`c ‖ s`, 64 bytes."""
        return self.challenge.to_bytes() + self.response.to_bytes()

    @classmethod
    def from_bytes(cls, data: bytes) -> SchnorrProof:
        """Decode 64 bytes; both scalars must be canonical."""
        reader = Reader(data)
        proof = cls.read(reader)
        reader.finish()
        return proof

    @classmethod
    def read(cls, reader: Reader) -> SchnorrProof:
        """Decode from the middle of a message."""
        return cls(reader.scalar(), reader.scalar())
