"""The table nonce file: 0600, written once, loaded only for its own table and seat."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from p2p_dominoes.session import new_table_nonce
from p2p_dominoes.store import NONCE_FILE_NAME, NonceFileError, TableNonceFile

TABLE_ID = bytes(range(16))


def test_a_nonce_is_kept_0600_and_loaded_back(tmp_path: Path) -> None:
    directory = tmp_path / "tables" / TABLE_ID.hex()
    nonce = new_table_nonce()
    TableNonceFile(directory).save(TABLE_ID, 2, nonce)
    path = directory / NONCE_FILE_NAME
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(directory.stat().st_mode) == 0o700
    assert TableNonceFile(directory).load(TABLE_ID, 2) == nonce
    with pytest.raises(FileExistsError):  # never overwritten: the commitment is already out
        TableNonceFile(directory).save(TABLE_ID, 2, new_table_nonce())
    assert TableNonceFile(directory).load(TABLE_ID, 2) == nonce


def test_a_nonce_for_another_table_or_seat_or_a_bad_file_is_refused(tmp_path: Path) -> None:
    files = TableNonceFile(tmp_path)
    with pytest.raises(NonceFileError, match="missing"):
        files.load(TABLE_ID, 0)
    files.save(TABLE_ID, 1, new_table_nonce())
    with pytest.raises(NonceFileError, match="another table or seat"):
        files.load(TABLE_ID, 0)
    with pytest.raises(NonceFileError, match="another table or seat"):
        files.load(b"\x01" * 16, 1)
    os.chmod(files.path, 0o644)
    with pytest.raises(NonceFileError, match="group or others"):
        files.load(TABLE_ID, 1)
    os.chmod(files.path, 0o600)
    files.path.write_bytes(b"P2PD-TN\x01short")
    with pytest.raises(NonceFileError, match="not a p2p-dominoes"):
        files.load(TABLE_ID, 1)
