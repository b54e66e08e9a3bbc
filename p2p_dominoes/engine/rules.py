"""Rules as data: every switch that tells one domino game from another, and the named presets."""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final

from p2p_dominoes.engine.errors import InvalidRecord


class Drawing(StrEnum):
    """When a player may take a tile from the boneyard."""

    ANY_TIME = "any-time"  # even while holding a playable tile
    WHEN_STUCK = "when-stuck"  # only with no playable tile
    NEVER = "never"


class FirstOpener(StrEnum):
    """Who leads the first hand of a match."""

    LOTTERY = "lottery"  # a fair lottery; the random input comes from outside the engine
    HIGHEST_DOUBLE = "highest-double"  # the holder of the highest double leads it


class NextOpener(StrEnum):
    """Who leads the later hands of a match."""

    ROTATE = "rotate"  # one seat clockwise from the previous hand's opener
    PREVIOUS_WINNER = "previous-winner"  # the previous winner; the previous opener if none


class BlockScoring(StrEnum):
    """How a blocked hand is scored."""

    LOWEST_TAKES_DIFFERENCE = "lowest-takes-difference"  # others' pips − own; a tie scores 0


class Layout(StrEnum):
    """The shape of the layout on the table."""

    LINE = "line"  # two open ends; doubles crosswise, never branching


@dataclass(frozen=True)
class Rules:
    """Every switch of a game; the engine branches on these, never on the preset name."""

    name: str
    hand_sizes: tuple[tuple[int, int], ...]
    """(players, tiles dealt to each) for every supported player count."""
    reserve: int
    """Tiles at the end of the boneyard that are never drawn."""
    drawing: Drawing
    play_drawn_at_once: bool
    """A drawn tile that fits must be played at once, which ends the turn."""
    first_opener: FirstOpener
    next_opener: NextOpener
    block_scoring: BlockScoring
    targets: tuple[tuple[int, int], ...]
    """(players, points that win the match) for every supported player count."""
    layout: Layout = Layout.LINE
    stall_timeout_s: int = 180
    """Seconds a table waits for a seat's message before it may name the seat as stalling."""

    def __post_init__(self) -> None:
        counts = [n for n, _ in self.hand_sizes]
        if not counts or counts != sorted(set(counts)) or [n for n, _ in self.targets] != counts:
            raise InvalidRecord("rules: hand sizes and targets must name the same player counts")
        for players, size in self.hand_sizes:
            if not 2 <= players <= 4 or size < 1 or players * size + self.reserve > 28:
                raise InvalidRecord(f"rules: cannot deal {size} tiles to {players} players")
        if self.reserve < 0 or any(t < 1 for _, t in self.targets) or self.stall_timeout_s < 1:
            raise InvalidRecord("rules: reserve, targets and stall timeout must be positive")

    @property
    def player_counts(self) -> tuple[int, ...]:
        return tuple(n for n, _ in self.hand_sizes)

    @functools.cached_property
    def _hand_size_by_players(self) -> dict[int, int]:
        return dict(self.hand_sizes)

    def hand_size(self, players: int) -> int:
        """Tiles dealt to each of `players` players."""
        try:
            return self._hand_size_by_players[players]
        except KeyError:
            self.check_players(players)
            raise

    def target(self, players: int) -> int:
        """Match points that win with `players` players."""
        return dict(self.targets)[self.check_players(players)]

    def check_players(self, players: int) -> int:
        """`players` if these rules are for that many players, else a clear error."""
        if players not in self._hand_size_by_players:
            counts = ", ".join(map(str, self.player_counts))
            raise InvalidRecord(f"rules {self.name!r} are for {counts} players, not {players}")
        return players

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready object that `from_dict` turns back into the same rules."""
        out: dict[str, Any] = {}
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            if isinstance(value, tuple):
                value = [list(pair) for pair in value]
            out[field.name] = str(value) if isinstance(value, StrEnum) else value
        return out

    def to_wire(self) -> tuple[tuple[str, str | int | bool | tuple[tuple[int, int], ...]], ...]:
        """The rules as msgpack-ready nested arrays of (field, value) pairs, in field order."""
        out = []
        for name, value in self.to_dict().items():
            if isinstance(value, list):
                value = tuple((players, number) for players, number in value)
            out.append((name, value))
        return tuple(out)

    @classmethod
    def from_wire(cls, wire: object) -> Rules:
        """Validate rules that came as `to_wire` arrays (from a genesis message)."""
        if not isinstance(wire, (list, tuple)) or not all(
            isinstance(p, (list, tuple)) and len(p) == 2 and isinstance(p[0], str) for p in wire
        ):
            raise InvalidRecord("rules must be a list of (field, value) pairs")
        data = {
            name: [list(x) for x in value] if isinstance(value, (list, tuple)) else value
            for name, value in wire
        }
        if len(data) != len(wire):
            raise InvalidRecord("rules name a field twice")
        return cls.from_dict(data)

    @classmethod
    def from_dict(cls, data: object) -> Rules:
        """Validate a rules object from a record; a string names a preset."""
        if isinstance(data, str):
            return preset(data)
        if not isinstance(data, dict):
            raise InvalidRecord("rules must be a preset name or an object")
        fields = {f.name: f for f in dataclasses.fields(cls)}
        unknown = set(data) - set(fields)
        if unknown:
            raise InvalidRecord(f"rules: unknown field {sorted(unknown)[0]!r}")
        values: dict[str, Any] = {}
        for name, field in fields.items():
            if name not in data:
                if field.default is dataclasses.MISSING:
                    raise InvalidRecord(f"rules: missing field {name!r}")
                continue
            values[name] = _field_value(name, field.type, data[name])
        return cls(**values)


def _field_value(name: str, kind: object, raw: object) -> object:
    enums: dict[str, type[StrEnum]] = {
        "drawing": Drawing,
        "first_opener": FirstOpener,
        "next_opener": NextOpener,
        "block_scoring": BlockScoring,
        "layout": Layout,
    }
    if name in enums:
        try:
            return enums[name](str(raw))
        except ValueError:
            choices = ", ".join(e.value for e in enums[name])
            raise InvalidRecord(f"rules: {name} must be one of {choices}") from None
    if name in ("hand_sizes", "targets"):
        if not isinstance(raw, list) or not all(
            isinstance(p, list) and len(p) == 2 and all(type(x) is int for x in p) for p in raw
        ):
            raise InvalidRecord(f"rules: {name} must be a list of [players, number] pairs")
        return tuple((p[0], p[1]) for p in raw)
    if name == "play_drawn_at_once":
        if not isinstance(raw, bool):
            raise InvalidRecord(f"rules: {name} must be true or false")
        return raw
    if name == "name":
        if not isinstance(raw, str) or not raw:
            raise InvalidRecord("rules: name must be a non-empty string")
        return raw
    if type(raw) is not int:
        raise InvalidRecord(f"rules: {name} must be an integer")
    return raw


DRAW: Final = Rules(
    name="draw",
    hand_sizes=((2, 7), (3, 7), (4, 6)),
    reserve=2,
    drawing=Drawing.ANY_TIME,
    play_drawn_at_once=False,
    first_opener=FirstOpener.LOTTERY,
    next_opener=NextOpener.ROTATE,
    block_scoring=BlockScoring.LOWEST_TAKES_DIFFERENCE,
    targets=((2, 100), (3, 61), (4, 61)),
)
"""The individual Draw game as Pagat describes it (seed 000)."""

DRAW_UNTIL_PLAY: Final = Rules(
    name="draw-until-play",
    hand_sizes=((2, 7), (3, 5), (4, 5)),
    reserve=0,
    drawing=Drawing.WHEN_STUCK,
    play_drawn_at_once=True,
    first_opener=FirstOpener.HIGHEST_DOUBLE,
    next_opener=NextOpener.PREVIOUS_WINNER,
    block_scoring=BlockScoring.LOWEST_TAKES_DIFFERENCE,
    targets=((2, 100), (3, 100), (4, 100)),
)
"""Draw only when stuck and play a fitting drawn tile at once (seed 001)."""

BLOCK: Final = Rules(
    name="block",
    hand_sizes=((2, 7), (3, 7), (4, 7)),
    reserve=0,
    drawing=Drawing.NEVER,
    play_drawn_at_once=False,
    first_opener=FirstOpener.LOTTERY,
    next_opener=NextOpener.ROTATE,
    block_scoring=BlockScoring.LOWEST_TAKES_DIFFERENCE,
    targets=((2, 100), (3, 61), (4, 61)),
)
"""No drawing at all: pass when you cannot play."""

PRESETS: Final[dict[str, Rules]] = {r.name: r for r in (DRAW, DRAW_UNTIL_PLAY, BLOCK)}


def preset(name: str) -> Rules:
    """The preset called `name`, or a clear error listing the presets."""
    try:
        return PRESETS[name]
    except KeyError:
        raise InvalidRecord(
            f"unknown rules preset {name!r} (presets: {', '.join(PRESETS)})"
        ) from None
