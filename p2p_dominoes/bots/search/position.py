"""A seat's view completed and detached: the facts a seat knows beyond `SeatView`, snapshots safe to
read from another thread."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from p2p_dominoes.engine.actions import Action, Pass, Play
from p2p_dominoes.engine.errors import InvalidRecord
from p2p_dominoes.engine.line import Line
from p2p_dominoes.engine.rules import Rules
from p2p_dominoes.engine.tiles import (
    Tile,
)
from p2p_dominoes.engine.view import SeatView


class PositionError(InvalidRecord):
    """An assignment of hidden tiles (or a history) that does not fit the seat's view."""


class TableView(SeatView, Protocol):
    """A seat's view completed with what a player at a real table also knows."""

    @property
    def pending(self) -> Tile | None:
        """The seat's drawn tile that fits and must be played at once (play_drawn_at_once)."""
        ...

    @property
    def must_lead(self) -> Tile | None:
        """The tile the rules oblige the opener to lead, until the lead is made."""
        ...

    @property
    def passes(self) -> int:
        """Passes in a row so far (as many as there are players block the hand)."""
        ...

    @property
    def own_draws(self) -> tuple[Tile, ...]:
        """The tiles this seat drew this hand, in the order drawn."""
        ...

    @property
    def match_scores(self) -> tuple[int, ...]:
        """The match scores before this hand."""
        ...

    @property
    def target(self) -> int:
        """The match target for this many players (0: a fixed number of hands)."""
        ...


# -- the view completed ------------------------------------------------------------------------


@dataclass(frozen=True)
class Facts:
    """The items a seat knows beyond `SeatView`, with safe defaults when a view lacks them."""

    pending: Tile | None
    must_lead: Tile | None
    passes: int
    own_draws: tuple[Tile, ...]
    match_scores: tuple[int, ...]
    target: int


def facts_of(view: SeatView) -> Facts:
    """What `view` tells beyond `SeatView` (a `TableView` tells all; others: defaults)."""
    players = len(view.tile_counts)
    scores = getattr(view, "match_scores", None)
    target = getattr(view, "target", None)
    return Facts(
        pending=getattr(view, "pending", None),
        must_lead=getattr(view, "must_lead", None),
        passes=int(getattr(view, "passes", _trailing_passes(view.history))),
        own_draws=tuple(getattr(view, "own_draws", ())),
        match_scores=tuple(scores) if scores is not None else (0,) * players,
        target=int(target) if target is not None else view.rules.target(players),
    )


def _trailing_passes(history: Sequence[tuple[int, Action]]) -> int:
    count = 0
    for _, action in reversed(history):
        if type(action) is not Pass:
            break
        count += 1
    return count


@dataclass(frozen=True)
class Snapshot:
    """A detached copy of a seat's view at one moment: safe to read from another thread while
    the table goes on (the live view shares the table's line and history)."""

    seat: int
    rules: Rules
    hand: list[Tile]
    tile_counts: tuple[int, ...]
    boneyard_size: int
    line: Line
    turn: int
    history: list[tuple[int, Action]]
    plays: tuple[Play, ...]
    drawing: bool
    passing: bool
    skipping: bool
    points: tuple[int, ...]
    tallies: tuple[tuple[int, int], ...]
    pending: Tile | None
    must_lead: Tile | None
    passes: int
    own_draws: tuple[Tile, ...]
    match_scores: tuple[int, ...]
    target: int

    def legal_plays(self) -> list[Play]:
        return list(self.plays)

    def can_draw(self) -> bool:
        return self.drawing

    def can_pass(self) -> bool:
        return self.passing

    def can_skip(self) -> bool:
        return self.skipping

    def move_points(self) -> tuple[int, ...]:
        return self.points

    def luck_tallies(self) -> tuple[tuple[int, int], ...]:
        return self.tallies


def snapshot(view: SeatView) -> Snapshot:
    """Copy everything `view` shows now (and the completed facts) into a `Snapshot`."""
    facts = facts_of(view)
    return Snapshot(
        view.seat,
        view.rules,
        list(view.hand),
        tuple(view.tile_counts),
        view.boneyard_size,
        view.line.copy(),
        view.turn,
        list(view.history),
        tuple(view.legal_plays()),
        view.can_draw(),
        view.can_pass(),
        view.can_skip(),
        tuple(view.move_points()),
        tuple(view.luck_tallies()),
        facts.pending,
        facts.must_lead,
        facts.passes,
        facts.own_draws,
        facts.match_scores,
        facts.target,
    )
