"""Rules as data: the typed `Rules` a game is played from, read from a draft through the field
table (engine/rule_fields.py) and checked (engine/rules_check/), and the named presets.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from p2p_dominoes.engine.errors import InvalidRecord
from p2p_dominoes.engine.rule_fields import (
    DOUBLE_RULES,
    FIELD,
    FIELDS,
    FIRST_VERSION_FIELDS,
    BlockScoring,
    Doubles,
    Drawing,
    EndsAward,
    Fallback,
    FieldSpec,
    FirstOpener,
    Goal,
    HandScoring,
    Kind,
    Layout,
    MoveScoring,
    NextOpener,
    Opener,
    TargetCheck,
    Teams,
)
from p2p_dominoes.engine.rules_check import check_rules
from p2p_dominoes.engine.turn_plan import TurnPlan, compile_plan
from p2p_dominoes.words import phrase


@dataclass(frozen=True)
class Rules:
    """Every switch of a game; the engine branches on these, never on the preset name.

    Build one with `Rules.from_dict` (a preset name, a full object, or a preset with overrides);
    a set the rules checker finds a conflict in cannot be constructed.
    """

    name: str
    hand_sizes: tuple[tuple[int, int], ...]
    """(players, tiles dealt to each) for every supported player count."""
    reserve: int
    """Tiles at the end of the boneyard that are never drawn."""
    drawing: Drawing
    play_drawn_at_once: bool
    """A drawn tile that fits must be played at once, which ends the turn."""
    first_opener: Opener
    next_opener: Opener
    block_scoring: BlockScoring
    targets: tuple[tuple[int, int], ...]
    """(players, target points) for every supported player count; none for a fixed length."""
    layout: Layout = Layout.LINE
    stall_timeout_s: int = 180
    """Seconds a table waits for a seat's message before it may name the seat as stalling."""
    must_draw_when_stuck: bool = True
    draw_limit: int = 0
    """Most voluntary or needed draws in one turn; 0 = no limit."""
    forced_draw_sum: int = 0
    """An end total that makes the next seat draw two first; 0 = off."""
    first_fallback: Fallback = Fallback.HEAVIEST_TILE
    next_fallback: Fallback = Fallback.PREVIOUS_OPENER
    assigned_double: int = 1
    weekday: int = 0
    """1 = Monday … 7 = Sunday, fixed when the table is created; 0 = unset."""
    doubles: Doubles = Doubles.ACROSS
    two_doubles: bool = False
    extra_turn_sum: int = 0
    cross_quota: int = 1
    double_closes_ray: bool = False
    fish_counts: bool = True
    end_when_boneyard_empty: bool = False
    teams: Teams = Teams.NONE
    hand_scoring: HandScoring = HandScoring.LEADER_TAKES
    rounding: int = 1
    min_record: int = 0
    domino_bonus: int = 0
    block_bonus: int = 0
    move_scoring: MoveScoring = MoveScoring.NONE
    ends_modulus: int = 5
    ends_award: EndsAward = EndsAward.QUOTIENT
    goal: Goal = Goal.REACH_WINS
    hands_limit: int = 0
    target_check: TargetCheck = TargetCheck.HAND_END
    general: bool = False
    admiral: bool = False
    snotty_goat: bool = False
    winner_reset: bool = False

    def __post_init__(self) -> None:
        for spec in FIELDS:
            # Values given directly (not from a dict) are checked the same way.
            value = getattr(self, spec.name)
            parsed = spec.parse(spec.to_plain(value))
            if parsed != value or type(parsed) is not type(value):
                object.__setattr__(self, spec.name, parsed)
        problem = first_problem(self.to_dict())
        if problem is not None:
            raise InvalidRecord(phrase("engine.why.rules_problem", problem=problem))

    # -- derived notions ---------------------------------------------------------------------

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
        """Match points that reach the goal with `players` players (0 for a fixed length)."""
        self.check_players(players)
        return self._target_by_players.get(players, 0)

    @functools.cached_property
    def _target_by_players(self) -> dict[int, int]:
        return dict(self.targets)

    @functools.cached_property
    def turn_plan(self) -> TurnPlan:
        """What the turn machine reads from these rules, compiled once (engine/turn_plan.py)."""
        return compile_plan(self)

    @functools.cached_property
    def plain_scoring(self) -> bool:
        """The first version's scoring: the winner takes the others' pips, nothing rounded."""
        return (
            self.hand_scoring is HandScoring.LEADER_TAKES
            and self.rounding == 1
            and self.min_record == 0
            and self.move_scoring is MoveScoring.NONE
            and not self.domino_bonus
            and self.teams is Teams.NONE
        )

    @functools.cached_property
    def pairs(self) -> bool:
        """Partners opposite: pair 0 = seats 0 and 2, pair 1 = seats 1 and 3 (Kozel)."""
        return self.teams is Teams.OPPOSITE_PAIRS

    def units(self, players: int) -> int:
        """How many scores a match keeps: one per pair, or one per seat."""
        return 2 if self.pairs else players

    def unit_of(self, seat: int) -> int:
        """The unit (pair or seat) that `seat` scores for."""
        return seat % 2 if self.pairs else seat

    @functools.cached_property
    def ceremonies(self) -> tuple[str, ...]:
        """The title ceremonies that are on (`general`, `admiral`, `snotty_goat`)."""
        return tuple(n for n in ("general", "admiral", "snotty_goat") if getattr(self, n))

    @functools.cached_property
    def records_pips(self) -> bool:
        """Something is recorded from the pips left in hand when a hand ends."""
        return self.hand_scoring not in (HandScoring.NONE, HandScoring.LUCK_SETTLEMENT)

    @functools.cached_property
    def scores_during_play(self) -> bool:
        """Placements score, or bonuses reward going out or the lowest hand (a hand's result
        then carries `during_play`)."""
        return (
            self.move_scoring is not MoveScoring.NONE
            or bool(self.domino_bonus)
            or bool(self.block_bonus)
        )

    @property
    def reads_end_total(self) -> bool:
        """Some rule reads the open ends' total (so the board description states it)."""
        return bool(self.extra_turn_sum or self.forced_draw_sum) or self.move_scoring in (
            MoveScoring.ENDS,
            MoveScoring.LUCK,
        )

    @property
    def bad_points(self) -> bool:
        """Recorded points are penalties (you want few) rather than gains (the checker's
        polarity, read from a draft, is the same rule)."""
        return self.hand_scoring in (HandScoring.LOSERS_OWN, HandScoring.WORST_OWN)

    def check_players(self, players: int) -> int:
        """`players` if these rules are for that many players, else a clear error."""
        if players not in self._hand_size_by_players:
            counts = ", ".join(map(str, self.player_counts))
            raise InvalidRecord(
                phrase(
                    "engine.why.rules_players", name=repr(self.name), counts=counts, players=players
                )
            )
        return players

    def opener_rule(self, hand_number: int) -> Opener:
        return self.first_opener if hand_number == 1 else self.next_opener

    def fallback(self, hand_number: int) -> Fallback:
        return self.first_fallback if hand_number == 1 else self.next_fallback

    # -- forms -------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Every field as JSON-ready data, in wire order; `from_dict` gives the same rules."""
        return {spec.name: spec.to_plain(getattr(self, spec.name)) for spec in FIELDS}

    def to_wire(self) -> tuple[tuple[str, Any], ...]:
        """(field, value) pairs for msgpack: the first version's 11 fields, then every later
        field that differs from its default (so a first-version rule set keeps its bytes)."""
        out = []
        for index, spec in enumerate(FIELDS):
            value = getattr(self, spec.name)
            if index >= FIRST_VERSION_FIELDS and value == spec.default:
                continue
            plain = spec.to_plain(value)
            if isinstance(plain, list):
                plain = tuple(tuple(pair) for pair in plain)
            out.append((spec.name, plain))
        return tuple(out)

    @classmethod
    def from_wire(cls, wire: object) -> Rules:
        """Validate rules that came as `to_wire` arrays (from a genesis or lobby message)."""
        if not isinstance(wire, (list, tuple)) or not all(
            isinstance(p, (list, tuple)) and len(p) == 2 and isinstance(p[0], str) for p in wire
        ):
            raise InvalidRecord(phrase("engine.why.rules_pairs"))
        data = {name: value for name, value in wire}
        if len(data) != len(wire):
            raise InvalidRecord(phrase("engine.why.rules_field_twice"))
        return cls.from_dict(data)

    @classmethod
    def from_dict(cls, data: object) -> Rules:
        """Validate a rules object: a preset name, a full object, or {"base": PRESET, …}."""
        return cls(**_typed(draft_of(data)))

    def differences(self, other: Rules) -> list[str]:
        """The fields (other than the name) whose values differ from `other`'s."""
        mine, theirs = self.to_dict(), other.to_dict()
        return [name for name in mine if name != "name" and mine[name] != theirs[name]]

    def base_preset(self) -> Rules:
        """The preset these rules differ least from (the one they say they start from first)."""
        if self.name in PRESETS:
            return PRESETS[self.name]
        return min(PRESETS.values(), key=lambda p: len(self.differences(p)))


def _same_as_the_records() -> None:
    """`Rules` spells out its fields for typed reads; they must be the switch records' fields,
    in wire order, with the records' defaults (a switch added to one and not the other fails
    at import, not in a game)."""
    attributes = dataclasses.fields(Rules)
    names = [a.name for a in attributes]
    if names != [spec.name for spec in FIELDS]:
        raise TypeError(f"Rules fields {names} are not the switch records' (engine/switches/)")
    for attribute, spec in zip(attributes, FIELDS, strict=True):
        default = None if attribute.default is dataclasses.MISSING else attribute.default
        if default != (None if spec.required else spec.default):
            raise TypeError(
                f"Rules.{spec.name} defaults to {default!r}, its record to {spec.default!r}"
            )


_same_as_the_records()


def _typed(draft: Mapping[str, Any]) -> dict[str, Any]:
    return {name: FIELD[name].parse(value) for name, value in draft.items()}


def draft_of(data: object) -> dict[str, Any]:
    """A full rules object (every field, JSON values) from a preset name, a full object, or
    {"base": PRESET, …overrides}; shape-checked (types, ranges, values), not checked for
    conflicts — the editor shows those."""
    if isinstance(data, str):
        return preset(data).to_dict()
    if not isinstance(data, Mapping):
        raise InvalidRecord(phrase("engine.why.rules_shape"))
    unknown = set(data) - set(FIELD) - {"base"}
    if unknown:
        field_name = repr(sorted(map(str, unknown))[0])
        raise InvalidRecord(phrase("engine.why.rules_unknown_field", field=field_name))
    if "base" in data:
        base = data["base"]
        if not isinstance(base, str):
            raise InvalidRecord(phrase("engine.why.rules_base"))
        out = preset(base).to_dict()
        if "name" not in data:
            out["name"] = f"{base}-custom"
    else:
        out = {}
        for spec in FIELDS:
            if spec.name not in data:
                if spec.required:
                    field_name = repr(spec.name)
                    raise InvalidRecord(phrase("engine.why.rules_missing_field", field=field_name))
                out[spec.name] = spec.to_plain(spec.default)
    for spec in FIELDS:
        if spec.name in data:
            out[spec.name] = spec.to_plain(spec.parse(data[spec.name]))
    return {spec.name: out[spec.name] for spec in FIELDS}


def first_problem(draft: Mapping[str, Any]) -> str | None:
    """The first reason (English) a full rules object cannot be played, or None."""
    for finding in check_rules(draft):
        if finding.kind == "conflict":
            return finding.said()
    return None


def _preset(**values: Any) -> Rules:
    return Rules(**_typed({**values}))


DRAW: Final = _preset(
    name="draw",
    hand_sizes=[[2, 7], [3, 7], [4, 6]],
    reserve=2,
    drawing="any-time",
    play_drawn_at_once=False,
    first_opener="lottery",
    next_opener="rotate",
    block_scoring="lowest-takes-difference",
    targets=[[2, 100], [3, 61], [4, 61]],
)
"""The individual Draw game as Pagat describes it (seed 000)."""

DRAW_UNTIL_PLAY: Final = _preset(
    name="draw-until-play",
    hand_sizes=[[2, 7], [3, 5], [4, 5]],
    reserve=0,
    drawing="when-stuck",
    play_drawn_at_once=True,
    first_opener="highest-double",
    next_opener="previous-winner",
    block_scoring="lowest-takes-difference",
    targets=[[2, 100], [3, 100], [4, 100]],
)
"""Draw only when stuck and play a fitting drawn tile at once (seed 001)."""

BLOCK: Final = _preset(
    name="block",
    hand_sizes=[[2, 7], [3, 7], [4, 7]],
    reserve=0,
    drawing="never",
    play_drawn_at_once=False,
    first_opener="lottery",
    next_opener="rotate",
    block_scoring="lowest-takes-difference",
    targets=[[2, 100], [3, 61], [4, 61]],
)
"""No drawing at all: pass when you cannot play."""

HOUSE: Final = _preset(
    name="house",
    hand_sizes=[[2, 7], [3, 7], [4, 7]],
    reserve=0,
    drawing="when-stuck",
    play_drawn_at_once=False,
    first_opener="lowest-double",
    next_opener="lowest-double",
    next_fallback="heaviest-tile",
    block_scoring="lowest-takes",
    hand_scoring="losers-own",
    goal="reach-loses",
    targets=[[2, 101], [3, 101], [4, 101]],
)
"""The game seed 003 plays "by default": 7 each, lowest double opens, draw until you can play,
losers record their pips, and whoever reaches 101 loses."""

_FIVES_VALUES: Final[dict[str, Any]] = dict(
    hand_sizes=[[2, 6], [3, 6], [4, 5]],
    reserve=0,
    drawing="any-time",
    play_drawn_at_once=False,
    first_opener="lowest-double",
    next_opener="lowest-double",
    next_fallback="heaviest-tile",
    block_scoring="lowest-takes-difference",
    draw_limit=1,
    doubles="choice",
    end_when_boneyard_empty=True,
    hand_scoring="none",
    domino_bonus=2,
    block_bonus=1,
    move_scoring="ends",
    ends_modulus=5,
    goal="reach-wins",
    target_check="immediate",
)

FIVES: Final = _preset(name="fives", targets=[[2, 25], [3, 20], [4, 20]], **_FIVES_VALUES)
"""Fives (the seed's "five dominoes", seed 004): a point for every five at the open ends, one draw a
turn, +2 for going out, +1 for the single lowest hand when the boneyard runs out; to 25 / 20."""

THREES: Final = _preset(
    **{**_FIVES_VALUES, "ends_modulus": 3},
    name="threes",
    targets=[[2, 33], [3, 22], [4, 22]],
)
"""Threes ("three dominoes", seed 004): Fives counted in threes, to 33 for two and 22 for more."""

THREES_LUCK: Final = _preset(
    **{
        **_FIVES_VALUES,
        "hand_sizes": [[2, 6], [3, 6], [4, 5]],
        "ends_modulus": 3,
        "draw_limit": 5,
        "domino_bonus": 0,
        "block_bonus": 0,
        "move_scoring": "luck",
        "hand_scoring": "luck-settlement",
        "goal": "fixed-hands",
        "hands_limit": 1,
        "target_check": "hand-end",
    },
    name="threes-luck",
    targets=[],
)
"""Threes for luck ("three dominoes for luck", seed 004): up to five draws a turn to try one's
luck, 5 / 7 / 8 / 10 win points and 5 penalty points a tile; one hand, the winner takes the
difference."""

_KOZEL_VALUES: Final[dict[str, Any]] = dict(
    hand_sizes=[[4, 7]],
    reserve=0,
    drawing="never",
    play_drawn_at_once=False,
    first_opener="assigned-double",
    next_opener="assigned-double",
    next_fallback="heaviest-tile",
    assigned_double=1,
    block_scoring="lowest-takes",
    teams="opposite-pairs",
    hand_scoring="losers-own",
    min_record=13,
    goal="reach-loses",
    targets=[[4, 101]],
)

KOZEL: Final = _preset(name="kozel", **_KOZEL_VALUES)
"""Kozel ("the goat", seed 003): four in two pairs, partners opposite; the whole set is dealt, no
boneyard, pass when stuck; 1:1 opens every hand; the losing pair records its pips, under 13 is not
written; the pair that reaches 101 is the goat. The old ceremonies are off."""

KOZEL_CEREMONIES: Final = _preset(
    name="kozel-ceremonies",
    **_KOZEL_VALUES,
    general=True,
    admiral=True,
    snotty_goat=True,
    winner_reset=True,
)
"""Kozel with the old ceremonies on: General, Admiral, Snotty goat, and the winner's total wiped."""

CROSS: Final = dataclasses.replace(HOUSE, name="cross", layout=Layout.CROSS)
"""The cross ("Cross (Donkey)", seed 003): the house game on a cross of four rays from the first
double; the side rays open once each line side holds a tile."""

TELEPHONE: Final = dataclasses.replace(HOUSE, name="telephone", layout=Layout.TELEPHONE)
"""The telephone ("Centre (Telephone)", seed 003): the house game with all four rays of the first
double open at once."""

TRAINS: Final = dataclasses.replace(
    HOUSE,
    name="trains",
    layout=Layout.TRAINS,
    first_fallback=Fallback.REDEAL,
    next_fallback=Fallback.REDEAL,
)
"""Trains (seed 003): the house game from a double engine, a train per seat and a
common one; a seat that must pass opens its train to all until it feeds it again. With no double
dealt the hand is dealt again."""

PRESETS: Final[dict[str, Rules]] = {
    r.name: r
    for r in (
        DRAW,
        DRAW_UNTIL_PLAY,
        BLOCK,
        HOUSE,
        FIVES,
        THREES,
        THREES_LUCK,
        KOZEL,
        KOZEL_CEREMONIES,
        CROSS,
        TELEPHONE,
        TRAINS,
    )
}


def preset(name: str) -> Rules:
    """The preset called `name`, or a clear error listing the presets."""
    try:
        return PRESETS[name]
    except KeyError:
        raise InvalidRecord(
            phrase("engine.why.unknown_preset", name=repr(name), presets=", ".join(PRESETS))
        ) from None


__all__ = [
    "BLOCK",
    "CROSS",
    "DOUBLE_RULES",
    "DRAW",
    "DRAW_UNTIL_PLAY",
    "FIELD",
    "FIELDS",
    "FIRST_VERSION_FIELDS",
    "FIVES",
    "HOUSE",
    "KOZEL",
    "KOZEL_CEREMONIES",
    "PRESETS",
    "TELEPHONE",
    "THREES",
    "THREES_LUCK",
    "TRAINS",
    "BlockScoring",
    "Doubles",
    "Drawing",
    "EndsAward",
    "Fallback",
    "FieldSpec",
    "FirstOpener",
    "Goal",
    "HandScoring",
    "Kind",
    "Layout",
    "MoveScoring",
    "NextOpener",
    "Opener",
    "Rules",
    "TargetCheck",
    "Teams",
    "draft_of",
    "first_problem",
    "preset",
]
