"""Timestamps for benchmarks (`host`/`join`/`demo --timing FILE`; not for players).

A peer given a timing file writes one JSON object per line::

    {"event": "applied", "i": 57, "type": "play", "seat": 2, "t": 123456789012345}

- ``t`` is ``time.monotonic_ns()``. On Linux that is CLOCK_MONOTONIC, one clock for every process
  on the machine, so lines from several peers (processes) can be compared directly;
- ``event`` is ``main`` (the command has parsed its arguments, the imports are done),
  ``listening``, ``seated`` (the genesis is known, play begins), ``acted`` (this peer's player
  chose an action; ``i`` is the transcript index its message will take), ``applied`` (message
  ``i`` of type ``type``, signed by ``seat``, is in this peer's transcript), ``hand-start``,
  ``tiles`` (this peer's tiles of a hand are known), ``hand-end`` and ``end``;
- ``i``, ``type`` and ``seat`` are absent where they do not apply; ``hand`` numbers the hand.

`p2p_dominoes.benchmarks.lan` reads these files.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import IO


class Timing:
    """An open timing file; :meth:`mark` appends a line, :meth:`close` flushes it."""

    def __init__(self, path: Path) -> None:
        self.path = path
        # Line-buffered: a peer that fails half-way still leaves its lines (a write is ~µs).
        self._file: IO[str] | None = path.open("w", encoding="utf-8", buffering=1)

    def mark(
        self,
        event: str,
        *,
        index: int | None = None,
        type_name: str | None = None,
        seat: int | None = None,
        hand: int | None = None,
    ) -> None:
        now = time.monotonic_ns()
        if self._file is None:
            return
        line: dict[str, object] = {"event": event, "t": now}
        for key, value in (("i", index), ("type", type_name), ("seat", seat), ("hand", hand)):
            if value is not None:
                line[key] = value
        self._file.write(json.dumps(line) + "\n")

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


def bot_timing_path(path: Path, name: str) -> Path:
    """Where a bot peer started by a host with timing file `path` writes its own timings."""
    return path.with_name(f"{path.name}.{name}")


def read_timing(path: Path) -> list[dict[str, object]]:
    """The lines of a timing file, parsed."""
    with path.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]
