"""What one seat may know of a hand: its own tiles, the others' counts, the line, the history."""

from __future__ import annotations

from typing import Final, Protocol

from p2p_dominoes.engine.actions import DRAW, PASS, SKIP, Action, Play
from p2p_dominoes.engine.hand import HandState
from p2p_dominoes.engine.line import Line
from p2p_dominoes.engine.rules import Drawing, Rules
from p2p_dominoes.engine.tiles import Tile, tiles_in

# Enum members as module constants: Python 3.11 does not specialise attribute loads on a
# class, and these are read on every hand or every move.
_DRAWING_NEVER: Final = Drawing.NEVER


class SeatView(Protocol):
    """The read-only view bots and UIs get; never the full state."""

    @property
    def seat(self) -> int: ...
    @property
    def rules(self) -> Rules: ...
    @property
    def hand(self) -> list[Tile]: ...
    @property
    def tile_counts(self) -> tuple[int, ...]: ...
    @property
    def boneyard_size(self) -> int: ...
    @property
    def line(self) -> Line: ...
    @property
    def turn(self) -> int: ...
    @property
    def history(self) -> list[tuple[int, Action]]: ...
    def legal_plays(self) -> list[Play]: ...
    def can_draw(self) -> bool: ...
    def can_pass(self) -> bool: ...
    def can_skip(self) -> bool: ...
    def move_points(self) -> tuple[int, ...]: ...
    def luck_tallies(self) -> tuple[tuple[int, int], ...]: ...


class HandView:
    """A seat's view over a local `HandState` (simulations, replays)."""

    __slots__ = ("_state", "seat")

    def __init__(self, state: HandState, seat: int) -> None:
        self._state = state
        self.seat = seat

    @property
    def rules(self) -> Rules:
        return self._state.rules

    @property
    def hand(self) -> list[Tile]:
        return list(tiles_in(self._state.hands[self.seat]))

    @property
    def tile_counts(self) -> tuple[int, ...]:
        return tuple(h.bit_count() for h in self._state.hands)

    @property
    def boneyard_size(self) -> int:
        return self._state.boneyard_size

    @property
    def line(self) -> Line:
        return self._state.line

    @property
    def turn(self) -> int:
        return self._state.turn

    @property
    def history(self) -> list[tuple[int, Action]]:
        return list(self._state.history)

    def legal_plays(self) -> list[Play]:
        state = self._state
        return state.legal_plays() if state.turn == self.seat else []

    def can_draw(self) -> bool:
        state = self._state
        if state.turn != self.seat or state.result is not None:
            return False
        if state.rules.drawing is _DRAWING_NEVER:
            return False
        return state.can_draw(state.playable_mask(self.seat))

    def can_pass(self) -> bool:
        state = self._state
        if state.turn != self.seat or state.result is not None:
            return False
        return not state.playable_mask(self.seat) and state.pass_is_public_legal()

    def move_points(self) -> tuple[int, ...]:
        """What each seat's placements scored this hand (rules that score during play)."""
        return tuple(self._state.move_points)

    def luck_tallies(self) -> tuple[tuple[int, int], ...]:
        """Each seat's (wins, penalties) this hand under Threes for luck."""
        return self._state.luck_tallies()

    def can_skip(self) -> bool:
        state = self._state
        return state.second_double and state.turn == self.seat and state.result is None

    # What a player at a real table also knows (`bots.search.TableView`).

    @property
    def pending(self) -> Tile | None:
        state = self._state
        return state.pending if state.turn == self.seat else None

    @property
    def must_lead(self) -> Tile | None:
        return self._state.must_lead

    @property
    def passes(self) -> int:
        return self._state.passes

    @property
    def own_draws(self) -> tuple[Tile, ...]:
        """The tiles this seat drew, in order (the k-th draw of the hand took boneyard[k])."""
        state = self._state
        draws = [seat for seat, action in state.history if action is DRAW]
        return tuple(
            t
            for t, seat in zip(state.boneyard[: len(draws)], draws, strict=True)
            if seat == self.seat
        )

    @property
    def match_scores(self) -> tuple[int, ...]:
        return tuple(self._state.match_scores)

    @property
    def target(self) -> int:
        return self._state.rules.target(self._state.players)


def legal_actions(view: SeatView) -> list[Action]:
    """Plays, then draw or pass, for the seat of `view` when it is to act."""
    actions: list[Action] = list(view.legal_plays())
    if view.can_skip():
        actions.append(SKIP)
        return actions
    if view.can_draw():
        actions.append(DRAW)
    if view.can_pass():
        actions.append(PASS)
    return actions
