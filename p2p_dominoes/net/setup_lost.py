"""A seat lost while the genesis is being signed: noticed within seconds, and the table set up
again without it instead of waiting out the stall timeout.

Until every seat has signed the genesis nothing of the table exists but its signatures, so a
seat that is gone then (a closed laptop, a killed process) costs the others nothing if the host
frees its seat: the host marks the abandoned genesis "never started" in its log, tells every
other seat to come back to the lobby (a `refuse` with code ``again``, PROTOCOL.md §13), and signs
a fresh genesis (a new table id, new nonces) once the seats are full again. A joiner that loses
the host in that phase stops: the table never started.

The decision is a pure function of what the runtime knows (`lost_at_setup`), so it is tested
without a network; the runtime calls it on every tick of the setup phase (`stopping.py`).
"""

from __future__ import annotations

import os
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Final

from p2p_dominoes.words import line

SETUP_LOST_GRACE: Final = 10.0
"""Seconds a seat's connection may be down during the setup before its seat is freed: a peer
that crashed and is resumed at once keeps its seat, even on a busy machine where its start-up
alone takes seconds (5.2 s at worst in a loaded chaos run, where 6 s once freed a seat that was
coming back); one that is gone does not hold the others for long."""
SETUP_UNLINKED_GRACE: Final = 5.0
"""Seconds a seat may take, after the setup began, to connect at all."""
SETUP_SILENT: Final = 30.0
"""Seconds a connected seat may take to sign the genesis (its peer only checks and signs: a
person is not asked anything). Never more than the rules' stall timeout."""
SETUP_RESUME_WAIT: Final = 15.0
"""Seconds `resume` of a table still in its setup looks for a peer that carries it on; the
host frees a lost seat within seconds, so after this the table is known not to have started."""
AGAIN_CODE: Final = "again"
"""The lobby refusal code with which a host sends its seats back to the lobby (PROTOCOL.md §13):
a seat was lost before the table started, and a fresh genesis follows."""
UNSTARTED_CODE: Final = "unstarted"
"""The lobby refusal code with which a host answers a seat of a genesis it abandoned."""
PAUSE_BEFORE_SIGNING: Final = "P2P_DOMINOES_TEST_PAUSE_BEFORE_GENESIS_SIGN"
"""Test hook (tests/chaos/test_setup_lost.py): a joiner with this variable set to a number of
seconds waits that long, with the genesis on disk and unsigned, before it connects to the other
seats and signs it; the chaos tests kill it (or its host) in that window. Unset in normal use."""


@dataclass(frozen=True)
class SetupLost:
    """Why this peer's table never started: a seat gone before every seat signed the genesis."""

    seat: int
    """The seat that was lost (0: the host)."""
    told: bool = False
    """The host said so (a joiner goes back to the lobby); False: we found it ourselves."""
    words: str = ""
    """The host's own words, when it said so (cleaned before display)."""


def lost_at_setup(
    *,
    own_seat: int,
    seats: int,
    links: Collection[int],
    lost: Mapping[int, float],
    signed: Collection[int],
    expected: int | None,
    started: float,
    now: float,
    stall_timeout: float,
    unlinked_grace: float = SETUP_UNLINKED_GRACE,
) -> int | None:
    """The seat lost before the genesis was signed by everyone, or None.

    The host (seat 0) watches every other seat: one whose connection has been down
    SETUP_LOST_GRACE seconds, one that never connected within SETUP_UNLINKED_GRACE, or the seat
    whose signature is awaited for longer than SETUP_SILENT (or the stall timeout, if shorter).
    A joiner watches only the host, which decides for everyone else. `unlinked_grace` is longer
    for a peer resumed from its log (the others dial it again with backoff).
    """
    watched = range(1, seats) if own_seat == 0 else (0,)
    for seat in watched:
        if seat == own_seat:
            continue
        if seat in lost and now - lost[seat] >= SETUP_LOST_GRACE:
            return seat
        if seat not in links and seat not in lost and now - started >= unlinked_grace:
            return seat
    silent = min(SETUP_SILENT, stall_timeout)
    if own_seat == 0 and expected not in (None, own_seat, *signed) and now - started >= silent:
        return expected
    return None


def pause_before_signing() -> float:
    """The test hook's pause (seconds; 0 when the variable is unset or not a number)."""
    text = os.environ.get(PAUSE_BEFORE_SIGNING, "")
    try:
        return max(0.0, float(text)) if text else 0.0
    except ValueError:
        return 0.0


def setup_said(key: str, lang: str, **values: object) -> str:
    """The line `key` about a setup that lost a seat, in `lang` ("ru", else English): the
    catalogue's ``setup.<key>`` (p2p_dominoes/words)."""
    return line(f"setup.{key}", lang, **values)


NEVER_STARTED_PREFIX: Final = "never started:"
"""How a table log's finish record begins when its genesis was abandoned (`resume` says so)."""
LOG_REASON: Final = (
    NEVER_STARTED_PREFIX
    + " seat {seat} ({name}) was lost before every seat signed the table's start"
)
"""The finish record of an abandoned genesis's log (kept in English, like every finish record)."""
