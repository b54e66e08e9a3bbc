"""`p2p-dominoes bench session`: CPU of whole hands through the full protocol, all peers counted.

For each seat count, N table sessions play `draw` hands with random bots through the in-memory
router (`LocalTable`), in this process. Every call into a session (`start`, `receive`, `act`)
is timed with the process CPU clock and attributed to the type of the message it processes (for
`act`, the action's message); the calls' time includes whatever messages that peer signs in
response. Figures are CPU seconds per hand, summed over all peers:

- by phase of the hand: *setup* (key commit and reveal, shuffles, deal, lead claims), *turns*
  (play, draw and its shares, pass) and *end of hand* (hand reveals, secrets and the audit);
- by message type, inclusive as above;
- exclusive: making (and proving) this peer's own messages, the end-of-hand audit, and the rest
  of each type's handling (decoding, signature, chain, proofs, rules).

The table's own setup (the genesis signatures) is once per table and reported apart. The bots'
choices and the router are outside every timed call. Each seat count is played under protocol
v2 (plays name their deck position) and v3 (OR-proof plays, PROTOCOL.md §10.6) in the same run.
Timings are not asserted anywhere: this prints figures for people to compare (PROTOCOL.md and
the issue state the goal).
"""

from __future__ import annotations

import dataclasses
import json
import platform
import random
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import msgpack  # type: ignore[import-untyped]

from p2p_dominoes.bots import random_bot
from p2p_dominoes.engine import DRAW_RULES, Action, Draw, Play, Rules
from p2p_dominoes.mental import SYSTEM_RANDOM, RandomSource
from p2p_dominoes.session import TableSession
from p2p_dominoes.session import hand_messages as msg
from p2p_dominoes.session.envelope import PROTOCOL_VERSION, Envelope, MessageType
from p2p_dominoes.session.events import Event, HandEnded, Update
from p2p_dominoes.session.genesis import GENESIS_SIGN, Genesis, SeatInfo
from p2p_dominoes.session.identity import Identity
from p2p_dominoes.session.local import LocalTable
from p2p_dominoes.session.messages import default_registry
from p2p_dominoes.session.table_code import new_table_nonce, seat_commitment
from p2p_dominoes.session.transcript import Transcript
from p2p_dominoes.words import line, plural

GOAL_SEATS: Final = 4
GOAL_CPU_S: Final = 1.5
"""The issue's goal: a complete 4-seat `draw` hand, all four peers' work, under 1.5 s of CPU."""

PHASES: Final[dict[str, tuple[MessageType, ...]]] = {
    "setup": (
        msg.KEY_COMMIT,
        msg.KEY_REVEAL,
        msg.SHUFFLE,
        msg.DEAL,
        msg.LEAD_CLAIM,
        msg.LEAD_CLAIM3,
    ),
    "turns": (msg.PLAY, msg.PLAY3, msg.DRAW, msg.DRAW_SHARE, msg.PASS, msg.SKIP),
    "end of hand": (msg.HAND_REVEAL, msg.SECRET_REVEAL),
}
TYPE_ORDER: Final[tuple[str, ...]] = tuple(t.name for t in msg.HAND_MESSAGES)
VERSIONS: Final = (2, PROTOCOL_VERSION)
"""Protocol versions measured side by side: v2 plays name their position, v3 plays do not."""
AUDIT: Final = "audit"
MAKE: Final = "make "
"""Prefix of the exclusive figure for making (and proving) a peer's own message of a type."""


class Meter:
    """Exclusive CPU time per label over nested measurements, and inclusive time of the outermost.

    `push` starts a frame; `pop(label)` ends it and names it (the label may only be known at
    the end, e.g. the type of a message just made). A frame's exclusive time excludes its
    children's; the outermost frames' inclusive time is kept apart.
    """

    def __init__(self, clock: Callable[[], float] = time.process_time) -> None:
        self._clock = clock
        self._stack: list[list[float]] = []  # [start of the running stretch, exclusive so far]
        self.exclusive: defaultdict[str, float] = defaultdict(float)
        self.inclusive: defaultdict[str, float] = defaultdict(float)
        self.calls: Counter[str] = Counter()
        self._outer_start = 0.0

    def push(self) -> None:
        now = self._clock()
        if self._stack:
            parent = self._stack[-1]
            parent[1] += now - parent[0]
        else:
            self._outer_start = now
        self._stack.append([now, 0.0])

    def pop(self, label: str) -> None:
        now = self._clock()
        start, spent = self._stack.pop()
        self.exclusive[label] += spent + (now - start)
        if self._stack:
            self._stack[-1][0] = now
        else:
            self.inclusive[label] += now - self._outer_start
            self.calls[label] += 1


def _type_name(data: bytes) -> str:
    """The message type of encoded envelope bytes (outside the timed region)."""
    try:
        code = msgpack.unpackb(data)[4]
    except (ValueError, TypeError, LookupError):  # a label only, never a protocol decision
        return "undecodable"
    mtype = default_registry().by_code(code) if isinstance(code, int) else None
    return mtype.name if mtype is not None else "unknown"


def _action_type(action: Action, version: int) -> str:
    if isinstance(action, Play):
        return msg.PLAY.name if version <= 2 else msg.PLAY3.name
    return msg.DRAW.name if isinstance(action, Draw) else msg.PASS.name


class MeteredSession(TableSession):
    """A TableSession whose inputs, own messages and audit are timed by a shared `Meter`.

    Only the public inputs are required for the figures; the two private hooks (`_audit`,
    `_automatic_message`, `_play_body`) refine them into exclusive costs and are read with
    `getattr` so that a renamed hook only makes that refinement read zero.
    """

    meter: Meter

    def start(self) -> Update:
        self.meter.push()
        try:
            return super().start()
        finally:
            self.meter.pop(GENESIS_SIGN.name)

    def receive(self, data: bytes, via: int | None = None) -> Update:
        label = _type_name(data)
        self.meter.push()
        try:
            return super().receive(data, via)
        finally:
            self.meter.pop(label)

    def act(self, action: Action) -> Update:
        label = _action_type(action, self.version)
        self.meter.push()
        try:
            return super().act(action)
        finally:
            self.meter.pop(label)

    def _audit(self, hand: Any) -> list[Event]:
        self.meter.push()
        try:
            return super()._audit(hand)
        finally:
            self.meter.pop(AUDIT)

    def _automatic_message(self) -> Envelope:
        self.meter.push()
        label = "unknown"
        try:
            envelope = super()._automatic_message()
            assert isinstance(envelope, Envelope)
            label = envelope.type.name
            return envelope
        finally:
            self.meter.pop(MAKE + label)

    def _play_body(self, hand: Any, play: Any) -> Any:
        self.meter.push()
        try:
            return super()._play_body(hand, play)
        finally:
            self.meter.pop(MAKE + msg.PLAY.name)

    def _play3_body(self, hand: Any, play: Any) -> Any:
        self.meter.push()
        try:
            return super()._play3_body(hand, play)
        finally:
            self.meter.pop(MAKE + msg.PLAY3.name)


@dataclass
class SeatFigures:
    """What one seat count measured: totals over `hands` hands (divide for per-hand figures)."""

    seats: int
    hands: int
    meter: Meter
    messages: int
    table_setup_s: float
    wall_s: float
    clean: bool
    counts: Counter[str] = field(default_factory=Counter)
    version: int = PROTOCOL_VERSION

    def per_hand(self, seconds: float) -> float:
        return seconds / self.hands if self.hands else 0.0

    def phases(self) -> dict[str, float]:
        inclusive = self.meter.inclusive
        out = {
            phase: self.per_hand(sum(inclusive.get(t.name, 0.0) for t in types))
            for phase, types in PHASES.items()
        }
        out["total"] = sum(out.values())
        return out

    def to_dict(self) -> dict[str, Any]:
        meter = self.meter
        return {
            "seats": self.seats,
            "protocol_version": self.version,
            "hands": self.hands,
            "clean": self.clean,
            "messages_per_hand": round(self.messages / self.hands, 1) if self.hands else 0,
            "cpu_per_hand_s": {k: round(v, 4) for k, v in self.phases().items()},
            "table_setup_cpu_s": round(self.table_setup_s, 4),
            "per_type_cpu_per_hand_s": {
                name: round(self.per_hand(meter.inclusive[name]), 4)
                for name in TYPE_ORDER
                if name in meter.inclusive
            },
            "messages_per_hand_by_type": {
                name: round(self.counts[name] / self.hands, 2)
                for name in TYPE_ORDER
                if self.counts[name]
            },
            "exclusive_cpu_per_hand_s": {
                label: round(self.per_hand(seconds), 4)
                for label, seconds in sorted(meter.exclusive.items(), key=lambda kv: -kv[1])
                if label != GENESIS_SIGN.name and not label.endswith(GENESIS_SIGN.name)
            },
            "wall_s": round(self.wall_s, 3),
        }


def metered_table(
    rules: Rules,
    seats: int,
    hands: int,
    meter: Meter,
    *,
    seed: int = 0,
    rng: RandomSource = SYSTEM_RANDOM,
    version: int = PROTOCOL_VERSION,
) -> LocalTable:
    """A LocalTable like `LocalTable.create`, but of MeteredSessions sharing `meter`."""
    ids = [Identity.generate() for _ in range(seats)]
    nonces = [new_table_nonce() for _ in range(seats)]
    infos = [
        SeatInfo(f"bot-{s}", i.public, seat_commitment(i.public, nonces[s]))
        for s, i in enumerate(ids)
    ]
    table = Genesis.new(rules.to_wire(), infos, hands)
    genesis = dataclasses.replace(table, protocol_version=version).sign(ids[0], 0)
    sessions: list[TableSession] = []
    for seat in range(seats):
        session = MeteredSession(
            Transcript(genesis, default_registry()),
            seat,
            ids[seat],
            rng=rng,
            table_nonce=nonces[seat],
        )
        session.meter = meter
        sessions.append(session)
    bot_rngs = [random.Random(f"{seed}/bot/{seat}") for seat in range(seats)]
    return LocalTable(sessions, [random_bot] * seats, bot_rngs)


def measure(
    seats: int,
    hands: int,
    rules: Rules = DRAW_RULES,
    seed: int = 0,
    version: int = PROTOCOL_VERSION,
) -> SeatFigures:
    """Play `hands` hands (fewer if the match ends first) at `seats` seats and time them."""
    meter = Meter()
    ended: list[HandEnded] = []

    def on_event(seat: int, event: Event) -> None:
        if seat == 0 and isinstance(event, HandEnded):
            ended.append(event)

    table = metered_table(rules, seats, hands, meter, seed=seed, version=version)
    table.on_event = on_event
    started = time.perf_counter()
    table.run()
    wall = time.perf_counter() - started
    transcript = table.sessions[0].transcript
    counts = Counter(entry.envelope.type.name for entry in transcript.entries)
    clean = all(b is None for b in table.blames) and len(set(table.heads())) == 1
    return SeatFigures(
        seats=seats,
        hands=len(ended),
        meter=meter,
        messages=len(transcript) - 1 - seats,
        table_setup_s=meter.inclusive.get(GENESIS_SIGN.name, 0.0),
        wall_s=wall,
        clean=clean,
        counts=counts,
        version=version,
    )


PHASE_WORDS: Final = {
    "setup": "bench.phase.setup",
    "turns": "bench.phase.turns",
    "end of hand": "bench.phase.end_of_hand",
    "total": "bench.phase.total",
}
"""The words of each phase the text shows (the JSON keeps the names above)."""


def _print_text(figures: Sequence[SeatFigures], hands: int, lang: str = "en") -> None:
    print(plural("bench.session.title", hands, lang, python=platform.python_version()))
    print(line("bench.session.cpu", lang) + "\n")
    columns = [
        line("bench.session.column", lang, seats=f.seats, version=f.version) for f in figures
    ]
    header = f"{'':<28}" + "".join(f"{column:>9}" for column in columns)
    print(header)
    rows: list[tuple[str, Callable[[SeatFigures], str]]] = [
        (line("bench.session.hands_measured", lang), lambda f: f"{f.hands:>9}"),
        (
            line("bench.session.messages_per_hand", lang),
            lambda f: f"{f.messages / max(f.hands, 1):>9.1f}",
        ),
        *[
            (f"  {line(PHASE_WORDS[phase], lang)}", _phase_cell(phase))
            for phase in (*PHASES, "total")
        ],
        (line("bench.session.table_setup", lang), lambda f: f"{f.table_setup_s:>9.3f}"),
    ]
    for name, cell in rows:
        print(f"{name:<28}" + "".join(cell(f) for f in figures))
    print("\n" + line("bench.session.per_type", lang))
    for name in TYPE_ORDER:
        if any(name in f.meter.inclusive for f in figures):
            cells = "".join(
                f"{f.per_hand(f.meter.inclusive.get(name, 0.0)):>9.3f}" if f.hands else f"{'-':>9}"
                for f in figures
            )
            counts = "/".join(f"{f.counts[name] / max(f.hands, 1):.0f}" for f in figures)
            print(f"  {name:<26}{cells}   " + line("bench.session.msgs", lang, counts=counts))
    print("\n" + line("bench.session.exclusive", lang))
    last = figures[-1]
    top = sorted(last.meter.exclusive.items(), key=lambda kv: -kv[1])
    for label, _ in [kv for kv in top if GENESIS_SIGN.name not in kv[0]]:
        cells = "".join(f"{f.per_hand(f.meter.exclusive.get(label, 0.0)):>9.3f}" for f in figures)
        print(f"  {label:<26}{cells}")
    goals = [f for f in figures if f.seats == GOAL_SEATS and f.hands]
    if goals:
        print()
    for goal in goals:
        total = goal.phases()["total"]
        verdict = line("bench.met" if total < GOAL_CPU_S else "bench.not_met", lang)
        print(
            line(
                "bench.session.goal",
                lang,
                seats=GOAL_SEATS,
                limit=GOAL_CPU_S,
                version=goal.version,
                total=f"{total:.3f}",
                verdict=verdict,
            )
        )
    if not all(f.clean for f in figures):
        print(line("bench.session.not_clean", lang))


def _phase_cell(phase: str) -> Callable[[SeatFigures], str]:
    return lambda f: f"{f.phases()[phase]:>9.3f}"


def run_session_bench(players: list[int], hands: int, as_json: bool, lang: str = "en") -> int:
    """Entry point of `p2p-dominoes bench session`; returns the exit status (1 if not clean)."""
    figures = [measure(seats, hands, version=version) for seats in players for version in VERSIONS]
    if as_json:
        current = [f for f in figures if f.version == PROTOCOL_VERSION]
        out: dict[str, Any] = {
            "python": platform.python_version(),
            "rules": DRAW_RULES.name,
            "hands": hands,
            "protocol_version": PROTOCOL_VERSION,
            "seats": {str(f.seats): f.to_dict() for f in current},
            "seats_v2": {str(f.seats): f.to_dict() for f in figures if f.version == 2},
        }
        goal = next((f for f in current if f.seats == GOAL_SEATS and f.hands), None)
        if goal is not None:
            total = goal.phases()["total"]
            v2 = next(f for f in figures if f.seats == GOAL_SEATS and f.version == 2)
            out["goal"] = {
                "seats": GOAL_SEATS,
                "limit_cpu_s": GOAL_CPU_S,
                "cpu_per_hand_s": round(total, 4),
                "v2_cpu_per_hand_s": round(v2.phases()["total"], 4),
                "met": total < GOAL_CPU_S,
            }
        print(json.dumps(out, indent=2))
    else:
        _print_text(figures, hands, lang)
    return 0 if all(f.clean for f in figures) else 1
