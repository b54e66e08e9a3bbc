"""This peer's per-hand ElGamal secrets on disk: written (0600, fsync) before first use.

Each hand a seat draws a secret key share x_i and a lottery share and commits to both in its
first message of the hand. After a crash it cannot draw them again: new ones would not open
the commitment it already sent (and the others' messages are encrypted under the old key). So
the keys are stored *before* the commitment goes out and loaded when the peer resumes.

File: ``DATA/tables/<table id hex>/hand-<n>.key``, mode 0600, written atomically (temp file,
fsync, link, fsync of the directory)::

    "P2PD-HK" 01 ‖ HandContext.to_bytes() ‖ HandKeys.to_bytes()

The secret is published by the seat itself at the end of the hand (``secret_reveal``), so a
finished hand's file no longer needs protecting; :meth:`HandSecrets.forget` removes them.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Final

from p2p_dominoes.mental import SYSTEM_RANDOM, HandContext, HandKeys, RandomSource
from p2p_dominoes.mental.errors import EncodingError
from p2p_dominoes.mental.keys import new_hand_keys
from p2p_dominoes.store._atomic import make_private_dirs, read_private, write_private_new

SECRETS_MAGIC: Final = b"P2PD-HK\x01"
_MAX_SECRETS_FILE_SIZE: Final = 1024


class SecretsFileError(Exception):
    """A hand-secrets file cannot be used; one line naming the file and why."""


def secrets_path(directory: str | os.PathLike[str], hand_number: int) -> Path:
    """The file of hand ``hand_number``'s keys in a table directory."""
    if type(hand_number) is not int or hand_number < 0:
        raise ValueError("hand number must be a non-negative int")
    return Path(directory) / f"hand-{hand_number}.key"


def encode_secrets(ctx: HandContext, keys: HandKeys) -> bytes:
    """The file's bytes: magic, the hand it is for, the keys."""
    return SECRETS_MAGIC + ctx.to_bytes() + keys.to_bytes()


def decode_secrets(data: bytes, ctx: HandContext) -> HandKeys:
    """The keys in a file's bytes; EncodingError unless they are sound keys for ``ctx``."""
    prefix = SECRETS_MAGIC + ctx.to_bytes()
    if not data.startswith(SECRETS_MAGIC):
        raise EncodingError("not a p2p-dominoes hand-secrets file")
    if not data.startswith(prefix):
        raise EncodingError("the keys are for another table or hand")
    return HandKeys.from_bytes(data[len(prefix) :], ctx)


class HandSecrets:
    """The per-hand keys of one seat at one table, kept in the table's directory.

    ``keys_for`` is the hook a resumable session draws its hand keys through: the first call
    for a hand draws and stores them, a call after a restart loads the same ones.
    """

    def __init__(self, directory: str | os.PathLike[str]) -> None:
        self.directory = Path(directory)

    def keys_for(self, ctx: HandContext, seat: int, rng: RandomSource = SYSTEM_RANDOM) -> HandKeys:
        """This seat's keys for the hand of ``ctx``: loaded if stored, else drawn and stored.

        Returns only once the keys are durably on disk, so they may be used (committed to) at
        once. SecretsFileError if a stored file is unsafe, corrupt or for another seat.
        """
        stored = self.load(ctx)
        if stored is not None:
            if stored.seat != seat:
                path = secrets_path(self.directory, ctx.hand_number)
                raise SecretsFileError(f"{path}: the keys are for seat {stored.seat}, not {seat}")
            return stored
        keys = new_hand_keys(ctx, seat, rng)
        try:
            self.save(ctx, keys)
        except FileExistsError:  # written since we looked: use what is on disk
            stored = self.load(ctx)
            assert stored is not None
            return stored
        return keys

    def save(self, ctx: HandContext, keys: HandKeys) -> None:
        """Write a new 0600 file for the hand (FileExistsError if there is one), fsynced."""
        make_private_dirs(self.directory)
        write_private_new(secrets_path(self.directory, ctx.hand_number), encode_secrets(ctx, keys))

    def load(self, ctx: HandContext) -> HandKeys | None:
        """The stored keys for the hand of ``ctx``, or None if none were stored."""
        path = secrets_path(self.directory, ctx.hand_number)
        try:
            data = _read_private(path)
        except FileNotFoundError:
            return None
        try:
            return decode_secrets(data, ctx)
        except EncodingError as exc:
            raise SecretsFileError(f"{path}: {exc}") from None

    def forget(self, hand_number: int) -> None:
        """Delete a hand's keys (after the hand, when the seat has published its secret)."""
        secrets_path(self.directory, hand_number).unlink(missing_ok=True)


def _read_private(path: Path) -> bytes:
    return read_private(path, _MAX_SECRETS_FILE_SIZE, SecretsFileError, "hand secrets file")
