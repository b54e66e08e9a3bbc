"""This seat's secret table nonce on disk: written (0600, fsync) before the table's log.

The genesis fixes a commitment to each seat's nonce, and the seat reveals the nonce in its
``genesis_sign`` (PROTOCOL.md §7.2). A peer that crashes after sitting down but before that
message went out must reveal the *same* nonce when it resumes (a new one would not open its
commitment and the table would stop), so it is kept with the table's other secrets. It is not
derived from the identity key: a derivation needs an input that is fresh for every table, which
would have to be stored anyway, and a stored random value puts nothing else at risk.

File: ``DATA/tables/<table id hex>/table.nonce``, mode 0600, written atomically::

    "P2PD-TN" 01 ‖ table_id (16) ‖ seat (1) ‖ nonce (32)

The nonce is public once the seat's ``genesis_sign`` is in the transcript.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Final

from p2p_dominoes.session import TABLE_ID_SIZE, TABLE_NONCE_SIZE
from p2p_dominoes.store._atomic import make_private_dirs, read_private, write_private_new
from p2p_dominoes.words import phrase

NONCE_MAGIC: Final = b"P2PD-TN\x01"
NONCE_FILE_NAME: Final = "table.nonce"
_SIZE: Final = len(NONCE_MAGIC) + TABLE_ID_SIZE + 1 + TABLE_NONCE_SIZE


class NonceFileError(Exception):
    """A table-nonce file cannot be used; one line naming the file and why."""


class TableNonceFile:
    """The table nonce of one seat at one table, kept in the table's directory."""

    def __init__(self, directory: str | os.PathLike[str]) -> None:
        self.path = Path(directory) / NONCE_FILE_NAME

    def save(self, table_id: bytes, seat: int, nonce: bytes) -> None:
        """Write a new 0600 file (FileExistsError if there is one), fsynced with its directory."""
        if len(table_id) != TABLE_ID_SIZE or len(nonce) != TABLE_NONCE_SIZE:
            raise ValueError("a table id is 16 bytes and a table nonce 32")
        if not 0 <= seat <= 255:
            raise ValueError("a seat number is 0..255")
        make_private_dirs(self.path.parent)
        write_private_new(self.path, NONCE_MAGIC + table_id + bytes([seat]) + nonce)

    def load(self, table_id: bytes, seat: int) -> bytes:
        """The stored nonce; NonceFileError if missing, unsafe, corrupt or for another seat."""
        try:
            data = read_private(self.path, _SIZE, NonceFileError, "table nonce file")
        except FileNotFoundError:
            raise NonceFileError(
                phrase("store.why.table_s_nonce_missing", path=self.path)
            ) from None
        if len(data) != _SIZE or not data.startswith(NONCE_MAGIC):
            raise NonceFileError(phrase("store.why.not_p2p_dominoes_table_nonce", path=self.path))
        stored_id = data[len(NONCE_MAGIC) : len(NONCE_MAGIC) + TABLE_ID_SIZE]
        stored_seat = data[len(NONCE_MAGIC) + TABLE_ID_SIZE]
        if stored_id != table_id or stored_seat != seat:
            raise NonceFileError(phrase("store.why.nonce_another_table_or_seat", path=self.path))
        return data[-TABLE_NONCE_SIZE:]
