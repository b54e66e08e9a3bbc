"""Samples of the hidden tiles that fit a seat's view, and the positions they make."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from p2p_dominoes.bots.search.inference import OpponentModel, replay_view
from p2p_dominoes.bots.search.position import PositionError, facts_of
from p2p_dominoes.engine.hand import HandState
from p2p_dominoes.engine.tiles import (
    ALL_TILES_MASK,
    TILES,
    Tile,
    mask_of,
    tiles_in,
)
from p2p_dominoes.engine.view import SeatView


@dataclass(frozen=True)
class Hidden:
    """An assignment of the tiles a seat cannot see: each seat's hand (the viewer's own entry
    is its hand) and the boneyard in the order it would be drawn."""

    hands: tuple[int, ...]
    boneyard: tuple[Tile, ...]


def _union(masks: Iterable[int]) -> int:
    union = 0
    for mask in masks:
        union |= mask
    return union


def unseen_mask(view: SeatView) -> int:
    """The tiles neither in the seat's hand nor on the table."""
    return ALL_TILES_MASK & ~mask_of(view.hand) & ~mask_of(view.line.tiles)


class Sampler:
    """One seat's view, replayed once: what each opponent cannot hold, samples of the hidden
    tiles, and the positions they make (a search draws many samples from one view)."""

    def __init__(
        self,
        view: SeatView,
        model: OpponentModel = OpponentModel.NONE,
        model_moves: int | None = None,
    ) -> None:
        """Replay the view's history; PositionError when it is not legal. `model`: what the
        opponents are assumed to do beyond the rules (a guess: see `consistent`), read into
        their plays among the hand's first `model_moves` actions (None: all of them)."""
        self.view = view
        self.facts = facts_of(view)
        self.model = model
        self.public, inference = replay_view(view, self.facts, model, model_moves)
        self.own = mask_of(view.hand)
        self.unseen = unseen_mask(view)
        seen = ALL_TILES_MASK & ~self.unseen
        players = len(view.tile_counts)
        self.cannot: tuple[int, ...] = tuple(
            ALL_TILES_MASK & ~self.own if seat == view.seat else inference.cannot_hold(seat) | seen
            for seat in range(players)
        )
        """For each seat, the bits of tiles it surely does not hold now (the viewer's entry:
        every tile not in its hand)."""
        others = [s for s in range(players) if s != view.seat]
        # The most constrained opponent chooses first; the boneyard takes what is left.
        others.sort(key=lambda s: -(self.cannot[s] & self.unseen).bit_count())
        self._others = others
        self._unseen_tiles = list(tiles_in(self.unseen))
        self._satisfiable: bool | None = None

    def hidden(
        self, rng: random.Random, cannot: Sequence[int] | None = None, tries: int = 20
    ) -> Hidden:
        """A random assignment of the unseen tiles that fits the counts and, where it can
        (`tries` attempts), what each opponent cannot hold (`cannot`, default the inferred)."""
        barred_by = self.cannot if cannot is None else cannot
        counts = self.view.tile_counts
        for attempt in range(tries + 1):
            strict = attempt < tries
            pool = self._unseen_tiles.copy()
            rng.shuffle(pool)
            hands = [0] * len(counts)
            hands[self.view.seat] = self.own
            for seat in self._others:
                barred = barred_by[seat] if strict else 0
                want = counts[seat]
                chosen = [t for t in pool if not barred & t.bit][:want]
                if len(chosen) < want:
                    break
                mask = mask_of(chosen)
                hands[seat] = mask
                pool = [t for t in pool if not mask & t.bit]
            else:
                return Hidden(tuple(hands), tuple(pool))
        raise PositionError("no assignment of the unseen tiles fits the tile counts")

    def consistent(self, hidden: Hidden) -> bool:
        """Whether `hidden` gives no seat a tile it cannot hold (`hidden` gives up on that
        after its tries, whether or not such an assignment exists: see `satisfiable`)."""
        return not any(h & c for h, c in zip(hidden.hands, self.cannot, strict=True))

    def satisfiable(self) -> bool:
        """Whether some assignment of the unseen tiles gives each opponent as many tiles as it
        holds, none it cannot hold (Hall's condition over every group of opponents; the
        boneyard takes the rest). Always so without a model; a model the table contradicts
        may fail it."""
        if self._satisfiable is None:
            counts = self.view.tile_counts
            allowed = {s: self.unseen & ~self.cannot[s] for s in self._others}
            self._satisfiable = all(
                _union(allowed[s] for s in group).bit_count() >= sum(counts[s] for s in group)
                for size in range(1, len(self._others) + 1)
                for group in itertools.combinations(self._others, size)
            )
        return self._satisfiable

    def position(self, hidden: Hidden) -> HandState:
        """The full hand state the view shows, with the hidden tiles as `hidden` assigns them;
        PositionError (one line) when the assignment or the view's history does not fit."""
        view, facts, public = self.view, self.facts, self.public
        counts = tuple(view.tile_counts)
        players = len(counts)
        hands = hidden.hands
        if len(hands) != players:
            raise PositionError(f"{len(hands)} hands for {players} players")
        if hands[view.seat] != self.own:
            raise PositionError(f"seat {view.seat}'s hand is not the one the view shows")
        if public.line.tiles != view.line.tiles or public.turn != view.turn:
            raise PositionError("the view's history does not lead to the view's table")
        if tuple(public.counts) != counts or public.boneyard_size != view.boneyard_size:
            raise PositionError("the view's history does not lead to the view's tile counts")
        seen = mask_of(view.line.tiles)
        for seat, mask in enumerate(hands):
            if mask.bit_count() != counts[seat]:
                raise PositionError(
                    f"seat {seat} is given {mask.bit_count()} tiles, holds {counts[seat]}"
                )
            if seen & mask:
                raise PositionError(f"seat {seat} is given a tile that is elsewhere")
            seen |= mask
        boneyard = mask_of(hidden.boneyard)
        if len(hidden.boneyard) != view.boneyard_size or seen & boneyard:
            raise PositionError(f"the boneyard must hold {view.boneyard_size} other tiles")
        if seen | boneyard != ALL_TILES_MASK:
            missing = ", ".join(t.text for t in tiles_in(ALL_TILES_MASK & ~(seen | boneyard)))
            raise PositionError(f"the assignment leaves out {missing}")
        pending = facts.pending if view.turn == view.seat else None
        if pending is not None and not self.own & pending.bit:
            raise PositionError(f"the pending tile {pending.text} is not in the seat's hand")
        drawn = 28 - players * public.rules.hand_size(players) - view.boneyard_size
        this_turn = list(facts.own_draws[len(facts.own_draws) - public.draws_this_turn :])
        if view.turn != view.seat or len(this_turn) != public.draws_this_turn:
            this_turn = []
        filler = [TILES[0]] * (drawn - len(this_turn))
        order = [*filler, *this_turn, *hidden.boneyard]
        state = HandState.assembled(public, hands, order, drawn, pending)
        state.move_points = list(view.move_points())
        tallies = view.luck_tallies()
        state.wins = [w for w, _ in tallies]
        state.penalties = [p for _, p in tallies]
        return state


def cannot_hold(view: SeatView) -> tuple[int, ...]:
    """For each seat, the bits of tiles it surely does not hold now, from the public actions
    (passes, draws allowed only when stuck, drawn tiles that were not pending) and from what
    the seat of `view` sees (its own tiles and the line). The seat's own entry is every tile
    it does not hold."""
    return Sampler(view).cannot


def sample_hidden(
    view: SeatView, rng: random.Random, cannot: Sequence[int] | None = None, tries: int = 20
) -> Hidden:
    """`Sampler(view).hidden(rng, cannot, tries)`."""
    return Sampler(view).hidden(rng, cannot, tries)


def position(view: SeatView, hidden: Hidden) -> HandState:
    """`Sampler(view).position(hidden)`: the view's position with `hidden` filled in."""
    return Sampler(view).position(hidden)


def sample_position(
    view: SeatView, rng: random.Random, cannot: Sequence[int] | None = None
) -> HandState:
    """`position` of a `sample_hidden` assignment: one determinization of the view."""
    sampler = Sampler(view)
    return sampler.position(sampler.hidden(rng, cannot))
