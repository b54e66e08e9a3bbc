"""Terelius–Wikström proof that a deck is a permuted re-encryption of another.

Follows Haenni et al., "Pseudo-Code Algorithms for Verifiable Re-Encryption Mix-Nets" (the
GenShuffleProof / CheckShuffleProof pair), in additive notation over edwards25519, with the
changes spelled out in protocol/MENTAL_POKER.md: t1, t2 and t̂ are sent in compact form (the
proof carries the challenge c; the verifier recomputes them and checks the hash), while t3, t41
and t42 are sent so that several proofs can be checked at once with one random linear
combination (`verify_batch`: the generators and every deck shared by consecutive shuffles are
multiplied once); and the N commitment-chain relations are proven as one random linear
combination with weights α_i drawn from the transcript after the chain is fixed (one t̂, one ŝ;
N+1 multiplications instead of 2N). Indices are 0-based; generator h[0] is the chain base and
h[1 + i] belongs to output position i.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from p2p_dominoes.mental.context import ProofBinding
from p2p_dominoes.mental.elgamal import Deck
from p2p_dominoes.mental.encoding import Reader, frame, u32
from p2p_dominoes.mental.errors import GroupError, ProofError, message_of
from p2p_dominoes.mental.generators import GENERATOR_DOMAIN, generator_sum, generators
from p2p_dominoes.mental.group import (
    BASE,
    IDENTITY,
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
from p2p_dominoes.words import phrase

SHUFFLE_PROOF_NAME: Final = b"terelius-wikstrom-shuffle"


def shuffle_proof_size(size: int) -> int:
    """Bytes in the encoding of a proof for decks of `size` cards: 2N+3 points, N+6 scalars."""
    return (2 * size + 3) * POINT_SIZE + (size + 6) * SCALAR_SIZE


def _statement(
    binding: ProofBinding,
    joint_key: Point,
    inputs: Deck,
    outputs: Deck,
    commitments: bytes,
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


def _batch_weight() -> int:
    """A secret, unpredictable batch weight in [1, L): OS randomness only (`secrets`)."""
    return 1 + secrets.randbelow(L - 1)


def _final_challenge(transcript: Transcript, t: Sequence[bytes]) -> int:
    for label, value in zip((b"t1", b"t2", b"t3", b"t41", b"t42", b"t-hat"), t, strict=True):
        transcript.append(label, value)
    return transcript.challenge(b"c")


@dataclass(frozen=True)
class ShuffleProof:
    """Permutation commitment, commitment chain, challenge and responses (see module doc)."""

    commitments: tuple[Point, ...]
    chain: tuple[Point, ...]
    t3: Point
    t41: Point
    t42: Point
    challenge: Scalar
    s1: Scalar
    s2: Scalar
    s3: Scalar
    s4: Scalar
    s_hat: Scalar
    responses: tuple[Scalar, ...]

    @classmethod
    def prove(
        cls,
        binding: ProofBinding,
        joint_key: Point,
        inputs: Deck,
        outputs: Deck,
        permutation: Sequence[int],
        randomness: Sequence[int],
        rng: RandomSource = SYSTEM_RANDOM,
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
            msm(
                (
                    (w_hat + sum(x * y for x, y in zip(aw, a_before, strict=True)), BASE),
                    (sum(x * y for x, y in zip(aw, b_before, strict=True)), h0),
                )
            ),
        )
        c = _final_challenge(transcript, t)

        return cls(
            commitments=tuple(Point.from_libsodium(p) for p in pc),
            chain=tuple(Point.from_libsodium(p) for p in chain),
            t3=Point.from_libsodium(t[2]),
            t41=Point.from_libsodium(t[3]),
            t42=Point.from_libsodium(t[4]),
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
        try:
            for terms, expected in self._relations(binding, joint_key, inputs, outputs):
                if msm(terms) != expected:
                    raise ProofError(phrase("mental.why.shuffle_proof_does_not_verify"))
        except GroupError as exc:
            raise ProofError(
                phrase("mental.why.shuffle_proof_fails_because", reason=message_of(exc))
            ) from exc

    @staticmethod
    def verify_batch(items: Sequence[tuple[ShuffleProof, ProofBinding, Point, Deck, Deck]]) -> None:
        """Check several (proof, binding, joint key, inputs, outputs) at once.

        The hash checks are done per proof; the linear relations of all proofs are combined with
        secret random weights into one multi-scalar sum that must be the identity (a false
        relation passes with probability about 1/L). The weights come from the OS and from
        nowhere else: a prover who can predict them makes false relations cancel (two colluding
        shufflers would get a deck with a duplicated tile accepted), so no caller can pass a
        source. Raise ProofError if anything fails, without saying which proof: the caller
        re-checks them one by one to assign blame.
        """
        terms: list[tuple[int, bytes]] = []
        try:
            for proof, binding, joint_key, inputs, outputs in items:
                for relation, expected in proof._relations(binding, joint_key, inputs, outputs):
                    weight = _batch_weight()
                    terms.extend((weight * s, p) for s, p in relation)
                    terms.append((-weight, expected))
            if msm(terms) != IDENTITY:
                raise ProofError(phrase("mental.why.shuffle_batch_fails"))
        except GroupError as exc:
            raise ProofError(
                phrase("mental.why.shuffle_batch_fails_because", reason=message_of(exc))
            ) from exc

    def _relations(
        self,
        binding: ProofBinding,
        joint_key: Point,
        inputs: Deck,
        outputs: Deck,
    ) -> list[tuple[list[tuple[int, bytes]], bytes]]:
        """Check lengths and the challenge (recomputing t1, t2, t̂); return the relations
        `Σ terms = t` for t3, t41 and t42 that remain to be checked."""
        size = len(inputs)
        if not (
            len(outputs) == len(self.commitments) == len(self.chain) == len(self.responses) == size
        ):
            raise ProofError(phrase("mental.why.shuffle_proof_has_wrong_length"))
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

        t1 = msm(((self.s1.value, BASE), (-c, sub(sum_points(pc), generator_sum(size)))))
        t2 = msm(((self.s2.value, BASE), (-c, chain[-1]), (c * u_prod, h0)))
        # Σ α_i·(ŝ-part + s'_i·ĉ_{i-1} − c·ĉ_i): msm merges the two terms on each ĉ.
        t_hat = msm(
            [
                (self.s_hat.value, BASE),
                *((alpha[i] * s_out[i], before) for i, before in enumerate([h0, *chain[:-1]])),
                *((-c * alpha[i], chain[i]) for i in range(size)),
            ]
        )
        sent = (self.t3.raw, self.t41.raw, self.t42.raw)
        if _final_challenge(transcript, (t1, t2, *sent, t_hat)) != c:
            raise ProofError(phrase("mental.why.shuffle_proof_does_not_verify"))
        return [
            (
                [(self.s3.value, BASE), *zip(s_out, h, strict=True), *zip(cu, pc, strict=True)],
                sent[0],
            ),
            (
                [
                    (-self.s4.value, pk),
                    *zip(s_out, (card.c2.raw for card in outputs.cards), strict=True),
                    *zip(cu, (card.c2.raw for card in inputs.cards), strict=True),
                ],
                sent[1],
            ),
            (
                [
                    (-self.s4.value, BASE),
                    *zip(s_out, (card.c1.raw for card in outputs.cards), strict=True),
                    *zip(cu, (card.c1.raw for card in inputs.cards), strict=True),
                ],
                sent[2],
            ),
        ]

    def to_bytes(self) -> bytes:
        """`pc_0.. ‖ ĉ_0.. ‖ t3 ‖ t41 ‖ t42 ‖ c ‖ s1 ‖ s2 ‖ s3 ‖ s4 ‖ ŝ ‖ s'_0..s'_{N-1}`."""
        scalars = (self.challenge, self.s1, self.s2, self.s3, self.s4, self.s_hat)
        return b"".join(
            (
                *(p.raw for p in self.commitments),
                *(p.raw for p in self.chain),
                self.t3.raw,
                self.t41.raw,
                self.t42.raw,
                *(s.to_bytes() for s in scalars),
                *(s.to_bytes() for s in self.responses),
            )
        )

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
            t3=reader.point(),
            t41=reader.point(),
            t42=reader.point(),
            challenge=reader.scalar(),
            s1=reader.scalar(),
            s2=reader.scalar(),
            s3=reader.scalar(),
            s4=reader.scalar(),
            s_hat=reader.scalar(),
            responses=reader.scalars(size),
        )
