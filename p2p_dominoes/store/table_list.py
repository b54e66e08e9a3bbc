"""The tables of a data directory: each table's log summed up for ``resume`` and listings
(`TableSummary`, `list_tables`), and the earlier tables a player stopped by going silent in the
opener lottery (`lottery_stalls`), recalled when that player sits at a later table.

Read from the logs (`log_records.read_log`) without changing them; a log that cannot be read
is listed with its problem rather than hidden.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from p2p_dominoes.mental.errors import message_of
from p2p_dominoes.session import LOTTERY_STALL
from p2p_dominoes.session.identity import PublicIdentity
from p2p_dominoes.store.log_records import LOG_FILE_NAME, TableLogError, read_log
from p2p_dominoes.store.paths import tables_dir


@dataclass(frozen=True)
class TableSummary:
    """One table found in the data directory, for ``resume`` and listings.

    ``problem`` is set (and the other facts may be missing) when the log cannot be read.
    """

    directory: Path
    table_id: bytes
    name: str
    seat: int
    players: tuple[str, ...]
    messages: int
    finished: bool
    finish_reason: str | None
    modified: float
    dropped_bytes: int = 0
    problem: str | None = None


def list_tables(data: str | os.PathLike[str]) -> list[TableSummary]:
    """Every table with a log under ``DATA/tables``, the most recently written first."""
    root = tables_dir(data)
    try:
        children = sorted(root.iterdir())
    except FileNotFoundError:
        return []
    found: list[TableSummary] = []
    for child in children:
        path = child / LOG_FILE_NAME
        try:
            modified = path.stat().st_mtime
        except OSError:
            continue
        try:
            contents = read_log(path)
        except (TableLogError, OSError) as exc:
            try:
                table_id = bytes.fromhex(child.name)
            except ValueError:
                table_id = b""
            found.append(
                TableSummary(
                    child, table_id, "", 0, (), 0, False, None, modified, 0, message_of(exc)
                )
            )
            continue
        header = contents.header
        found.append(
            TableSummary(
                directory=child,
                table_id=header.table_id,
                name=header.name,
                seat=header.seat,
                players=tuple(seat.name for seat in contents.genesis.seats),
                messages=len(contents.messages),
                finished=contents.finished is not None,
                finish_reason=contents.finished,
                modified=modified,
                dropped_bytes=contents.dropped_bytes,
            )
        )
    found.sort(key=lambda summary: summary.modified, reverse=True)
    return found


@dataclass(frozen=True)
class LotteryStall:
    """An earlier table of this data directory that a seat stopped during the opener lottery."""

    key: PublicIdentity
    name: str
    """The player's name at that table."""
    table: str
    """That table's name (or the start of its id)."""
    modified: float


def lottery_stalls(
    data: str | os.PathLike[str], keys: Iterable[PublicIdentity]
) -> list[LotteryStall]:
    """The earlier tables, most recent first, that one of ``keys`` stopped by going silent
    during the opener lottery (its finish record says so, naming the seat)."""
    wanted = set(keys)
    found = []
    for summary in list_tables(data):
        reason = summary.finish_reason or ""
        seat_text, _, said = reason.partition(": ")
        if LOTTERY_STALL not in said or not seat_text.startswith("seat "):
            continue
        try:
            seat = int(seat_text.removeprefix("seat "))
            seats = read_log(summary.directory / LOG_FILE_NAME).genesis.seats
        except (ValueError, TableLogError, OSError):
            continue
        if 0 <= seat < len(seats) and seats[seat].key in wanted:
            table = summary.name or summary.table_id.hex()[:8]
            found.append(LotteryStall(seats[seat].key, seats[seat].name, table, summary.modified))
    return found
