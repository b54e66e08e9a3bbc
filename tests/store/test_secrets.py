"""Per-hand secrets: stored 0600 before they are returned, and the same keys after a restart."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from p2p_dominoes.mental import HandContext
from p2p_dominoes.mental.randomness import DeterministicRandom
from p2p_dominoes.store import HandSecrets, SecretsFileError, secrets_path
from p2p_dominoes.store.secrets import decode_secrets, encode_secrets

CTX = HandContext(bytes(range(16)), 1, 4)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_keys_are_on_disk_0600_when_returned_and_come_back_after_a_restart(
    tmp_path: Path,
) -> None:
    table = tmp_path / "data" / "tables" / "t"
    keys = HandSecrets(table).keys_for(CTX, 2, DeterministicRandom(b"seat 2"))
    path = secrets_path(table, 1)
    assert path.name == "hand-1.key"
    assert mode(path) == 0o600 and mode(table) == 0o700 and mode(tmp_path / "data") == 0o700
    assert decode_secrets(path.read_bytes(), CTX) == keys
    again = HandSecrets(table).keys_for(CTX, 2, DeterministicRandom(b"other randomness"))
    assert again == keys and again.secret == keys.secret


def test_each_hand_has_its_own_keys(tmp_path: Path) -> None:
    secrets = HandSecrets(tmp_path)
    first = secrets.keys_for(CTX, 0)
    second = secrets.keys_for(HandContext(CTX.table_id, 2, 4), 0)
    assert first.secret != second.secret
    secrets.forget(1)
    assert not secrets_path(tmp_path, 1).exists() and secrets_path(tmp_path, 2).exists()
    assert secrets.load(CTX) is None


def test_keys_of_another_table_hand_or_seat_are_refused(tmp_path: Path) -> None:
    secrets = HandSecrets(tmp_path)
    secrets.keys_for(CTX, 0)
    with pytest.raises(SecretsFileError, match="for seat 1, not 2"):
        secrets.keys_for(CTX, 1)
    other_table = HandContext(bytes(16), 1, 4)
    with pytest.raises(SecretsFileError, match="another table or hand"):
        secrets.load(other_table)


def test_an_exposed_or_corrupt_file_is_refused(tmp_path: Path) -> None:
    secrets = HandSecrets(tmp_path)
    keys = secrets.keys_for(CTX, 3)
    path = secrets_path(tmp_path, 1)
    os.chmod(path, 0o644)
    with pytest.raises(SecretsFileError, match="chmod 600"):
        secrets.load(CTX)
    data = bytearray(encode_secrets(CTX, keys))
    data[-70] ^= 1  # inside the key reveal
    path.unlink()
    path.write_bytes(bytes(data))
    os.chmod(path, 0o600)
    with pytest.raises(SecretsFileError):
        secrets.load(CTX)


def test_save_never_overwrites(tmp_path: Path) -> None:
    secrets = HandSecrets(tmp_path)
    keys = secrets.keys_for(CTX, 0)
    with pytest.raises(FileExistsError):
        secrets.save(CTX, keys)


def test_audited_hands_are_forgotten_and_the_rest_when_the_table_ends(tmp_path: Path) -> None:
    from p2p_dominoes.session.events import HandRedealt, HandStarted

    secrets = HandSecrets(tmp_path)
    for number in (1, 2, 3, 4):
        secrets.keys_for(HandContext(CTX.table_id, number, 4), 0)
    (tmp_path / "hand-x.key").write_bytes(b"not ours")  # other names are left alone
    secrets.forget_audited([HandStarted(3), HandRedealt(2, ())])
    assert secrets.stored_hands() == [1, 3, 4]
    secrets.forget_before(4)
    assert secrets.stored_hands() == [4]
    secrets.forget_all()
    assert secrets.stored_hands() == [] and (tmp_path / "hand-x.key").exists()
    assert HandSecrets(tmp_path / "missing").stored_hands() == []
