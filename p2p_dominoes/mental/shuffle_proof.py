"""Terelius–Wikström proof that a deck is a permuted re-encryption of another.

Follows Haenni et al., "Pseudo-Code Algorithms for Verifiable Re-Encryption Mix-Nets" (the
GenShuffleProof / CheckShuffleProof pair), in additive notation over edwards25519, with two
changes spelled out in protocol/MENTAL_POKER.md: the proof is in compact form (it carries the
challenge c; the verifier recomputes t1, t2, t3, t41, t42, t̂ and checks they hash back to c),
and the N commitment-chain relations are proven as one random linear combination with weights
α_i drawn from the transcript after the chain is fixed (one t̂, one ŝ; the verifier needs N+1
multiplications for the chain instead of 2N). Indices are 0-based; generator h[0] is the chain
base and h[1 + i] belongs to output position i.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from p2p_dominoes.mental.context import ProofBinding
from p2p_dominoes.mental.elgamal import Deck
from p2p_dominoes.mental.encoding import Reader, frame, u32
from p2p_dominoes.mental.errors import GroupError, ProofError
from p2p_dominoes.mental.generators import GENERATOR_DOMAIN, generator_sum, generators
from p2p_dominoes.mental.group import (
    BASE,
    POINT_SIZE,
    SCALAR_SIZE,
    L,
    Point,
    Scalar,
    add,
    msm,
    mul,
    mul_base,
    sub,
    sum_points,
)
from p2p_dominoes.mental.randomness import SYSTEM_RANDOM, RandomSource, random_scalar
from p2p_dominoes.mental.transcript import Transcript

SHUFFLE_PROOF_NAME: Final = b"terelius-wikstrom-shuffle"


def shuffle_proof_size(size: int) -> int:
    """Bytes in the encoding of a proof for decks of `size` cards: 2N points, N+6 scalars."""
    return 2 * size * POINT_SIZE + (size + 6) * SCALAR_SIZE


def _statement(
    binding: ProofBinding, joint_key: Point, inputs: Deck, outputs: Deck, commitments: bytes,
) -> tuple[Transcript, list[int]]:
    """The transcript after the statement and permutation commitment, and the u_j."""
    size = len(inputs)
    transcript = Transcript(SHUFFLE_PROOF_NAME, binding)
    transcript.append(b"generators", frame(GENERATOR_DOMAIN) + u32(size + 1))
    transcript.append(b"joint-key", joint_key.raw)
    transcript.append(b"input-deck", inputs.to_bytes())
    transcript.append(b"output-deck", outputs.to_bytes())
    transcript.append(b"permutation-commitment", commitments)
    return transcript, [transcript.challenge(b"u" + u32(j)) for j in range(size)]


def _chain_weights(transcript: Transcript, chain: bytes, size: int) -> list[int]:
    """Absorb the commitment chain and derive the weights α_i of the chain relations."""
    transcript.append(b"commitment-chain", chain)
    return [transcript.challenge(b"alpha" + u32(i)) for i in range(size)]


def _final_challenge(transcript: Transcript, t: Sequence[bytes]) -> int:
    for label, value in zip((b"t1", b"t2", b"t3", b"t41", b"t42", b"t-hat"), t, strict=True):
        transcript.append(label, value)
    return transcript.challenge(b"c")


@dataclass(frozen=True)
class ShuffleProof:
    """Permutation commitment, commitment chain, challenge and responses (see module doc)."""

    commitments: tuple[Point, ...]
    chain: tuple[Point, ...]
    challenge: Scalar
    s1: Scalar
    s2: Scalar
    s3: Scalar
    s4: Scalar
    s_hat: Scalar
    responses: tuple[Scalar, ...]

    @classmethod
    def prove(
        cls, binding: ProofBinding, joint_key: Point, inputs: Deck, outputs: Deck,
        permutation: Sequence[int], randomness: Sequence[int], rng: RandomSource = SYSTEM_RANDOM,
    ) -> ShuffleProof:
        """Prove `outputs[i] = inputs[permutation[i]]` re-encrypted under `joint_key` with
        `randomness[permutation[i]]` (the randomness is indexed by input position)."""
        size = len(inputs)
        gens = [p.raw for p in generators(size + 1)]
        h0, h = gens[0], gens[1:]
        pk = joint_key.raw
        position_of = [0] * size
        for i, j in enumerate(permutation):
            position_of[j] = i

        # Permutation commitment pc_j = r_j·G + h_{position of j}, indexed by input j.
        r = [random_scalar(rng) for _ in range(size)]
        pc = [add(mul_base(r[j]), h[position_of[j]]) for j in range(size)]
        transcript, u = _statement(binding, joint_key, inputs, outputs, b"".join(pc))
        u_out = [u[permutation[i]] for i in range(size)]

        # Commitment chain ĉ_i = r̂_i·G + u'_i·ĉ_{i-1} with ĉ_{-1} = h0; the prover also tracks
        # ĉ_i = a_i·G + b_i·h0 to compute t̂ with two multiplications.
        r_hat = [random_scalar(rng) for _ in range(size)]
        chain: list[bytes] = []
        a_before, b_before = [0] * size, [1] * size
        previous, a, b = h0, 0, 1
        for i in range(size):
            a_before[i], b_before[i] = a, b
            previous = add(mul_base(r_hat[i]), mul(u_out[i], previous))
            a, b = (r_hat[i] + u_out[i] * a) % L, u_out[i] * b % L
            chain.append(previous)
        alpha = _chain_weights(transcript, b"".join(chain), size)

        r_bar = sum(r) % L
        v = [1] * size
        for i in range(size - 2, -1, -1):
            v[i] = u_out[i + 1] * v[i + 1] % L
        r_hat_sum = sum(x * y for x, y in zip(r_hat, v, strict=True)) % L
        r_hat_alpha = sum(x * y for x, y in zip(r_hat, alpha, strict=True)) % L
        r_tilde = sum(x * y for x, y in zip(r, u, strict=True)) % L
        r_star = sum(randomness[j] * u[j] for j in range(size)) % L

        w1, w2, w3, w4, w_hat = (random_scalar(rng) for _ in range(5))
        w_out = [random_scalar(rng) for _ in range(size)]
        c1_out = [card.c1.raw for card in outputs.cards]
        c2_out = [card.c2.raw for card in outputs.cards]
        aw = [alpha[i] * w_out[i] for i in range(size)]
        t = (
            mul_base(w1),
            mul_base(w2),
            msm([(w3, BASE), *zip(w_out, h, strict=True)]),
            msm([(-w4, pk), *zip(w_out, c2_out, strict=True)]),
            msm([(-w4, BASE), *zip(w_out, c1_out, strict=True)]),
            msm((
                (w_hat + sum(x * y for x, y in zip(aw, a_before, strict=True)), BASE),
                (sum(x * y for x, y in zip(aw, b_before, strict=True)), h0),
            )),
        )
        c = _final_challenge(transcript, t)

        return cls(
            commitments=tuple(Point.from_libsodium(p) for p in pc),
            chain=tuple(Point.from_libsodium(p) for p in chain),
            challenge=Scalar(c),
            s1=Scalar((w1 + c * r_bar) % L),
            s2=Scalar((w2 + c * r_hat_sum) % L),
            s3=Scalar((w3 + c * r_tilde) % L),
            s4=Scalar((w4 + c * r_star) % L),
            s_hat=Scalar((w_hat + c * r_hat_alpha) % L),
            responses=tuple(Scalar((w_out[i] + c * u_out[i]) % L) for i in range(size)),
        )

    def verify(self, binding: ProofBinding, joint_key: Point, inputs: Deck, outputs: Deck) -> None:
        """Raise ProofError unless `outputs` is a permuted re-encryption of `inputs`."""
        size = len(inputs)
        if not (
            len(outputs) == len(self.commitments) == len(self.chain) == len(self.responses) == size
        ):
            raise ProofError("shuffle proof has the wrong length")
        try:
            self._check(binding, joint_key, inputs, outputs)
        except GroupError as exc:
            raise ProofError(f"shuffle proof does not verify ({exc})") from exc

    def _check(self, binding: ProofBinding, joint_key: Point, inputs: Deck, outputs: Deck) -> None:
        size = len(inputs)
        gens = [p.raw for p in generators(size + 1)]
        h0, h = gens[0], gens[1:]
        pk = joint_key.raw
        pc = [p.raw for p in self.commitments]
        chain = [p.raw for p in self.chain]
        transcript, u = _statement(binding, joint_key, inputs, outputs, b"".join(pc))
        alpha = _chain_weights(transcript, b"".join(chain), size)
        c = self.challenge.value
        s_out = [s.value for s in self.responses]
        cu = [-c * uj for uj in u]
        u_prod = 1
        for uj in u:
            u_prod = u_prod * uj % L

        pc_sum_less_h = sub(sum_points(pc), generator_sum(size))
        t1 = msm(((self.s1.value, BASE), (-c, pc_sum_less_h)))
        t2 = msm(((self.s2.value, BASE), (-c, chain[-1]), (c * u_prod, h0)))
        t3 = msm([(self.s3.value, BASE), *zip(s_out, h, strict=True), *zip(cu, pc, strict=True)])
        t41 = msm([
            (-self.s4.value, pk),
            *zip(s_out, (card.c2.raw for card in outputs.cards), strict=True),
            *zip(cu, (card.c2.raw for card in inputs.cards), strict=True),
        ])
        t42 = msm([
            (-self.s4.value, BASE),
            *zip(s_out, (card.c1.raw for card in outputs.cards), strict=True),
            *zip(cu, (card.c1.raw for card in inputs.cards), strict=True),
        ])
        # Σ α_i·(ŝ-part + s'_i·ĉ_{i-1} − c·ĉ_i): msm merges the two terms on each ĉ.
        t_hat = msm([
            (self.s_hat.value, BASE),
            *((alpha[i] * s_out[i], before) for i, before in enumerate([h0, *chain[:-1]])),
            *((-c * alpha[i], chain[i]) for i in range(size)),
        ])
        if _final_challenge(transcript, (t1, t2, t3, t41, t42, t_hat)) != c:
            raise ProofError("shuffle proof does not verify")

    def to_bytes(self) -> bytes:
        """`pc_0..pc_{N-1} ‖ ĉ_0..ĉ_{N-1} ‖ c ‖ s1 ‖ s2 ‖ s3 ‖ s4 ‖ ŝ ‖ s'_0..s'_{N-1}`."""
        scalars = (self.challenge, self.s1, self.s2, self.s3, self.s4, self.s_hat)
        return b"".join((
            *(p.raw for p in self.commitments),
            *(p.raw for p in self.chain),
            *(s.to_bytes() for s in scalars),
            *(s.to_bytes() for s in self.responses),
        ))

    @classmethod
    def from_bytes(cls, data: bytes, size: int) -> ShuffleProof:
        """Decode a proof for decks of `size` cards, validating every point and scalar."""
        reader = Reader(data)
        proof = cls.read(reader, size)
        reader.finish()
        return proof

    @classmethod
    def read(cls, reader: Reader, size: int) -> ShuffleProof:
        """Decode from the middle of a message."""
        return cls(
            commitments=reader.points(size),
            chain=reader.points(size),
            challenge=reader.scalar(),
            s1=reader.scalar(),
            s2=reader.scalar(),
            s3=reader.scalar(),
            s4=reader.scalar(),
            s_hat=reader.scalar(),
            responses=reader.scalars(size),
        )
