"""A played hand to log, shared by the store tests (playing one takes a fraction of a second)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from p2p_dominoes.session.transcript import Transcript
from p2p_dominoes.store import TableLog
from tests.session.tables import play_table


def played_transcript(players: int = 2) -> Transcript:
    """The transcript of one honest hand of the draw game (seat 0's copy), played once."""
    return _played(players)


@cache
def _played(players: int) -> Transcript:
    return play_table("draw", players, hands=1).sessions[0].transcript


def messages(players: int = 2) -> list[bytes]:
    """Every message of that hand, the genesis first, as a peer logs them."""
    return [entry.encoded for entry in played_transcript(players).entries]


def write_log(directory: Path, players: int = 2, count: int | None = None) -> list[bytes]:
    """A closed log holding the first ``count`` messages of the hand (all by default)."""
    transcript = played_transcript(players)
    held = messages(players)[: count if count is not None else None]
    with TableLog.create(
        directory, transcript.table_id, 1, held[0], name="Kitchen", max_hands=1
    ) as log:
        for data in held[1:]:
            log.append(data)
    return held
