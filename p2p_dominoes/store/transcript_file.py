"""Saving and loading transcript files (format in PROTOCOL.md §8), written atomically 0600."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Final

from p2p_dominoes.session.envelope import MessageRegistry
from p2p_dominoes.session.errors import InvalidMessage
from p2p_dominoes.session.transcript import Check, Transcript
from p2p_dominoes.store._atomic import write_private_replace
from p2p_dominoes.words import phrase

MAX_TRANSCRIPT_FILE_SIZE: Final = 256 * 1024 * 1024


_TEMP_SUFFIX: Final = re.compile(r"\.tmp-[0-9a-f]{16}")


def save_transcript(path: str | os.PathLike[str], transcript: Transcript) -> None:
    """Write the whole transcript to ``path`` atomically (temp file, fsync, rename); an
    interrupted write (Ctrl+C) leaves the previous file and no temp file beside it, and a
    write that succeeds clears the temp files an earlier writer left when it was killed."""
    path = Path(path)
    try:
        write_private_replace(path, transcript.to_bytes())
    finally:
        discard_unfinished_writes(path)


def discard_unfinished_writes(path: str | os.PathLike[str]) -> None:
    """Remove the temp files (``.NAME.tmp-*``) that writes of ``path`` left when they were
    stopped midway: by Ctrl+C, or by a kill of the process that wrote them."""
    path = Path(path)
    prefix = f".{path.name}"
    try:
        candidates = list(path.parent.iterdir())
    except OSError:
        return
    for candidate in candidates:
        name = candidate.name
        if not name.startswith(prefix) or _TEMP_SUFFIX.fullmatch(name[len(prefix) :]) is None:
            continue
        try:
            if candidate.is_file() and candidate.stat().st_uid == os.getuid():
                candidate.unlink()
        except OSError:
            continue


def load_transcript(
    path: str | os.PathLike[str], registry: MessageRegistry, check: Check | None = None
) -> Transcript:
    """Read and fully re-verify a transcript file; InvalidMessage names the first bad record."""
    path = Path(path)
    with path.open("rb") as handle:
        data = handle.read(MAX_TRANSCRIPT_FILE_SIZE + 1)
    if len(data) > MAX_TRANSCRIPT_FILE_SIZE:
        raise InvalidMessage(
            "bad-file",
            phrase(
                "store.why.transcript_too_large",
                path=path,
                max_transcript_file_size=MAX_TRANSCRIPT_FILE_SIZE,
            ),
        )
    return Transcript.from_bytes(data, registry, check)
