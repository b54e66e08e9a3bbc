"""Helpers for running whole tables in one process, honest or with a scripted cheater."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from p2p_dominoes.bots import Bot, greedy_bot, random_bot
from p2p_dominoes.engine import PRESETS, Rules
from p2p_dominoes.mental import RandomSource
from p2p_dominoes.mental.randomness import DeterministicRandom
from p2p_dominoes.session import (
    TABLE_ID_SIZE,
    Envelope,
    Identity,
    TableSession,
    default_registry,
)
from p2p_dominoes.session.events import Event, HandEnded, HandStarted, MatchEnded, Update
from p2p_dominoes.session.local import Link, LocalTable, faithful_link
from p2p_dominoes.session.schema import Wire

REGISTRY = default_registry()


@dataclass
class Played:
    """A finished run: the table, and the events each seat saw."""

    table: LocalTable
    events: list[list[Event]]

    @property
    def sessions(self) -> list[TableSession]:
        return self.table.sessions

    def hands_ended(self, seat: int = 0) -> list[HandEnded]:
        return [e for e in self.events[seat] if isinstance(e, HandEnded)]

    def match_ended(self, seat: int = 0) -> MatchEnded | None:
        ends = [e for e in self.events[seat] if isinstance(e, MatchEnded)]
        return ends[-1] if ends else None


def seeded_identity(label: str) -> Identity:
    """A key made from `label` (a reproducible table's seat key; never for play)."""
    return Identity.from_private_bytes(hashlib.sha256(label.encode()).digest())


def seeded_table_id(label: str) -> bytes:
    """A table id made from `label` (a reproducible table's; never for play)."""
    return hashlib.sha256(label.encode()).digest()[:TABLE_ID_SIZE]


def play_table(
    rules: Rules | str,
    players: int,
    *,
    hands: int | None = 1,
    link: Link = faithful_link,
    bots: Sequence[Bot] | None = None,
    identities: Sequence[Identity] | None = None,
    seed: int = 1,
    rngs: Sequence[RandomSource] | None = None,
    setup: Callable[[LocalTable], None] | None = None,
) -> Played:
    """Create a table and run it to the end (or until nothing more can happen); `rngs` (a
    seeded stream a seat) makes the deals reproducible (the table's id, which the proofs'
    draws depend on, is then made from `seed` too)."""
    if isinstance(rules, str):
        rules = PRESETS[rules]
    ids = (
        list(identities)
        if identities is not None
        else [Identity.generate() for _ in range(players)]
    )
    table = LocalTable.create(
        rules,
        [f"player{seat}" for seat in range(players)],
        list(bots) if bots is not None else [random_bot] * players,
        seed=seed,
        max_hands=hands,
        rngs=rngs,
        identities=ids,
        table_id=None if rngs is None else seeded_table_id(f"table/{seed}"),
    )
    table.link = link
    events: list[list[Event]] = [[] for _ in range(players)]
    table.on_event = lambda seat, event: events[seat].append(event)
    if setup is not None:
        setup(table)
    table.run()
    return Played(table, events)


def resign(
    envelope: Envelope, identity: Identity, body: Sequence[Wire], **changes: object
) -> bytes:
    """The same message with another body (or fields), signed again by `identity`."""
    fields: dict[str, object] = {
        "table_id": envelope.table_id,
        "seat": envelope.seat,
        "head": envelope.head,
        "mtype": envelope.type,
        "body": tuple(body),
        "version": envelope.version,
    }
    fields.update(changes)
    return Envelope.sign(identity, **fields).encode()  # type: ignore[arg-type]


def rewriting_link(
    cheater: int,
    type_name: str,
    identity: Identity,
    rewrite: Callable[[Envelope], Sequence[Wire]],
    *,
    only_to: int | None = None,
    times: int = 1,
) -> Link:
    """A link on which the cheater's first `times` messages of one type carry a rewritten body."""
    done: dict[int, int] = {}
    cache: dict[bytes, bytes] = {}

    def link(sender: int, receiver: int, data: bytes) -> list[bytes]:
        if sender != cheater or (only_to is not None and receiver != only_to):
            return [data]
        envelope = Envelope.decode(data, REGISTRY)
        if envelope.type.name != type_name:
            return [data]
        if data not in cache:
            count = done.get(0, 0)
            if count >= times:
                return [data]
            done[0] = count + 1
            cache[data] = resign(envelope, identity, rewrite(envelope))
        return [cache[data]]

    return link


def send_as(table: LocalTable, seat: int, data: bytes, to: Sequence[int] | None = None) -> None:
    """Deliver bytes as if `seat` had sent them (to everyone else, or to `to`)."""
    for receiver in range(len(table.sessions)):
        if receiver != seat and (to is None or receiver in to):
            table.queue.append((seat, receiver, data))


def force(table: LocalTable, seat: int, data: bytes) -> None:
    """The cheater's own peer accepts its own rule-breaking (well-formed) message, then sends it."""
    session = table.sessions[seat]
    update: Update = session.send(Envelope.decode(data, REGISTRY))
    table._broadcast(seat, update)


def seeded(seed: int) -> random.Random:
    return random.Random(seed)


LEAVING_HANDS = 3
"""Counted hands of the three-seat tables a seat leaves (v4, PROTOCOL.md §16)."""


def three_seats(seed: int = 3, version: int | None = None) -> tuple[LocalTable, list[list[Event]]]:
    """A three-seat v4 table of greedy bots ("ann", "bob", "cat"), reproducible by `seed`, with
    the events each seat saw."""
    extra = {} if version is None else {"protocol_version": version}
    table = LocalTable.create(
        PRESETS["draw"],
        ["ann", "bob", "cat"],
        [greedy_bot] * 3,
        seed=seed,
        max_hands=LEAVING_HANDS,
        rngs=[DeterministicRandom(f"leave/{seed}/{s}".encode()) for s in range(3)],
        identities=[seeded_identity(f"leave/{seed}/{s}") for s in range(3)],
        table_id=seeded_table_id(f"leave/{seed}"),
        nonces=[hashlib.sha256(f"leave/{seed}/nonce/{s}".encode()).digest() for s in range(3)],
        **extra,  # type: ignore[arg-type]
    )
    events: list[list[Event]] = [[] for _ in range(3)]
    table.on_event = lambda seat, event: events[seat].append(event)
    table.holder_rng = lambda seat: DeterministicRandom(
        f"leave/{seed}/holder/{seat}/{len(table.replaced)}".encode()
    )
    return table, events


def in_hand_two(table: LocalTable) -> bool:
    """Hand 2 has had a move at seat 0 (the table is quiet when `run(until=…)` asks)."""
    session = table.sessions[0]
    hand = session.hand
    return (
        hand is not None
        and hand.number == 2
        and hand.public is not None
        and bool(hand.public.history)
    )


def kill_at_hand_two(table: LocalTable) -> None:
    """Seat 2 dies as seat 0 begins hand 2: the table next waits for seat 2's key commit."""
    previous = table.on_event

    def watch(seat: int, event: Event) -> None:
        if previous is not None:
            previous(seat, event)
        if seat == 0 and isinstance(event, HandStarted) and event.number == 2:
            table.kill(2)

    table.on_event = watch
