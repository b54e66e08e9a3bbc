"""A bot seat's own small data directory under its host's table: who it is and how it plays.

A host that starts bot peers gives each one ``DATA/tables/<table id>/bots/<name>/``: the bot's
identity key (made by the host, 0600), a ``bot.json`` naming its strategy, and the bot's own
``tables/`` (its crash-safe log and hand secrets). When the host resumes the table, it finds its
bots here and resumes each one on its directory (docs/files.md).
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from p2p_dominoes.mental.errors import message_of
from p2p_dominoes.session import Identity, PublicIdentity
from p2p_dominoes.store._atomic import make_private_dirs, read_private, write_private_replace
from p2p_dominoes.store.identity_file import (
    IDENTITY_FILE_NAME,
    IdentityFileError,
    load_identity_file,
    write_identity_file,
)
from p2p_dominoes.store.paths import table_dir
from p2p_dominoes.words import phrase

BOTS_DIR_NAME: Final = "bots"
BOT_FILE_NAME: Final = "bot.json"
_BOT_NAME: Final = re.compile(r"[a-z0-9][a-z0-9-]{0,31}")
_BOT_FILE_LIMIT: Final = 4096


class BotSeatError(Exception):
    """A bot seat's directory cannot be written or read."""


@dataclass(frozen=True)
class BotSeat:
    """One bot peer a host started: its name, strategy and data directory."""

    name: str
    strategy: str
    directory: Path


def bot_dir(data: str | os.PathLike[str], table_id: bytes, name: str) -> Path:
    """The data directory of bot `name` at a host's table: ``DATA/tables/<id>/bots/<name>``."""
    if not _BOT_NAME.fullmatch(name):
        raise ValueError(f"{name!r} is not a bot seat name")
    return table_dir(data, table_id) / BOTS_DIR_NAME / name


def keep_bot_seat(
    data: str | os.PathLike[str], table_id: bytes, name: str, strategy: str, identity: Identity
) -> BotSeat:
    """Make a bot's directory (0700) with its identity key (0600) and strategy file."""
    directory = bot_dir(data, table_id, name)
    try:
        make_private_dirs(directory)
        write_identity_file(directory / IDENTITY_FILE_NAME, identity)
        record = json.dumps({"name": name, "strategy": strategy}).encode()
        write_private_replace(directory / BOT_FILE_NAME, record)
    except OSError as exc:
        raise BotSeatError(
            phrase(
                "store.why.cannot_keep_bot", name=name, directory=directory, reason=message_of(exc)
            )
        ) from None
    return BotSeat(name, strategy, directory)


def bot_seats(table_directory: str | os.PathLike[str]) -> list[BotSeat]:
    """The bots a host started at the table kept in `table_directory` (by name); a directory
    whose bot file is missing or unreadable is left out."""
    root = Path(table_directory) / BOTS_DIR_NAME
    try:
        children = sorted(root.iterdir())
    except OSError:
        return []
    seats = []
    for child in children:
        try:
            data = read_private(child / BOT_FILE_NAME, _BOT_FILE_LIMIT, BotSeatError, "bot file")
            record = json.loads(data)
        except (OSError, BotSeatError, ValueError):
            continue
        name, strategy = record.get("name"), record.get("strategy")
        if (
            isinstance(name, str)
            and isinstance(strategy, str)
            and name == child.name
            and _BOT_NAME.fullmatch(name)
        ):
            seats.append(BotSeat(name, strategy, child))
    return seats


def bot_seat_key(bot: BotSeat) -> PublicIdentity | None:
    """The public key of the bot kept in `bot`'s directory (which seat it holds), or None when
    its identity file is missing or unreadable."""
    try:
        return load_identity_file(bot.directory / IDENTITY_FILE_NAME).public
    except (OSError, IdentityFileError):
        return None
