"""Shared table fixtures: fixed identities, a genesis and a set-up transcript."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import pytest

from p2p_dominoes.session import (
    Envelope,
    Genesis,
    Identity,
    Int,
    MessageRegistry,
    MessageType,
    SeatInfo,
    Text,
    Transcript,
    check_setup_message,
    default_registry,
    record,
    seat_commitment,
    sign_genesis,
)

# A hand-flow-like message type that a later layer would register: shows how types plug in.
NOTE = MessageType(100, "test_note", record(("text", Text(200)), ("n", Int(0, 1000))))
RULES = ("draw", 1, (7, 7, 5, 5), True, None, b"\x00")
TABLE_ID = bytes(range(16))


def fixed_identity(label: str) -> Identity:
    """A reproducible identity (the seed is a hash of the label), for vectors and tests."""
    return Identity.from_private_bytes(hashlib.sha256(label.encode()).digest())


def fixed_nonce(label: str) -> bytes:
    """A reproducible table nonce for the seat whose identity has ``label``."""
    return hashlib.sha256(b"table nonce/" + label.encode()).digest()


def make_registry() -> MessageRegistry:
    return default_registry().extended(NOTE)


@dataclass
class Table:
    ids: list[Identity]
    nonces: list[bytes]
    genesis: Genesis
    registry: MessageRegistry
    transcript: Transcript

    def note(
        self, seat: int, text: str = "hi", n: int = 1, identity: Identity | None = None
    ) -> Envelope:
        """A NOTE from ``seat`` on the current head, signed by its own key unless overridden."""
        signer = identity or self.ids[seat]
        return self.transcript.sign_next(signer, seat, NOTE, (text, n))


def make_table(seats: int = 3, *, set_up: bool = True) -> Table:
    ids = [fixed_identity(f"player {i}") for i in range(seats)]
    nonces = [fixed_nonce(f"player {i}") for i in range(seats)]
    seat_infos = tuple(
        SeatInfo(f"P{i}", k.public, seat_commitment(k.public, nonces[i])) for i, k in enumerate(ids)
    )
    genesis = Genesis(TABLE_ID, RULES, seat_infos)
    registry = make_registry()
    transcript = Transcript(genesis.sign(ids[0], 0), registry)
    if set_up:
        for seat in range(seats):
            signed = sign_genesis(transcript, ids[seat], seat, nonces[seat])
            transcript.append(signed, check_setup_message)
    return Table(ids, nonces, genesis, registry, transcript)


@pytest.fixture
def table() -> Table:
    return make_table()
