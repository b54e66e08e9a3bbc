"""The player's identity key on disk: a PKCS#8 PEM file readable by its owner only (0600)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Final

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    NoEncryption,
    PrivateFormat,
    load_pem_private_key,
)

from p2p_dominoes.session.identity import Identity
from p2p_dominoes.store._atomic import ensure_private_dir, read_private, write_private_new
from p2p_dominoes.words import phrase

IDENTITY_FILE_NAME: Final = "identity.pem"
_MAX_IDENTITY_FILE_SIZE: Final = 4096


class IdentityFileError(Exception):
    """The identity file cannot be used; the message is one line naming the file and why."""


def _to_pem(identity: Identity) -> bytes:
    key = Ed25519PrivateKey.from_private_bytes(identity.private_bytes())
    return key.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption())


def _read_private(path: Path) -> bytes:
    return read_private(path, _MAX_IDENTITY_FILE_SIZE, IdentityFileError, "identity file")


def load_identity_file(path: str | os.PathLike[str]) -> Identity:
    """Load an identity; IdentityFileError (one line) if unsafe or corrupt, FileNotFoundError."""
    path = Path(path)
    data = _read_private(path)
    try:
        key = load_pem_private_key(data, password=None)
    except Exception:  # ValueError, TypeError, UnsupportedAlgorithm: all mean "corrupt"
        raise IdentityFileError(
            phrase("store.why.identity_file_corrupt_not_unencrypted", path=path)
        ) from None
    if not isinstance(key, Ed25519PrivateKey):
        raise IdentityFileError(phrase("store.why.identity_file_holds_non_ed25519", path=path))
    return Identity(key)


def write_identity_file(path: str | os.PathLike[str], identity: Identity) -> None:
    """Write ``identity`` to a new 0600 file atomically; FileExistsError if it exists."""
    write_private_new(Path(path), _to_pem(identity))


def load_or_create_identity(directory: str | os.PathLike[str]) -> Identity:
    """The identity in ``directory``/identity.pem, created (dir 0700, file 0600) if missing."""
    directory = Path(directory)
    path = directory / IDENTITY_FILE_NAME
    try:
        return load_identity_file(path)
    except FileNotFoundError:
        pass
    try:
        ensure_private_dir(directory)
        identity = Identity.generate()
        write_identity_file(path, identity)
    except FileExistsError:  # another process created it first: use theirs
        return load_identity_file(path)
    except OSError as exc:
        raise IdentityFileError(
            phrase("store.why.cannot_create_identity_file", path=path, system=exc.strerror)
        ) from None
    return identity
