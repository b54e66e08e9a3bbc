"""Identities: signing, verification, key validation, fingerprints, no secret leaks."""

from __future__ import annotations

import base64
import hashlib
import pickle
import re

import pytest

from p2p_dominoes.session import Identity, InvalidIdentity, PublicIdentity
from tests.session.conftest import fixed_identity

L = 2**252 + 27742317777372353535851937790883648493


def test_sign_and_verify() -> None:
    alice = Identity.generate()
    signature = alice.sign(b"play [3|5]")
    assert len(signature) == 64
    assert alice.public.verify(signature, b"play [3|5]")
    assert not alice.public.verify(signature, b"play [3|6]")
    assert not Identity.generate().public.verify(signature, b"play [3|5]")


def test_public_key_round_trips_through_raw_bytes() -> None:
    alice = Identity.generate()
    again = PublicIdentity(alice.public.raw)
    assert again == alice.public and hash(again) == hash(alice.public)
    assert len(again.raw) == 32


def test_private_seed_round_trip_is_deterministic() -> None:
    alice = Identity.generate()
    clone = Identity.from_private_bytes(alice.private_bytes())
    assert clone.public == alice.public
    assert clone.sign(b"x") == alice.sign(b"x")  # Ed25519 is deterministic


@pytest.mark.parametrize(
    "signature",
    [b"", b"\x00" * 63, b"\x00" * 65, "x" * 64, bytearray(64)],
)
def test_malformed_signatures_do_not_verify(signature: object) -> None:
    assert not Identity.generate().public.verify(signature, b"data")  # type: ignore[arg-type]


def test_signature_with_s_plus_l_is_rejected() -> None:
    """Non-malleable: nobody but the signer can derive a second valid signature."""
    alice = Identity.generate()
    signature = alice.sign(b"data")
    s = int.from_bytes(signature[32:], "little") + L
    assert s < 2**256
    assert not alice.public.verify(signature[:32] + s.to_bytes(32, "little"), b"data")


@pytest.mark.parametrize(
    ("raw", "why"),
    [
        (b"\x01" + b"\x00" * 31, "identity point: one signature would verify every message"),
        (b"\x00" * 32, "small-order point"),
        (b"\xee" + b"\xff" * 30 + b"\x7f", "y = p + 1: a non-canonical encoding of y = 1"),
        (b"\x01" + b"\x00" * 30 + b"\x80", "identity point with the sign bit set"),
        (b"\xff" * 31 + b"\x7f", "y >= p is not canonical"),
        (b"\x00" * 31, "too short"),
        (b"\x00" * 33, "too long"),
    ],
)
def test_weak_or_malformed_public_keys_are_rejected(raw: bytes, why: str) -> None:
    with pytest.raises(InvalidIdentity):
        PublicIdentity(raw)


def test_small_order_key_would_accept_a_universal_signature() -> None:
    """Why PublicIdentity validates: with the identity point, (R=O, S=0) 'signs' anything."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    weak = Ed25519PublicKey.from_public_bytes(b"\x01" + b"\x00" * 31)
    weak.verify(b"\x01" + b"\x00" * 63, b"any message at all")  # does not raise
    with pytest.raises(InvalidIdentity):
        PublicIdentity(b"\x01" + b"\x00" * 31)


def test_public_key_must_be_bytes() -> None:
    with pytest.raises(InvalidIdentity):
        PublicIdentity(bytearray(Identity.generate().public.raw))  # type: ignore[arg-type]


def test_fingerprint_format_and_derivation() -> None:
    key = fixed_identity("alice").public
    expected = base64.b32encode(hashlib.sha256(key.raw).digest()[:20]).decode()
    assert key.fingerprint.replace("-", "") == expected
    assert re.fullmatch(r"[A-Z2-7]{4}(-[A-Z2-7]{4}){7}", key.fingerprint)
    assert key.short_fingerprint == key.fingerprint[:9]
    assert key.fingerprint != fixed_identity("bob").public.fingerprint


def test_fingerprint_vector() -> None:
    """Pinned so a second implementation can check its fingerprint code."""
    key = fixed_identity("alice").public
    assert key.raw.hex() == "d5bf4a3fcce717b0388bcc2749ebc148ad9969b23f45ee1b605fd58778576ac4"
    assert key.fingerprint == "DQGE-SDY3-KUUN-QFZ4-LXSG-2EYR-MDSL-FQGD"
    assert key.short_fingerprint == "DQGE-SDY3"


def test_secret_never_in_repr_or_str() -> None:
    alice = Identity.generate()
    seed = alice.private_bytes()
    for text in (repr(alice), str(alice), f"{alice}", repr([alice])):
        assert seed.hex() not in text.lower()
        assert base64.b64encode(seed).decode() not in text
        assert alice.public.fingerprint in text


def test_identity_refuses_pickling() -> None:
    with pytest.raises(TypeError):
        pickle.dumps(Identity.generate())


@pytest.mark.parametrize("seed", [b"", b"\x00" * 31, b"\x00" * 33, "x" * 32])
def test_private_seed_must_be_32_bytes(seed: object) -> None:
    with pytest.raises(InvalidIdentity):
        Identity.from_private_bytes(seed)  # type: ignore[arg-type]
