"""The identity file: created 0600 atomically, reloaded, and refused when unsafe or corrupt."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from p2p_dominoes.session import Identity
from p2p_dominoes.store import (
    IDENTITY_FILE_NAME,
    IdentityFileError,
    load_identity_file,
    load_or_create_identity,
    write_identity_file,
)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_create_then_load_same_identity(tmp_path: Path) -> None:
    home = tmp_path / "config" / "p2p-dominoes"
    first = load_or_create_identity(home)
    path = home / IDENTITY_FILE_NAME
    assert mode(path) == 0o600
    assert mode(home) == 0o700
    assert load_or_create_identity(home).public == first.public
    assert load_identity_file(path).public == first.public
    assert sorted(p.name for p in home.iterdir()) == [IDENTITY_FILE_NAME]  # no temp files left


def test_file_is_standard_pkcs8_pem(tmp_path: Path) -> None:
    identity = load_or_create_identity(tmp_path)
    pem = (tmp_path / IDENTITY_FILE_NAME).read_bytes()
    assert pem.startswith(b"-----BEGIN PRIVATE KEY-----")
    key = serialization.load_pem_private_key(pem, password=None)
    assert key.public_key().public_bytes_raw() == identity.public.raw  # type: ignore[union-attr]


def test_mode_is_0600_whatever_the_umask(tmp_path: Path) -> None:
    old = os.umask(0)
    try:
        load_or_create_identity(tmp_path)
    finally:
        os.umask(old)
    assert mode(tmp_path / IDENTITY_FILE_NAME) == 0o600


@pytest.mark.parametrize("bad_mode", [0o644, 0o640, 0o604, 0o660, 0o666, 0o620])
def test_group_or_world_accessible_file_refused(tmp_path: Path, bad_mode: int) -> None:
    load_or_create_identity(tmp_path)
    path = tmp_path / IDENTITY_FILE_NAME
    path.chmod(bad_mode)
    with pytest.raises(IdentityFileError) as caught:
        load_or_create_identity(tmp_path)
    message = str(caught.value)
    assert "\n" not in message and f"{bad_mode:04o}" in message and "chmod 600" in message


def test_owner_only_stricter_modes_accepted(tmp_path: Path) -> None:
    load_or_create_identity(tmp_path)
    (tmp_path / IDENTITY_FILE_NAME).chmod(0o400)
    load_or_create_identity(tmp_path)


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"garbage",
        b"-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n",
        b"\x00" * 5000,
    ],
)
def test_corrupt_file_gives_one_line_error(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / IDENTITY_FILE_NAME
    path.write_bytes(content)
    path.chmod(0o600)
    with pytest.raises(IdentityFileError, match="corrupt") as caught:
        load_or_create_identity(tmp_path)
    assert "\n" not in str(caught.value) and str(path) in str(caught.value)


def test_truncated_real_key_is_corrupt(tmp_path: Path) -> None:
    load_or_create_identity(tmp_path)
    path = tmp_path / IDENTITY_FILE_NAME
    path.write_bytes(path.read_bytes()[:-20])
    with pytest.raises(IdentityFileError, match="corrupt"):
        load_identity_file(path)


def test_non_ed25519_key_refused(tmp_path: Path) -> None:
    path = tmp_path / IDENTITY_FILE_NAME
    pem = ec.generate_private_key(ec.SECP256R1()).private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    path.write_bytes(pem)
    path.chmod(0o600)
    with pytest.raises(IdentityFileError, match="non-Ed25519"):
        load_identity_file(path)


def test_encrypted_key_refused_as_corrupt(tmp_path: Path) -> None:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    path = tmp_path / IDENTITY_FILE_NAME
    path.write_bytes(
        Ed25519PrivateKey.generate().private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.BestAvailableEncryption(b"pw"),
        )
    )
    path.chmod(0o600)
    with pytest.raises(IdentityFileError, match="corrupt"):
        load_identity_file(path)


def test_symlink_and_directory_refused(tmp_path: Path) -> None:
    real = tmp_path / "real"
    load_or_create_identity(real)
    link_home = tmp_path / "linked"
    link_home.mkdir()
    (link_home / IDENTITY_FILE_NAME).symlink_to(real / IDENTITY_FILE_NAME)
    with pytest.raises(IdentityFileError):
        load_or_create_identity(link_home)
    dir_home = tmp_path / "dir"
    (dir_home / IDENTITY_FILE_NAME).mkdir(parents=True, mode=0o700)
    with pytest.raises(IdentityFileError):
        load_or_create_identity(dir_home)


def test_write_never_overwrites(tmp_path: Path) -> None:
    path = tmp_path / IDENTITY_FILE_NAME
    first = Identity.generate()
    write_identity_file(path, first)
    with pytest.raises(FileExistsError):
        write_identity_file(path, Identity.generate())
    assert load_identity_file(path).public == first.public
    assert [p.name for p in tmp_path.iterdir()] == [IDENTITY_FILE_NAME]


def test_missing_file_is_file_not_found(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        load_identity_file(tmp_path / "nope.pem")


def test_secret_not_in_error_messages(tmp_path: Path) -> None:
    identity = load_or_create_identity(tmp_path)
    path = tmp_path / IDENTITY_FILE_NAME
    path.chmod(0o644)
    with pytest.raises(IdentityFileError) as caught:
        load_identity_file(path)
    assert identity.private_bytes().hex() not in str(caught.value)
    assert b"PRIVATE" not in str(caught.value).encode()
