"""Long-term Ed25519 player identities and their human fingerprints (pure, no I/O)."""

from __future__ import annotations

import base64
import hashlib
import secrets
from typing import Any, Final

import nacl.bindings
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)

PUBLIC_KEY_SIZE: Final = 32
PRIVATE_KEY_SIZE: Final = 32
SIGNATURE_SIZE: Final = 64
FINGERPRINT_GROUPS: Final = 8
SHORT_FINGERPRINT_GROUPS: Final = 2
_GROUP: Final = 4


class InvalidIdentity(ValueError):
    """Bytes that are not an acceptable Ed25519 key or signature."""


def _fingerprint_groups(raw: bytes) -> list[str]:
    """RFC 4648 base32 of the first 20 bytes of SHA-256(raw key), in groups of four."""
    text = base64.b32encode(hashlib.sha256(raw).digest()[:20]).decode("ascii")
    return [text[i : i + _GROUP] for i in range(0, len(text), _GROUP)]


class PublicIdentity:
    """A validated Ed25519 public key: verifies signatures and has a human fingerprint.

    Construction rejects anything but a canonical encoding of a point in the prime-order
    subgroup: a small-order key would make one signature valid for every message.
    """

    __slots__ = ("_key", "_raw")

    def __init__(self, raw: bytes) -> None:
        if type(raw) is not bytes:
            raise InvalidIdentity(f"public key must be bytes, not {type(raw).__name__}")
        if len(raw) != PUBLIC_KEY_SIZE:
            raise InvalidIdentity(f"public key must be {PUBLIC_KEY_SIZE} bytes, not {len(raw)}")
        if not nacl.bindings.crypto_core_ed25519_is_valid_point(raw):
            raise InvalidIdentity("public key is not a valid prime-order Ed25519 point")
        self._raw = raw
        self._key = Ed25519PublicKey.from_public_bytes(raw)

    @property
    def raw(self) -> bytes:
        """The 32-byte RFC 8032 encoding, as carried on the wire."""
        return self._raw

    def verify(self, signature: bytes, data: bytes) -> bool:
        """True when ``signature`` is this key's Ed25519 signature over ``data``."""
        if type(signature) is not bytes or len(signature) != SIGNATURE_SIZE:
            return False
        try:
            self._key.verify(signature, data)
        except InvalidSignature:
            return False
        return True

    @property
    def fingerprint(self) -> str:
        """Full fingerprint, 8 groups of 4 base32 characters (160 bits), e.g. ``ABCD-EFGH-…``."""
        return "-".join(_fingerprint_groups(self._raw))

    @property
    def short_fingerprint(self) -> str:
        """The first two groups (40 bits) for compact UI labels; compare the full one to trust."""
        return "-".join(_fingerprint_groups(self._raw)[:SHORT_FINGERPRINT_GROUPS])

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PublicIdentity):
            return NotImplemented
        return secrets.compare_digest(self._raw, other._raw)

    def __hash__(self) -> int:
        return hash(self._raw)

    def __repr__(self) -> str:
        return f"PublicIdentity({self.fingerprint})"


class Identity:
    """A player's long-term Ed25519 signing key. Its secret never appears in repr or str."""

    __slots__ = ("_key", "_public")

    def __init__(self, private_key: Ed25519PrivateKey) -> None:
        if not isinstance(private_key, Ed25519PrivateKey):
            raise InvalidIdentity("Identity needs an Ed25519PrivateKey")
        self._key = private_key
        self._public = PublicIdentity(private_key.public_key().public_bytes_raw())

    @classmethod
    def generate(cls) -> Identity:
        """A fresh identity from 32 bytes of ``secrets`` randomness (the RFC 8032 seed)."""
        return cls.from_private_bytes(secrets.token_bytes(PRIVATE_KEY_SIZE))

    @classmethod
    def from_private_bytes(cls, seed: bytes) -> Identity:
        """Rebuild an identity from its 32-byte RFC 8032 seed (for the store and test vectors)."""
        if type(seed) is not bytes or len(seed) != PRIVATE_KEY_SIZE:
            raise InvalidIdentity(f"private key seed must be {PRIVATE_KEY_SIZE} bytes")
        return cls(Ed25519PrivateKey.from_private_bytes(seed))

    def private_bytes(self) -> bytes:
        """The 32-byte secret seed. Only the store should call this; never log the result."""
        return self._key.private_bytes_raw()

    @property
    def public(self) -> PublicIdentity:
        """The public half, safe to share and display."""
        return self._public

    def sign(self, data: bytes) -> bytes:
        """The 64-byte deterministic Ed25519 signature over ``data``."""
        return self._key.sign(data)

    def __repr__(self) -> str:
        return f"Identity(public={self._public.fingerprint})"

    def __reduce__(self) -> str | tuple[Any, ...]:
        raise TypeError("Identity cannot be pickled; persist it with the store layer")
