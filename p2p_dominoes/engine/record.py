"""Plain hand records (JSON): parse, validate, replay, and write them back.

The format is documented in protocol/records.md.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from operator import add
from typing import Any, Final

from p2p_dominoes.engine.actions import DRAW, PASS, SKIP, Action, Draw, Play, Skip
from p2p_dominoes.engine.board import COMMON, Board, RayKey, train_of_port
from p2p_dominoes.engine.description import describe
from p2p_dominoes.engine.errors import IllegalAction, InvalidRecord
from p2p_dominoes.engine.hand import HandState
from p2p_dominoes.engine.line import Place, Side
from p2p_dominoes.engine.opening import best_of, rank_list
from p2p_dominoes.engine.rules import MoveScoring, Rules
from p2p_dominoes.engine.scoring import (
    HandEnd,
    HandResult,
    MatchOutcome,
    add_hand,
    match_outcome,
)
from p2p_dominoes.engine.tiles import Tile, parse_tile, tiles_in
from p2p_dominoes.engine.turns import TurnNote
from p2p_dominoes.words import Phrase, phrase

_RECORD_KEYS = {
    "rules",
    "scores",
    "opener",
    "hands",
    "boneyard",
    "actions",
    "hand",
    "players",
    "lead",
}
MAX_NAME_CHARS = 64
_MAX_SCORE = 10**9
_ACTION_KEYS = {"seat", "play", "at", "side", "train", "orient", "draw", "pass", "skip"}
_RECORD_SIDES = ("A", "B", "C", "D", "high", "low")
"""The `side` values a record names (a trains engine's ports are named by `train`)."""
_SETTLED_AT_THE_END: Final = (MoveScoring.NONE, MoveScoring.LUCK)
"""Move scorings whose points reach the match only when the hand ends (Threes for luck's
settlement), or that score no placements at all."""


@dataclass(frozen=True)
class HandRecord:
    """A validated record: the deal, the opener, the scores before the hand, and raw actions."""

    rules: Rules
    scores: tuple[int, ...]
    opener: int
    hands: tuple[tuple[Tile, ...], ...]
    boneyard: tuple[Tile, ...]
    actions: tuple[dict[str, Any], ...]
    hand: int = 1
    players: tuple[str, ...] = ()
    """The players' names in seat order, when known: what replay calls each seat."""
    lead: Tile | None = None
    """The tile the opener had to lead when the record alone cannot tell it: a rule that looks
    at earlier hands (the previous winner) whose fallback ranked the deal (protocol/records.md)."""

    def to_dict(self) -> dict[str, Any]:
        rules: Any = self.rules.name if _is_preset(self.rules) else self.rules.to_dict()
        out: dict[str, Any] = {"rules": rules, "hand": self.hand}
        if self.players:
            out["players"] = list(self.players)
        if self.lead is not None:
            out["lead"] = self.lead.key
        out.update(
            {
                "scores": list(self.scores),
                "opener": self.opener,
                "hands": [[t.key for t in hand] for hand in self.hands],
                "boneyard": [t.key for t in self.boneyard],
                "actions": [dict(a) for a in self.actions],
            }
        )
        return out


def _is_preset(rules: Rules) -> bool:
    from p2p_dominoes.engine.rules import PRESETS

    return PRESETS.get(rules.name) == rules


def load_record(text: str) -> HandRecord:
    """Parse a record from JSON text; any defect is an InvalidRecord with one clear line."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidRecord(
            phrase("engine.why.json_error", error=exc.msg, line=exc.lineno, column=exc.colno)
        ) from None
    except RecursionError:
        raise InvalidRecord(phrase("engine.why.json_too_deep")) from None
    return parse_record(data)


def parse_record(data: object) -> HandRecord:
    """Validate a decoded JSON record."""
    if not isinstance(data, dict):
        raise InvalidRecord(phrase("engine.why.record_not_object"))
    unknown = set(data) - _RECORD_KEYS
    if unknown:
        field_name = repr(sorted(unknown)[0])
        raise InvalidRecord(phrase("engine.why.record_unknown_field", field=field_name))
    for key in ("rules", "opener", "hands", "boneyard", "actions"):
        if key not in data:
            raise InvalidRecord(phrase("engine.why.record_lacks_field", field=repr(key)))
    rules = Rules.from_dict(data["rules"])
    hands_raw = data["hands"]
    if not isinstance(hands_raw, list) or not all(isinstance(h, list) for h in hands_raw):
        raise InvalidRecord(phrase("engine.why.record_hands"))
    players = rules.check_players(len(hands_raw))
    hands = tuple(tuple(parse_tile(t) for t in hand) for hand in hands_raw)
    if not isinstance(data["boneyard"], list):
        raise InvalidRecord(phrase("engine.why.record_boneyard"))
    boneyard = tuple(parse_tile(t) for t in data["boneyard"])
    units = rules.units(players)  # one score per pair when partners play
    scores = data.get("scores", [0] * units)
    if (
        not isinstance(scores, list)
        or len(scores) != units
        or not all(type(s) is int and abs(s) <= _MAX_SCORE for s in scores)
    ):
        if rules.pairs:
            raise InvalidRecord(phrase("engine.why.record_scores_pairs", units=units))
        raise InvalidRecord(phrase("engine.why.record_scores", units=units))
    opener = data["opener"]
    if type(opener) is not int or not 0 <= opener < players:
        raise InvalidRecord(phrase("engine.why.record_opener", last=players - 1))
    hand_number = data.get("hand", 1)
    if type(hand_number) is not int or hand_number < 1:
        raise InvalidRecord(phrase("engine.why.record_hand"))
    names = data.get("players", [])
    if (
        not isinstance(names, list)
        or len(names) not in (0, players)
        or not all(_is_name(n) for n in names)
    ):
        raise InvalidRecord(
            phrase("engine.why.record_players", players=players, chars=MAX_NAME_CHARS)
        )
    actions = data["actions"]
    if not isinstance(actions, list):
        raise InvalidRecord(phrase("engine.why.record_actions"))
    for index, action in enumerate(actions):
        _check_action_shape(index, action, players)
    lead = data.get("lead")
    if lead is not None and (
        not isinstance(lead, str) or rules.opener_rule(hand_number).is_claimed
    ):
        raise InvalidRecord(phrase("engine.why.record_lead"))
    return HandRecord(
        rules,
        tuple(scores),
        opener,
        hands,
        boneyard,
        tuple(actions),
        hand_number,
        tuple(names),
        None if lead is None else parse_tile(lead),
    )


def _is_name(name: object) -> bool:
    """A player's name a record may carry: printable text that a terminal shows as it is."""
    return isinstance(name, str) and 1 <= len(name) <= MAX_NAME_CHARS and name.isprintable()


def _check_action_shape(index: int, action: object, players: int) -> None:
    if not isinstance(action, dict):
        raise InvalidRecord(phrase("engine.why.action_not_object", index=index))
    unknown = set(action) - _ACTION_KEYS
    if unknown:
        field_name = repr(sorted(unknown)[0])
        raise InvalidRecord(
            phrase("engine.why.action_unknown_field", index=index, field=field_name)
        )
    seat = action.get("seat")
    if type(seat) is not int or not 0 <= seat < players:
        raise InvalidRecord(phrase("engine.why.action_seat", index=index, last=players - 1))
    kinds = [k for k in ("play", "draw", "pass", "skip") if k in action]
    if len(kinds) != 1:
        raise InvalidRecord(phrase("engine.why.action_one_kind", index=index, seat=seat))
    if kinds[0] in ("draw", "pass", "skip") and action[kinds[0]] is not True:
        raise InvalidRecord(
            phrase("engine.why.action_must_be_true", index=index, seat=seat, kind=repr(kinds[0]))
        )
    if kinds[0] != "play" and any(k in action for k in ("at", "side", "orient", "train")):
        raise InvalidRecord(phrase("engine.why.action_play_only", index=index, seat=seat))
    if "train" in action and not (
        action["train"] == "common"
        or (type(action["train"]) is int and 0 <= action["train"] < players)
    ):
        raise InvalidRecord(
            phrase("engine.why.action_train", index=index, seat=seat, last=players - 1)
        )
    if "orient" in action and action["orient"] not in ("across", "along"):
        raise InvalidRecord(phrase("engine.why.action_orient", index=index, seat=seat))
    if "side" in action and action["side"] not in _RECORD_SIDES:
        raise InvalidRecord(phrase("engine.why.action_side", index=index, seat=seat))


def resolve_action(state: HandState, raw: dict[str, Any]) -> Action:
    """Turn a record action into an engine action, choosing the open place it names."""
    if "draw" in raw:
        return DRAW
    if "pass" in raw:
        return PASS
    if "skip" in raw:
        return SKIP
    tile = parse_tile(raw["play"])
    along = raw.get("orient") == "along"
    board = state.board
    if "train" in raw and (board is None or not board.trains):
        raise IllegalAction(
            raw["seat"],
            phrase("engine.action.play", tile=tile.text),
            phrase("engine.why.no_trains_to_name"),
        )
    if state.line.is_empty:
        return Play(tile, None, along)
    if board is not None:
        return Play(tile, _board_place(board, tile, raw), along)
    candidates: list[Place] = state.line.places_for(tile)
    if "at" in raw:
        at = parse_tile(raw["at"])
        candidates = [p for p in candidates if p.tile is at]
    if "side" in raw:
        side = Side(raw["side"])
        untouched_opening_double = not state.line.connections and state.line.tiles[0].is_double
        if untouched_opening_double and side is Side.B:
            side = Side.A  # an opening double's first side used is side A
        candidates = [p for p in candidates if p.side is side]
    if not candidates:
        fits = state.line.places_for(tile)
        if fits:
            raise IllegalAction(
                raw["seat"],
                phrase("engine.action.play", tile=tile.text),
                phrase("engine.why.fits_no_named_place"),
            )
        return Play(tile, None, along)  # apply() names the rule this breaks
    if "at" not in raw and len({p.tile for p in candidates}) > 1:
        first, second = candidates[0].tile.text, candidates[1].tile.text
        raise InvalidRecord(
            phrase("engine.why.say_which_at", tile=tile.text, first=first, second=second)
        )
    return Play(tile, candidates[0], along)


def _board_place(board: Board, tile: Tile, raw: dict[str, Any]) -> Place | None:
    """The place a record's play names on a cross, a telephone or trains: by `train`, or by
    `at` and `side`, or the one place the tile fits; None when nothing fits (the engine then
    names the rule broken)."""
    seat = raw["seat"]
    if "train" in raw:
        key: RayKey = COMMON if raw["train"] == "common" else raw["train"]
        place = board.ends.get(key)
        if place is None:
            what = phrase("engine.action.play", tile=tile.text)
            raise IllegalAction(seat, what, phrase("engine.why.train_closed"))
        if ("at" in raw and parse_tile(raw["at"]) is not place.tile) or (
            "side" in raw and raw["side"] != place.side.value
        ):
            raise IllegalAction(
                seat,
                phrase("engine.action.play", tile=tile.text),
                phrase("engine.why.train_not_at_place"),
            )
        return place
    if "at" in raw and "side" in raw:
        at = parse_tile(raw["at"])
        return Place.of(at, Side(raw["side"]))
    candidates = board.places_for(tile)
    if not candidates:
        candidates = [p for p in board.all_places if tile.has(p.value)]
    if "at" in raw:
        at = parse_tile(raw["at"])
        candidates = [p for p in candidates if p.tile is at]
    if "side" in raw:
        candidates = [p for p in candidates if p.side.value == raw["side"]]
    canonical = list(dict.fromkeys(board.canonical(p) for p in candidates))
    if len(canonical) > 1:
        raise InvalidRecord(phrase("engine.why.say_which_place", tile=tile.text))
    return canonical[0] if canonical else None


def action_to_dict(seat: int, action: Action, board: Board | None = None) -> dict[str, Any]:
    """The record form of one action (`board`: the table it was laid on, when it is not a
    line, so that a play on a train names it)."""
    if isinstance(action, Play):
        out: dict[str, Any] = {"seat": seat, "play": action.tile.key}
        place = action.place
        if place is not None:
            out["at"] = place.tile.key
            train = train_of_port(place.side)
            if train is None:
                out["side"] = place.side.value
                train = board.train_of(place.tile) if board is not None else None
            if train is not None:
                out["train"] = "common" if train == COMMON else train
        if action.along:
            out["orient"] = "along"
        return out
    if isinstance(action, Draw):
        return {"seat": seat, "draw": True}
    if isinstance(action, Skip):
        return {"seat": seat, "skip": True}
    return {"seat": seat, "pass": True}


def record_of(state: HandState, scores: tuple[int, ...], hand: int = 1) -> HandRecord:
    """The record of a hand played so far on `state`."""
    return HandRecord(
        rules=state.rules,
        scores=scores,
        opener=state.opener,
        hands=tuple(tuple(tiles_in(mask)) for mask in state.dealt),
        boneyard=tuple(state.boneyard),
        actions=tuple(action_to_dict(seat, a, state.board) for seat, a in state.history),
        hand=hand,
        lead=None if state.rules.opener_rule(hand).is_claimed else state.required_lead,
    )


@dataclass(frozen=True)
class ReplayStep:
    """One replayed action; `drawn` is the tile a draw took, `board` the line after a play,
    `notes` what the rules made happen after it (points scored, penalties, extra turns …)."""

    index: int
    seat: int
    action: Action
    drawn: Tile | None
    board: str | None
    notes: tuple[TurnNote, ...] = ()


@dataclass
class Replay:
    """The outcome of replaying a record."""

    state: HandState
    record: HandRecord
    steps: list[ReplayStep] = field(default_factory=list)
    scores: tuple[int, ...] = ()
    match: MatchOutcome | None = None

    @property
    def result(self) -> HandResult:
        return self.state.outcome()


def _claimed_lead(record: HandRecord) -> Tile | None:
    """The tile the opener must lead when the opening rule ranks tiles (checked against the
    record's opener); None when the rule does not depend on the deal."""
    rules = record.rules
    rule = rules.opener_rule(record.hand)
    if not rule.is_claimed:
        return record.lead  # a fallback that ranked the deal, written down by whoever knew
    best = best_of(rank_list(rules, record.hand), (t for hand in record.hands for t in hand))
    if best is None:
        return None  # the fallback decided, from facts outside this record
    seat = next(s for s, hand in enumerate(record.hands) if best in hand)
    if seat != record.opener:
        if record.hand == 1:
            raise InvalidRecord(
                phrase("engine.why.wrong_opener", tile=best.text, seat=seat, opener=record.opener)
            )
        raise InvalidRecord(
            phrase("engine.why.wrong_opener_later", tile=best.text, seat=seat, opener=record.opener)
        )
    return best


def start_state(record: HandRecord) -> HandState:
    """The hand as dealt, before its first action, with the match scores before it (what
    `replay` starts from; a hand's review replays it again decision by decision)."""
    must_lead = _claimed_lead(record)
    state = HandState(record.rules, record.hands, record.boneyard, record.opener, must_lead)
    state.match_scores = (
        tuple(record.scores[seat % 2] for seat in range(len(record.hands)))
        if record.rules.pairs
        else record.scores
    )
    return state


def replay(record: HandRecord, lang: str = "en") -> Replay:
    """Validate and replay every action; an illegal one raises InvalidRecord naming it."""
    state = start_state(record)
    out = Replay(state, record)
    for index, raw in enumerate(record.actions):
        seat = raw["seat"]
        try:
            action = resolve_action(state, raw)
            before = state.boneyard_size
            state.apply(seat, action)
        except IllegalAction as exc:
            raise InvalidRecord(
                phrase("engine.why.action_refused", index=index, reason=_reason(exc))
            ) from None
        except InvalidRecord as exc:
            reason = _reason(exc)
            raise InvalidRecord(
                phrase("engine.why.action_refused_seat", index=index, seat=seat, reason=reason)
            ) from None
        drawn = state.drawn_tiles[-1] if state.boneyard_size < before else None
        board = (
            describe(state.line, lang, state.rules.reads_end_total)
            if isinstance(action, Play)
            else None
        )
        out.steps.append(ReplayStep(index, seat, action, drawn, board, tuple(state.notes)))
    result = state.outcome()
    finished = state.result is not None and state.result.end is not HandEnd.VOID
    if finished:
        out.scores = add_hand(record.rules, record.scores, result)
    elif state.result is None and record.rules.move_scoring not in _SETTLED_AT_THE_END:
        # Fives, Threes: a placement's points are written as it is made.
        out.scores = tuple(map(add, record.scores, result.points))
    else:
        out.scores = record.scores
    out.match = match_outcome(record.rules, out.scores, record.hand, result) if finished else None
    return out


def actions_scored(steps: list[ReplayStep]) -> list[dict[str, Any]]:
    """Every point an action scored during play: {action, seat, points, why}; a Threes-for-luck
    penalty is negative points with why "penalty"."""
    out: list[dict[str, Any]] = []
    for step in steps:
        for note in step.notes:
            if note.kind == "score":
                out.append(
                    {
                        "action": step.index,
                        "seat": note.seat,
                        "points": note.points,
                        "why": note.why,
                    }
                )
            elif note.kind == "penalty":
                out.append(
                    {
                        "action": step.index,
                        "seat": note.seat,
                        "points": -note.points,
                        "why": "penalty",
                    }
                )
    return out


def _reason(error: Exception) -> str:
    """An engine error's message: its `Phrase` (read again in a player's language), else its
    text as it is."""
    said = error.args[0] if len(error.args) == 1 else None
    return said if isinstance(said, Phrase) else str(error)
