"""Honest hands of every table size and preset, and the checkpoints the validator fuzz uses.

A checkpoint is a moment just before a peer receives the next real message: a private copy
of that receiving peer's session, the message, and the identities (so that a test can re-sign
a mutated body as the sender, or as anyone else). Every message of every hand is one, so every
message type is fuzzed in every phase it occurs in, for every preset (each at one table size,
the sizes it allows taken in turn, so the run grows by one table per preset, not three) and a
four-seat version 2 table with two doubles a turn, for `skip` and the v2 `play` and
`lead_claim`, and a three-seat version 4 table a seat leaves (`goodbye`, `continue`,
`continue_sign`).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from functools import cache

from p2p_dominoes.bots import random_bot
from p2p_dominoes.engine import DRAW, PASS, PRESETS, TILES, Rules
from p2p_dominoes.engine.actions import LEADS, PLAYS_ON
from p2p_dominoes.engine.line import PLACES
from p2p_dominoes.mental import RandomSource
from p2p_dominoes.mental.randomness import DeterministicRandom
from p2p_dominoes.session import Envelope, Identity, Phase, TableSession, default_registry
from p2p_dominoes.session.local import LocalTable
from tests.session.tables import seeded_identity, seeded_table_id

REGISTRY = default_registry()
TWO_DOUBLES = "house+two_doubles@v2"
"""A table with two doubles a turn, so that `skip` messages are fuzzed too, at protocol
version 2, so that the v2 `play` and `lead_claim` validators are (every other table is v3)."""
LEAVE = "draw+leave@v4"
"""A version 4 `draw` table where seat 2 says goodbye in hand 2 and a newcomer takes its seat,
so that `goodbye`, `continue` and `continue_sign` (and the LEAVING and CONTINUE phases) are
fuzzed too (PROTOCOL.md §16); in hand 3 the player who left asks its seat back, so that
`come_back` is too (§16.1: hand 4 is set aside at its start, the player plays hand 5)."""
_RULES = {
    **PRESETS,
    TWO_DOUBLES: Rules.from_dict({"base": "house", "two_doubles": True}),
    LEAVE: PRESETS["draw"],
}
_VERSIONS = {TWO_DOUBLES: 2}
CONFIGS = (
    *(
        (counts[index % len(counts)], preset)
        for index, (preset, counts) in enumerate(
            (preset, sorted(PRESETS[preset].player_counts)) for preset in sorted(PRESETS)
        )
    ),
    (4, TWO_DOUBLES),
    (3, LEAVE),
)


@dataclass(frozen=True)
class Checkpoint:
    """A receiving peer's session just before ``data`` (from ``sender``) reaches it."""

    ids: tuple[Identity, ...]
    receiver: TableSession
    sender: int
    data: bytes
    envelope: Envelope
    phase: Phase


_INTERNED: tuple[object, ...] = (
    *TILES,
    *PLACES,
    DRAW,
    PASS,
    *LEADS,
    *(play for plays in PLAYS_ON for play in plays.values()),
)
_SHARED: dict[int, object] = {id(value): value for value in _INTERNED}


def copy_session(session: TableSession) -> TableSession:
    """A deep copy that shares the (unpicklable, immutable) identity and the interned values.

    The engine's tiles, places and plays exist once each and are compared with ``is`` (the
    end-of-hand audit, the line's open places); a copy with copied tiles blames an honest seat
    ("position 7 decrypts differently", "that place is not open").
    """
    identity = session._identity
    return copy.deepcopy(session, {id(identity): identity, **_SHARED})


@cache
def checkpoints(players: int, preset: str) -> tuple[Checkpoint, ...]:
    """One checkpoint per message of one honest hand at this table (for `LEAVE`: of hand 1,
    hand 2 up to the goodbye, the continuation and hand 3)."""
    ids = [seeded_identity(f"fuzz/{preset}/{s}") for s in range(players)]
    leaving = preset == LEAVE
    table = LocalTable.create(
        _RULES[preset],
        [f"p{s}" for s in range(players)],
        [random_bot] * players,
        seed=players,
        identities=ids,
        rngs=[DeterministicRandom(f"fuzz/{preset}/{s}".encode()) for s in range(players)],
        table_id=seeded_table_id(f"fuzz/{preset}"),
        max_hands=3 if leaving else 1,
        **({"protocol_version": _VERSIONS[preset]} if preset in _VERSIONS else {}),
    )

    def newcomer(seat: int) -> tuple[str, Identity, RandomSource]:
        ids[seat] = seeded_identity(f"fuzz/{preset}/newcomer")  # from the continuation on
        return "newcomer", ids[seat], DeterministicRandom(f"fuzz/{preset}/newcomer".encode())

    table.newcomer = newcomer
    points: list[Checkpoint] = []
    seen: set[bytes] = set()
    left = False
    back: Identity | None = None  # the returner's fresh key, until it holds the seat
    asked_back = False
    for seat, session in enumerate(table.sessions):
        table._broadcast(seat, session.start())
    while True:
        if back is not None and 2 not in table.returning:
            ids[2], back = back, None  # the seat's key from the give-back on
        if table.queue:
            sender, receiver, data = table.queue[0]
            if data not in seen and receiver not in table.dead:
                seen.add(data)
                session = table.sessions[receiver]
                envelope = Envelope.decode(data, REGISTRY)
                point = Checkpoint(
                    tuple(ids), copy_session(session), sender, data, envelope, session.phase
                )
                points.append(point)
        elif leaving and not left and _in_hand_two(table):
            table.leave(2)
            left = True
            continue
        elif leaving and left and not asked_back and _in_hand(table, 3):
            back = table.come_back(
                2,
                "p2",
                DeterministicRandom(f"fuzz/{preset}/back".encode()),
                seeded_identity(f"fuzz/{preset}/back"),
            )
            asked_back = True
            continue
        if not table.step():
            break
    assert all(s.phase is Phase.OVER for s in table.sessions)
    assert (left and asked_back and back is None) or not leaving
    return tuple(points)


def _in_hand(table: LocalTable, number: int) -> bool:
    """Seat 1 has made a move in hand `number`."""
    hand = table.sessions[0].hand
    return hand is not None and hand.number == number and bool(hand.public and hand.public.history)


def _in_hand_two(table: LocalTable) -> bool:
    return _in_hand(table, 2)


def all_messages() -> list[bytes]:
    """Every message of every table (genesis messages included), for the decoder fuzz."""
    found: list[bytes] = []
    for players, preset in CONFIGS:
        points = checkpoints(players, preset)
        found.append(points[0].receiver.transcript[0].encoded)
        found += [point.data for point in points]
    return found
