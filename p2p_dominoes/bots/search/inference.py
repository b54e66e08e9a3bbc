"""What a seat's view shows of its opponents' tiles: the public history replayed, with what each
pass and draw rules out (and, under an opponent model, what the model's choices rule out)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Final

from p2p_dominoes.bots.search.playout import HEAVIER, MORE_PIPS
from p2p_dominoes.bots.search.position import Facts, PositionError
from p2p_dominoes.engine.actions import Draw, Pass, Play, Skip
from p2p_dominoes.engine.errors import IllegalAction
from p2p_dominoes.engine.legality import playable_mask
from p2p_dominoes.engine.public import PublicHand
from p2p_dominoes.engine.rules import Drawing
from p2p_dominoes.engine.tiles import (
    ALL_TILES_MASK,
    DOUBLES_MASK,
    Tile,
)
from p2p_dominoes.engine.turns import TurnMachine
from p2p_dominoes.engine.view import SeatView

_DRAWING_WHEN_STUCK: Final = Drawing.WHEN_STUCK


# -- the public replay -------------------------------------------------------------------------


@dataclass
class _Slot:
    """A tile an opponent drew and may still hold: `cannot` are the tiles it cannot be."""

    cannot: int
    turn_of: int


class Inference:
    """Per opponent: the tiles their dealt part cannot be, and each drawn tile's constraint."""

    def __init__(self, players: int) -> None:
        self.dealt_cannot = [0] * players
        self.slots: list[list[_Slot]] = [[] for _ in range(players)]

    def stuck(self, seat: int, fitting: int) -> None:
        """`seat` showed it held no tile in `fitting` (a pass, or a draw allowed only so)."""
        self.dealt_cannot[seat] |= fitting
        for slot in self.slots[seat]:
            slot.cannot |= fitting

    def drew(self, seat: int, turn_index: int) -> None:
        self.slots[seat].append(_Slot(0, turn_index))

    def played(self, seat: int, tile: Tile) -> None:
        """`seat` laid `tile`: a drawn tile is used up only when the dealt part cannot hold it."""
        bit = tile.bit
        if not self.dealt_cannot[seat] & bit:
            return  # it may have come from the dealt part: keeping every slot is the safe side
        candidates = [s for s in self.slots[seat] if not s.cannot & bit]
        if not candidates:
            return
        merged = ALL_TILES_MASK
        for slot in candidates:
            merged &= slot.cannot
        self.slots[seat].remove(candidates[0])
        for slot in candidates[1:]:
            slot.cannot = merged

    def cannot_hold(self, seat: int) -> int:
        mask = self.dealt_cannot[seat]
        for slot in self.slots[seat]:
            mask &= slot.cannot
        return mask


def _fitting(machine: TurnMachine) -> int:
    """The tiles a hand could play now at `machine`'s table (no drawn tile pending)."""
    if not machine.line.tiles:
        return 0
    mask = playable_mask(ALL_TILES_MASK, machine.line, None, machine.must_lead)
    return mask & DOUBLES_MASK if machine.second_double else mask


class OpponentModel(IntEnum):
    """What a sampler assumes of the opponents beyond the rules: each level assumes all the
    ones before it. A model is a guess, not a certainty (`Sampler.consistent` tells when the
    table contradicts it)."""

    NONE = 0
    STUCK_DRAWS = 1
    """An opponent draws only when nothing fits, even where the rules let it draw at will."""
    HEAVY = 2
    """And lays a tile with the most pips of those that fit (ties broken any way)."""
    GREEDY = 3
    """And among those, the one with the higher half, as `greedy` does."""


def replay_view(
    view: SeatView,
    facts: Facts,
    model: OpponentModel = OpponentModel.NONE,
    model_moves: int | None = None,
) -> tuple[PublicHand, Inference]:
    """The view's history replayed on a public hand, with what it shows of opponents' tiles
    (under `model`, also what it shows if the opponents play as the model says, in the
    hand's first `model_moves` actions, or all)."""
    rules = view.rules
    history = view.history
    players = len(view.tile_counts)
    opener = history[0][0] if history else view.turn
    led = any(type(action) is Play for _, action in history)
    public = PublicHand(rules, players, opener, None if led else facts.must_lead)
    public.match_scores = facts.match_scores
    inference = Inference(players)
    own = iter(facts.own_draws)
    drawn_now: set[int] = set()
    last_draw: dict[int, int] = {}
    """Seat → the history index of its last draw that would have made a fitting tile pending."""
    stuck_draws = rules.drawing is _DRAWING_WHEN_STUCK
    at_once = rules.play_drawn_at_once
    heaviest_plays = model >= OpponentModel.HEAVY
    heavier = HEAVIER if model >= OpponentModel.GREEDY else MORE_PIPS
    assumed_stuck = model >= OpponentModel.STUCK_DRAWS
    unit = rules.unit_of(view.seat)
    try:
        for index, (seat, action) in enumerate(history):
            if seat != public.turn:
                raise PositionError(f"history action {index} is seat {seat}'s out of turn")
            kind = type(action)
            fitting = _fitting(public)
            if kind is not Play and last_draw.get(seat) == index - 1:
                # The tile just drawn was not made pending, so it did not fit.
                slots = inference.slots[seat]
                if slots:
                    slots[-1].cannot |= fitting
            if kind is Play:
                assert isinstance(action, Play)
                if (
                    heaviest_plays
                    and (model_moves is None or index < model_moves)
                    and rules.unit_of(seat) != unit  # an opponent: never the partner
                    and public.must_lead is None
                    and last_draw.get(seat) != index - 1  # not a drawn tile played at once
                ):
                    # (A lead tells nothing: `fitting` is empty, and the replay cannot tell a
                    # free lead from one the opening rules forced.)
                    inference.stuck(seat, fitting & heavier[action.tile.index])
                from_draw = seat == view.seat and action.tile.bit in drawn_now
                public.play(seat, action, from_draw)
                inference.played(seat, action.tile)
            elif kind is Draw:
                forced = public.forced_due > 0
                if (stuck_draws or (assumed_stuck and rules.unit_of(seat) != unit)) and not forced:
                    inference.stuck(seat, fitting)
                informative = at_once and not forced and public.must_lead is None
                public.draw(seat)
                if informative and seat != view.seat:
                    last_draw[seat] = index
                if seat == view.seat:
                    tile = next(own, None)
                    if tile is not None:
                        drawn_now.add(tile.bit)
                else:
                    inference.drew(seat, index)
            elif kind is Pass:
                inference.stuck(seat, fitting)
                public.pass_turn(seat)
            elif kind is Skip:
                public.skip(seat)
            else:
                raise PositionError(f"history action {index} is not an action")
            if public.turn != seat:
                drawn_now.clear()
    except IllegalAction as exc:
        raise PositionError(f"the view's history is not legal: {exc}") from None
    return public, inference
