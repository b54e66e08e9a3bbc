"""Saving and loading transcript files (format in PROTOCOL.md §8), written atomically 0600."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Final

from p2p_dominoes.session.envelope import MessageRegistry
from p2p_dominoes.session.errors import InvalidMessage
from p2p_dominoes.session.transcript import Check, Transcript
from p2p_dominoes.store._atomic import write_private_replace

MAX_TRANSCRIPT_FILE_SIZE: Final = 256 * 1024 * 1024


def save_transcript(path: str | os.PathLike[str], transcript: Transcript) -> None:
    """Write the whole transcript to ``path`` atomically (temp file, fsync, rename)."""
    write_private_replace(Path(path), transcript.to_bytes())


def load_transcript(
    path: str | os.PathLike[str], registry: MessageRegistry, check: Check | None = None
) -> Transcript:
    """Read and fully re-verify a transcript file; InvalidMessage names the first bad record."""
    path = Path(path)
    with path.open("rb") as handle:
        data = handle.read(MAX_TRANSCRIPT_FILE_SIZE + 1)
    if len(data) > MAX_TRANSCRIPT_FILE_SIZE:
        raise InvalidMessage("bad-file", f"{path}: larger than {MAX_TRANSCRIPT_FILE_SIZE} bytes")
    return Transcript.from_bytes(data, registry, check)
