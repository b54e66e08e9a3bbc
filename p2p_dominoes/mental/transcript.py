"""The Fiat–Shamir transcript: a SHA-512 over labelled, length-prefixed records.

Every record is `frame(label) ‖ frame(data)`. A transcript opens with the protocol label and
version, the proof's name, the hand context, the step and the prover seat, so a proof made for
another table, hand, step or seat cannot verify. Challenges hash a copy of the state followed by
a `challenge` record and reduce the 64-byte digest mod L, which leaves no noticeable bias.
"""

from __future__ import annotations

import hashlib

from p2p_dominoes.mental.context import PROTOCOL_LABEL, ProofBinding
from p2p_dominoes.mental.encoding import frame, u8, u16
from p2p_dominoes.mental.group import L


class Transcript:
    """A running Fiat–Shamir hash for one proof."""

    __slots__ = ("_hash",)

    def __init__(self, proof_name: bytes, binding: ProofBinding) -> None:
        self._hash = hashlib.sha512()
        self.append(b"protocol", PROTOCOL_LABEL)
        self.append(b"version", u16(binding.ctx.version))
        self.append(b"proof", proof_name)
        self.append(b"hand", binding.ctx.to_bytes())
        self.append(b"step", binding.step.to_bytes())
        self.append(b"prover", u8(binding.prover))

    def append(self, label: bytes, data: bytes) -> None:
        """Absorb one labelled record."""
        self._hash.update(frame(label) + frame(data))

    def challenge(self, label: bytes) -> int:
        """A scalar derived from everything absorbed so far and `label`; the state is unchanged."""
        h = self._hash.copy()
        h.update(frame(b"challenge") + frame(label))
        return int.from_bytes(h.digest(), "little") % L
