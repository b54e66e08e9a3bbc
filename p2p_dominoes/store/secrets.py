"""This peer's per-hand ElGamal secrets on disk: written (0600, fsync) before first use.

Each hand a seat draws a secret key share x_i and a lottery share and commits to both in its
first message of the hand. After a crash it cannot draw them again: new ones would not open
the commitment it already sent (and the others' messages are encrypted under the old key). So
the keys are stored *before* the commitment goes out and loaded when the peer resumes.

File: ``DATA/tables/<table id hex>/hand-<n>.key``, mode 0600, written atomically (temp file,
fsync, link, fsync of the directory)::

    "P2PD-HK" 01 ‖ HandContext.to_bytes() ‖ HandKeys.to_bytes()

The secret is published by the seat itself at the end of the hand (``secret_reveal``); kept on
disk after that, the file together with a halted hand's transcript would reveal the seat's tiles.
So the file is removed once the hand is audited (:meth:`HandSecrets.forget_audited`, right after
the log holds the audit's messages) and every file of the table once the table ends or is
abandoned (:meth:`HandSecrets.forget_all`). A resumed peer that must replay an audited hand
rebuilds that hand's keys from its own published messages (:meth:`HandSecrets.learn_published`)
instead of a file.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Final

from p2p_dominoes.mental import SYSTEM_RANDOM, HandContext, HandKeys, RandomSource
from p2p_dominoes.mental.encoding import u8
from p2p_dominoes.mental.errors import EncodingError, InvalidMessageError, message_of
from p2p_dominoes.mental.keys import new_hand_keys
from p2p_dominoes.mental.secret_reveal import SecretReveal
from p2p_dominoes.session.envelope import Envelope
from p2p_dominoes.session.events import Event, HandEnded, HandRedealt
from p2p_dominoes.session.hand_messages import KEY_COMMIT, KEY_REVEAL, SECRET_REVEAL
from p2p_dominoes.store._atomic import make_private_dirs, read_private, write_private_new
from p2p_dominoes.words import phrase

SECRETS_MAGIC: Final = b"P2PD-HK\x01"
_MAX_SECRETS_FILE_SIZE: Final = 1024
_FILE_NAME: Final = re.compile(r"hand-(0|[1-9][0-9]*)\.key")


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
        raise EncodingError(phrase("store.why.not_p2p_dominoes_hand_secrets"))
    if not data.startswith(prefix):
        raise EncodingError(phrase("store.why.keys_another_table_or_hand"))
    return HandKeys.from_bytes(data[len(prefix) :], ctx)


class HandSecrets:
    """The per-hand keys of one seat at one table, kept in the table's directory.

    ``keys_for`` is the hook a resumable session draws its hand keys through: the first call
    for a hand draws and stores them, a call after a restart loads the same ones.
    """

    def __init__(self, directory: str | os.PathLike[str]) -> None:
        self.directory = Path(directory)
        self._published: dict[int, tuple[bytes, bytes, bytes]] = {}
        """Per hand: our key_commit, key_reveal and secret_reveal payloads, from our log."""

    def learn_published(self, envelopes: Iterable[Envelope], seat: int) -> None:
        """Note the keys ``seat`` published in full (commitment, reveal, and the secret at the
        end of the hand): a resumed peer replays those hands with them, as their files were
        forgotten after the audit."""
        parts: dict[int, dict[str, bytes]] = {}
        names = {KEY_COMMIT: "commit", KEY_REVEAL: "reveal", SECRET_REVEAL: "secret"}
        for envelope in envelopes:
            name = names.get(envelope.type)
            if envelope.seat != seat or name is None:
                continue
            number, payload = envelope.field("hand"), envelope.field(name)
            if isinstance(number, int) and isinstance(payload, bytes):
                parts.setdefault(number, {})[name] = payload
        for number, found in parts.items():
            if len(found) == 3:
                self._published[number] = (found["commit"], found["reveal"], found["secret"])

    def keys_for(self, ctx: HandContext, seat: int, rng: RandomSource = SYSTEM_RANDOM) -> HandKeys:
        """This seat's keys for the hand of ``ctx``: loaded if stored, else drawn and stored.

        Returns only once the keys are durably on disk, so they may be used (committed to) at
        once. SecretsFileError if a stored file is unsafe, corrupt or for another seat. A hand
        whose keys were published in full (``learn_published``) needs no file.
        """
        published = self._from_published(ctx, seat)
        if published is not None:
            return published
        stored = self.load(ctx)
        if stored is not None:
            if stored.seat != seat:
                path = secrets_path(self.directory, ctx.hand_number)
                raise SecretsFileError(
                    phrase(
                        "store.why.keys_seat_not", path=path, seat=stored.seat + 1, seat2=seat + 1
                    )
                )
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
            raise SecretsFileError(
                phrase("store.why.in_file", path=path, reason=message_of(exc))
            ) from None

    def forget(self, hand_number: int) -> None:
        """Delete a hand's keys (after the hand, when the seat has published its secret)."""
        secrets_path(self.directory, hand_number).unlink(missing_ok=True)

    def forget_audited(self, events: Iterable[Event]) -> None:
        """Delete the keys of every hand these events say was audited (ended or redealt): the
        seat's secret is in the transcript by then, and the file would only be a liability.
        Call it once the log holds the messages that produced the events."""
        for event in events:
            if isinstance(event, HandEnded | HandRedealt):
                self.forget(event.number)

    def forget_before(self, hand_number: int) -> None:
        """Delete the keys of every hand numbered below ``hand_number`` (all audited)."""
        for number in self.stored_hands():
            if number < hand_number:
                self.forget(number)

    def forget_all(self) -> None:
        """Delete every hand's keys: the table is over or abandoned (halted)."""
        for number in self.stored_hands():
            self.forget(number)

    def stored_hands(self) -> list[int]:
        """The hand numbers whose key files are in the directory, in order."""
        try:
            names = os.listdir(self.directory)
        except FileNotFoundError:
            return []
        found = (_FILE_NAME.fullmatch(name) for name in names)
        return sorted(int(match.group(1)) for match in found if match is not None)

    def _from_published(self, ctx: HandContext, seat: int) -> HandKeys | None:
        parts = self._published.get(ctx.hand_number)
        if parts is None:
            return None
        commit, reveal, secret = parts
        try:
            value = SecretReveal.from_bytes(secret, seat).secret
            # The KeyCommit/KeyReveal wire forms carry their tag and seat, as HandKeys keeps them.
            data = u8(seat) + value.to_bytes() + commit + reveal
            return HandKeys.from_bytes(data, ctx)
        except (EncodingError, InvalidMessageError):
            return None  # not a sound set: fall back to the file, which the replay then checks


def _read_private(path: Path) -> bytes:
    return read_private(path, _MAX_SECRETS_FILE_SIZE, SecretsFileError, "hand secrets file")
