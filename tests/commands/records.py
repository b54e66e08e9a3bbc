"""Records the command tests read: a 2-hand match of Ann and Bob, as a transcript file, as a
table log and as a table folder (the data directory's layout)."""

from __future__ import annotations

import os
import subprocess
import sys
from functools import cache
from pathlib import Path

from p2p_dominoes.bots import random_bot
from p2p_dominoes.engine import DRAW_RULES
from p2p_dominoes.session.events import Event, HandEnded
from p2p_dominoes.session.local import LocalTable
from p2p_dominoes.session.transcript import Transcript
from p2p_dominoes.store import TableLog

NAMES = ("Ann", "Bob")
HANDS = 2


@cache
def _match() -> tuple[Transcript, tuple[HandEnded, ...]]:
    ended: list[HandEnded] = []

    def keep(seat: int, event: Event) -> None:
        if seat == 0 and isinstance(event, HandEnded):
            ended.append(event)

    table = LocalTable.create(DRAW_RULES, NAMES, [random_bot] * 2, seed=4, max_hands=HANDS)
    table.on_event = keep
    table.run()
    assert not any(table.blames), table.blames
    return table.sessions[0].transcript, tuple(ended)


def match_transcript() -> Transcript:
    """Ann and Bob play a `--hands 2` match of the draw game (seat 0's copy), once."""
    return _match()[0]


def match_hands() -> tuple[HandEnded, ...]:
    """The two hands as seat 0 saw them ended (results and plain records)."""
    return _match()[1]


def write_transcript(path: Path) -> Path:
    """The match as a transcript file (as `--record` writes it)."""
    path.write_bytes(match_transcript().to_bytes())
    return path


def write_table_folder(folder: Path, count: int | None = None) -> Path:
    """Seat 1's table folder (its table.log) holding the first ``count`` messages (all)."""
    transcript = match_transcript()
    held = [entry.encoded for entry in transcript.entries][:count]
    with TableLog.create(folder, transcript.table_id, 1, held[0], name="Kitchen") as log:
        for data in held[1:]:
            log.append(data)
    return folder


def random_bytes(path: Path, size: int = 4096) -> Path:
    """A file of random bytes (not UTF-8, not a record)."""
    data = os.urandom(size)
    while data[:1].isascii():  # never by chance a JSON text or a magic
        data = os.urandom(size)
    path.write_bytes(b"\x95" + data)
    return path


def run(*args: str) -> subprocess.CompletedProcess[str]:
    """`p2p-dominoes ARGS` as a user runs it: its own process, output captured."""
    return subprocess.run(
        [sys.executable, "-m", "p2p_dominoes", *args], capture_output=True, text=True, timeout=120
    )
