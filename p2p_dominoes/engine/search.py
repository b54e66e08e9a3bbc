"""What a searching bot needs from the engine: copies, positions from a seat's view, inference
of what opponents cannot hold, sampling of the hidden tiles, and a fast play-out path.

Everything here reads only what a seat may know (its `SeatView`) plus, for a position, an
assignment of the hidden tiles that the caller supplies (a sample). A position is replayed from
the view's public history on a `PublicHand`, so every public rule (clocks, forced draws, scores
during play) comes out as the table has it; the hidden part is then checked against the view.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import Final, Protocol

from p2p_dominoes.engine.actions import Action, Draw, Pass, Play, Skip
from p2p_dominoes.engine.errors import IllegalAction, InvalidRecord
from p2p_dominoes.engine.hand import HandState
from p2p_dominoes.engine.legality import playable_mask
from p2p_dominoes.engine.line import Line
from p2p_dominoes.engine.public import PublicHand
from p2p_dominoes.engine.rules import Drawing, MoveScoring, Rules
from p2p_dominoes.engine.scoring import HandEnd, HandResult, score_hand
from p2p_dominoes.engine.tiles import (
    ALL_TILES_MASK,
    DOUBLES_MASK,
    TILES,
    VALUE_MASK,
    Tile,
    mask_of,
    pips_in,
    tiles_in,
)
from p2p_dominoes.engine.turns import TurnMachine, _Clock
from p2p_dominoes.engine.view import SeatView

_DRAWING_ANY_TIME: Final = Drawing.ANY_TIME
_DRAWING_NEVER: Final = Drawing.NEVER
_DRAWING_WHEN_STUCK: Final = Drawing.WHEN_STUCK
_MOVES_NONE: Final = MoveScoring.NONE
_BLOCK: Final = HandEnd.BLOCK
_DOMINO: Final = HandEnd.DOMINO
_MISSING: Final = object()


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


# -- copies ------------------------------------------------------------------------------------


def _slots(kind: type) -> list[str]:
    names: list[str] = []
    for klass in kind.__mro__:
        names += [n for n in getattr(klass, "__slots__", ()) if n not in names]
    return names


def _copied(value: object) -> object:
    if isinstance(value, list):
        if value and isinstance(value[0], _Clock):
            return [_Clock(c.place, c.layer, set(c.others), c.armed) for c in value]
        return value.copy()
    if isinstance(value, (Line, set, dict)):
        return value.copy()
    return value


def _copy_into(source: TurnMachine, target: TurnMachine, names: Sequence[str]) -> None:
    for name in names:
        value = getattr(source, name, _MISSING)
        if value is not _MISSING:
            setattr(target, name, _copied(value))


def copy_state(state: HandState) -> HandState:
    """An independent copy of `state`: acting on one never changes the other."""
    other = HandState.__new__(HandState)
    _copy_into(state, other, _slots(HandState))
    return other


# -- the public replay -------------------------------------------------------------------------


@dataclass
class _Slot:
    """A tile an opponent drew and may still hold: `cannot` are the tiles it cannot be."""

    cannot: int
    turn_of: int


class _Inference:
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


def _replay(
    view: SeatView,
    facts: Facts,
    model: OpponentModel = OpponentModel.NONE,
    model_moves: int | None = None,
) -> tuple[PublicHand, _Inference]:
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
    inference = _Inference(players)
    own = iter(facts.own_draws)
    drawn_now: set[int] = set()
    last_draw: dict[int, int] = {}
    """Seat → the history index of its last draw that would have made a fitting tile pending."""
    stuck_draws = rules.drawing is _DRAWING_WHEN_STUCK
    at_once = rules.play_drawn_at_once
    heaviest_plays = model >= OpponentModel.HEAVY
    heavier = _HEAVIER if model >= OpponentModel.GREEDY else _MORE_PIPS
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
        self.public, inference = _replay(view, self.facts, model, model_moves)
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
        state = HandState.__new__(HandState)
        _copy_into(public, state, _slots(TurnMachine))
        state.move_points = list(view.move_points())
        if hasattr(public, "wins"):
            tallies = view.luck_tallies()
            state.wins = [w for w, _ in tallies]
            state.penalties = [p for _, p in tallies]
        state.hands = list(hands)
        state.dealt = tuple(hands)
        drawn = 28 - players * public.rules.hand_size(players) - view.boneyard_size
        this_turn = list(facts.own_draws[len(facts.own_draws) - public.draws_this_turn :])
        if view.turn != view.seat or len(this_turn) != public.draws_this_turn:
            this_turn = []
        filler = [TILES[0]] * (drawn - len(this_turn))
        state.boneyard = [*filler, *this_turn, *hidden.boneyard]
        state._drawn = drawn
        state.pending = pending
        state.result = None
        return state

    def fast(self, hidden: Hidden) -> FastHand:
        """`FastHand(self.position(hidden))` without the checks and the copy (a search's hot
        path; the rules must fit it: `FastHand.fits`)."""
        public = self.public
        fast = FastHand.__new__(FastHand)
        fast._set_rules(public.rules)
        fast.players = public.players
        fast.hands = list(hidden.hands)
        fast.a, fast.b = _ends(public.line)
        fast.boneyard = hidden.boneyard
        fast.drawn = 0
        fast.size = public.boneyard_size
        fast.turn = public.turn
        fast.passes = public.passes
        pending = self.facts.pending if public.turn == self.view.seat else None
        fast.pending = pending.bit if pending is not None else 0
        fast.must_lead = public.must_lead.bit if public.must_lead is not None else 0
        fast.end = public.end
        fast.closer = public.closer
        return fast


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


def _ends(line: Line) -> tuple[int, int]:
    """The two open ends' numbers of a plain line (-1, -1 before the lead)."""
    if not line.tiles:
        return -1, -1
    places = line.places
    return places[0].value, places[-1].value


# -- the fast play-out path --------------------------------------------------------------------

PASS_MOVE: Final = -1
DRAW_MOVE: Final = -2
LEAD: Final = 7
"""A fast move is `tile.index * 8 + value` (the end's number it is laid on; LEAD for the
lead), or PASS_MOVE / DRAW_MOVE."""

_HEAVIEST_FIRST: Final[tuple[Tile, ...]] = tuple(
    sorted(TILES, key=lambda t: (t.pips, t.high), reverse=True)
)
_RANK: Final[tuple[int, ...]] = tuple(len(TILES) - _HEAVIEST_FIRST.index(t) for t in TILES)
"""_RANK[tile.index]: higher for a heavier tile (greedy's order)."""
_HEAVIER: Final[tuple[int, ...]] = tuple(
    mask_of(t for t in TILES if _RANK[t.index] > _RANK[tile.index]) for tile in TILES
)
"""_HEAVIER[tile.index]: the tiles greedy would lay before it."""
_MORE_PIPS: Final[tuple[int, ...]] = tuple(
    mask_of(t for t in TILES if t.pips > tile.pips) for tile in TILES
)
"""_MORE_PIPS[tile.index]: the tiles with more pips than it."""
_BY_RANK: Final[tuple[int, ...]] = tuple(t.index for t in _HEAVIEST_FIRST)
_LOW: Final[tuple[int, ...]] = tuple(t.low for t in TILES)
_HIGH: Final[tuple[int, ...]] = tuple(t.high for t in TILES)
_PIPS: Final[tuple[int, ...]] = tuple(t.pips for t in TILES)
_PLAY, _DRAW, _PASS = "play", "draw", "pass"
"""What a play-out step does (compared by identity in the loop)."""
_BOTH_ENDS: Final[tuple[int, ...]] = tuple(
    VALUE_MASK[a] & VALUE_MASK[b] if a != b else 0 for a in range(7) for b in range(7)
)
"""_BOTH_ENDS[a * 7 + b]: the bit of the tile [a|b] that fits both of two different ends."""


class FastHand:
    """A hand under the first version's rules (`rules.plain_turns`) as bit masks and two end
    numbers: the same results as `HandState.apply`, without checks or history."""

    __slots__ = (
        "_any_time",
        "_at_once",
        "_never",
        "_reserve",
        "_stuck_draw",
        "a",
        "b",
        "boneyard",
        "closer",
        "drawn",
        "end",
        "hands",
        "must_lead",
        "passes",
        "pending",
        "players",
        "rules",
        "size",
        "turn",
    )

    def __init__(self, state: HandState) -> None:
        """The fast form of `state`; PositionError unless its rules fit (`FastHand.fits`)."""
        rules = state.rules
        if not FastHand.fits(rules):
            raise PositionError(
                f"the fast play-out needs plain turns and no ceremonies; {rules.name} has more"
            )
        self._set_rules(rules)
        self.players = state.players
        self.hands = list(state.hands)
        self.a, self.b = _ends(state.line)
        self.boneyard: Sequence[Tile] = state.boneyard
        """The tiles in draw order; the next drawn is `boneyard[drawn]` (read, never changed)."""
        self.drawn = state._drawn
        self.size = state.boneyard_size
        self.turn = state.turn
        self.passes = state.passes
        self.pending = state.pending.bit if state.pending is not None else 0
        self.must_lead = state.must_lead.bit if state.must_lead is not None else 0
        self.end: HandEnd | None = state.end
        self.closer = state.closer

    @staticmethod
    def fits(rules: Rules) -> bool:
        """Whether hands under `rules` can be played out here: plain turns, and a result that
        the pips left decide (a ceremony reads the hand's history, which is not kept)."""
        return rules.plain_turns and not rules.ceremonies

    def _set_rules(self, rules: Rules) -> None:
        self.rules = rules
        self._any_time = rules.drawing is _DRAWING_ANY_TIME
        self._never = rules.drawing is _DRAWING_NEVER
        self._reserve = rules.reserve
        self._at_once = rules.play_drawn_at_once
        self._stuck_draw = rules.must_draw_when_stuck

    def copy(self) -> FastHand:
        """An independent copy (a search copies a position once per move it tries)."""
        other = FastHand.__new__(FastHand)
        other._any_time, other._at_once, other._never = self._any_time, self._at_once, self._never
        other._reserve, other._stuck_draw, other.rules = self._reserve, self._stuck_draw, self.rules
        other.a, other.b, other.turn, other.passes = self.a, self.b, self.turn, self.passes
        other.boneyard, other.drawn, other.size = self.boneyard, self.drawn, self.size
        other.pending, other.must_lead, other.players = self.pending, self.must_lead, self.players
        other.end, other.closer = self.end, self.closer
        other.hands = self.hands.copy()
        return other

    def playable(self) -> int:
        """Bits of the tiles the seat to move may play."""
        hand = self.hands[self.turn]
        if self.pending:
            return self.pending & hand
        if self.must_lead:
            return self.must_lead & hand
        if self.a < 0:
            return hand
        return hand & (VALUE_MASK[self.a] | VALUE_MASK[self.b])

    def can_draw(self, playable: int) -> bool:
        return (
            not self.pending
            and self.end is None
            and not self._never
            and self.size > self._reserve
            and (self._any_time or not playable)
        )

    def can_pass(self, playable: int) -> bool:
        if playable or self.end is not None:
            return False
        return not (self._stuck_draw and not self._never and self.size > self._reserve)

    def moves(self) -> list[int]:
        """Every legal move of the seat to act (plays by end number, then draw, pass)."""
        if self.end is not None:
            return []
        playable = self.playable()
        moves = []
        a, b = self.a, self.b
        mask = playable
        while mask:
            low = mask & -mask
            mask ^= low
            index = low.bit_length() - 1
            base = index * 8
            if a < 0:
                moves.append(base + LEAD)
                continue
            tile_low, tile_high = _LOW[index], _HIGH[index]
            if tile_low == a or tile_high == a:
                moves.append(base + a)
            if b != a and (tile_low == b or tile_high == b):
                moves.append(base + b)
        if self.can_draw(playable):
            moves.append(DRAW_MOVE)
        if self.can_pass(playable):
            moves.append(PASS_MOVE)
        return moves

    def step(self, move: int) -> None:
        """Make a move `moves` listed (unchecked)."""
        seat = self.turn
        if move == DRAW_MOVE:
            tile = self.boneyard[self.drawn]
            self.drawn += 1
            self.size -= 1
            self.passes = 0
            self.hands[seat] |= tile.bit
            if (
                self._at_once
                and not self.must_lead
                and (self.a < 0 or (VALUE_MASK[self.a] | VALUE_MASK[self.b]) & tile.bit)
            ):
                self.pending = tile.bit
            return
        if move == PASS_MOVE:
            self.passes += 1
            if self.passes >= self.players:
                self.end = _BLOCK
            else:
                self.turn = seat + 1 if seat + 1 < self.players else 0
            return
        tile = TILES[move >> 3]
        value = move & 7
        if value == LEAD:
            self.a, self.b = tile.high, tile.low
        elif self.a == value:
            self.a = tile.other_half(value)
        else:
            self.b = tile.other_half(value)
        hand = self.hands[seat] ^ tile.bit
        self.hands[seat] = hand
        self.passes = 0
        self.pending = 0
        self.must_lead = 0
        if not hand:
            self.end = _DOMINO
            self.closer = seat
        else:
            self.turn = seat + 1 if seat + 1 < self.players else 0

    def greedy_move(self) -> int:
        """The heaviest playable tile on its first fitting end; else draw, else pass."""
        playable = self.playable()
        if playable:
            for tile in _HEAVIEST_FIRST:
                if playable & tile.bit:
                    if self.a < 0:
                        return tile.index * 8 + LEAD
                    value = self.a if tile.has(self.a) else self.b
                    return tile.index * 8 + value
        return DRAW_MOVE if self.can_draw(0) else PASS_MOVE

    def blocking_move(self) -> int:
        """A play after which the next seat holds nothing that fits, the heaviest such; else
        `greedy_move` (a search's own policy in its play-outs: it sees the sampled hands)."""
        playable = self.playable()
        if not playable:
            return self.greedy_move()
        following = self.hands[(self.turn + 1) % self.players]
        index, on_a = _blocking_choice(playable, self.a, self.b, following)
        if self.a < 0:
            return index * 8 + LEAD
        return index * 8 + (self.a if on_a else self.b)

    def play_greedy(self, blocker: int = -1) -> HandResult:
        """Play the hand out with every seat greedy (`greedy_move`), except that seat
        `blocker` (if any) first prefers a play after which the next seat holds nothing that
        fits (`blocking_move`); the result `HandState` would score."""
        return self._play_out(None, blocker)

    def play_random(self, rng: random.Random) -> HandResult:
        """Play the hand out with uniform random moves: each step takes
        `moves()[int(rng.random() * len(moves()))]` (the engine benchmark's play-out)."""
        return self._play_out(rng, -1)

    def _play_out(self, rng: random.Random | None, blocker: int) -> HandResult:
        """The play-outs' loop, `step` and the choice inlined (a search's innermost loop):
        uniform random moves with `rng`, else greedy with `blocker`; tests check both
        against a loop over `step`."""
        hands = self.hands
        a, b, turn, passes = self.a, self.b, self.turn, self.passes
        pending, must_lead = self.pending, self.must_lead
        players = self.players
        boneyard, drawn, size = self.boneyard, self.drawn, self.size
        draws = not self._never
        floor = self._reserve
        any_time, at_once, stuck_draw = self._any_time, self._at_once, self._stuck_draw
        uniform = rng.random if rng is not None else None
        while self.end is None:
            hand = hands[turn]
            if pending:
                playable = pending & hand
            elif must_lead:
                playable = must_lead & hand
            elif a < 0:
                playable = hand
            else:
                playable = hand & (VALUE_MASK[a] | VALUE_MASK[b])
            index, on_a = 0, True
            if uniform is not None:
                # The pick-th of moves(): plays by tile (the one tile fitting two different
                # ends twice, end a first), then draw, then pass.
                both = _BOTH_ENDS[a * 7 + b] if a >= 0 and a != b else 0
                plays = playable.bit_count() + (1 if playable & both else 0)
                can_draw = draws and size > floor
                drawing = not pending and can_draw and (any_time or not playable)
                passing = not playable and not (stuck_draw and can_draw)
                pick = int(uniform() * (plays + drawing + passing))
                if pick < plays:
                    mask = playable
                    while True:
                        low = mask & -mask
                        if low & both:
                            if pick < 2:
                                break
                            pick -= 2
                        elif pick == 0:
                            break
                        else:
                            pick -= 1
                        mask ^= low
                    index = low.bit_length() - 1
                    on_a = pick == 0 if low & both else a >= 0 and bool(low & VALUE_MASK[a])
                    kind = _PLAY
                else:
                    kind = _DRAW if drawing and pick == plays else _PASS
            elif playable:
                if turn == blocker:
                    following = hands[turn + 1 if turn + 1 < players else 0]
                    index, on_a = _blocking_choice(playable, a, b, following)
                else:
                    best = -1
                    while playable:
                        low = playable & -playable
                        i = low.bit_length() - 1
                        if _RANK[i] > best:
                            best = _RANK[i]
                            index = i
                        playable ^= low
                    on_a = _LOW[index] == a or _HIGH[index] == a
                kind = _PLAY
            elif not pending and draws and size > floor:
                kind = _DRAW
            else:
                assert not (stuck_draw and draws and size > floor)
                kind = _PASS
            if kind is _PLAY:
                if a < 0:
                    a, b = _HIGH[index], _LOW[index]
                elif on_a:
                    a = _PIPS[index] - a
                else:
                    b = _PIPS[index] - b
                hand ^= 1 << index
                hands[turn] = hand
                passes = 0
                pending = must_lead = 0
                if not hand:
                    self.end = _DOMINO
                    self.closer = turn
                    break
                turn = turn + 1 if turn + 1 < players else 0
            elif kind is _DRAW:
                tile = boneyard[drawn]
                drawn += 1
                size -= 1
                passes = 0
                hands[turn] = hand | tile.bit
                if (
                    at_once
                    and not must_lead
                    and (a < 0 or (VALUE_MASK[a] | VALUE_MASK[b]) & tile.bit)
                ):
                    pending = tile.bit
            else:
                passes += 1
                if passes >= players:
                    self.end = _BLOCK
                    break
                turn = turn + 1 if turn + 1 < players else 0
        self.a, self.b, self.turn, self.passes = a, b, turn, passes
        self.pending, self.must_lead, self.drawn, self.size = pending, must_lead, drawn, size
        return self.result()

    def result(self) -> HandResult:
        """The scored result of a finished hand."""
        assert self.end is not None
        return score_hand(self.rules, self.end, [pips_in(h) for h in self.hands], self.closer)

    def drawing_over(self) -> bool:
        """Whether nobody can draw again (drawing is off, or the boneyard is down to its
        reserve): once the hands are known, the rest is a game of perfect information."""
        return self._never or self.size <= self._reserve

    def solve(self, seat: int) -> int:
        """The hand's outcome for `seat`'s side under best play by every seat, each seeing
        every hand: 1 it wins, 0 nobody does (a blocked hand), -1 it loses. Needs two sides
        (two seats, or two pairs), rules that score nothing during play (then going out wins)
        and nothing left to draw (`drawing_over`): a search's exact endgame, alpha-beta over
        win, draw and loss."""
        assert self.rules.move_scoring is _MOVES_NONE
        assert self.end is not None or self.drawing_over()
        assert self.players == 2 or (self.players == 4 and self.rules.pairs)
        value = _solve(self, -2, 2) if self.end is None else _ended(self)
        return value if seat % 2 == 0 else -value


def _ended(fast: FastHand) -> int:
    """A finished hand's outcome for side 0 (seats 0 and 2): 1, 0 or -1."""
    if fast.end is _DOMINO:
        return 1 if fast.closer % 2 == 0 else -1  # type: ignore[operator]
    return _blocked(fast.rules, fast.hands)


def _blocked(rules: Rules, hands: Sequence[int]) -> int:
    """A blocked hand's outcome for side 0, as the rules score the pips left in `hands`."""
    winner = score_hand(rules, _BLOCK, [pips_in(h) for h in hands]).winner
    return 0 if winner is None else (1 if winner == 0 else -1)


def _solve(fast: FastHand, alpha: int, beta: int) -> int:
    """`FastHand.solve` for side 0, within the window (alpha, beta): a lead, a tile that must
    lead or a drawn tile that must be played is tried through `moves`; from two ends on,
    `_solve_ends` runs on the masks."""
    if fast.end is not None:
        return _ended(fast)
    if fast.a >= 0 and not fast.must_lead and not fast.pending:
        return _solve_ends(
            fast, list(fast.hands), fast.a, fast.b, fast.turn, fast.passes, alpha, beta
        )
    maxing = fast.turn % 2 == 0
    best = -2 if maxing else 2
    for move in fast.moves():
        child = fast.copy()
        child.step(move)
        value = _solve(child, alpha, beta)
        if maxing:
            best = max(best, value)
            alpha = max(alpha, best)
        else:
            best = min(best, value)
            beta = min(beta, best)
        if alpha >= beta:
            break
    return best


def _solve_ends(
    fast: FastHand,
    hands: list[int],
    a: int,
    b: int,
    turn: int,
    passes: int,
    alpha: int,
    beta: int,
) -> int:
    """Alpha-beta on the masks from ends `a` and `b`: heavier tiles first, a pass when
    nothing fits; `hands` is changed and put back."""
    hand = hands[turn]
    playable = hand & (VALUE_MASK[a] | VALUE_MASK[b])
    following = turn + 1 if turn + 1 < fast.players else 0
    if not playable:
        if passes + 1 >= fast.players:
            return _blocked(fast.rules, hands)
        return _solve_ends(fast, hands, a, b, following, passes + 1, alpha, beta)
    maxing = turn % 2 == 0
    if playable == hand and hand.bit_count() == 1:
        return 1 if maxing else -1  # goes out
    best = -2 if maxing else 2
    for index in _BY_RANK:
        if not playable >> index & 1:
            continue
        rest = hand ^ (1 << index)
        hands[turn] = rest
        low, high = _LOW[index], _HIGH[index]
        for end in (a, b) if a != b else (a,):
            if low != end and high != end:
                continue
            if not rest:
                value = 1 if maxing else -1
            elif end == a:
                value = _solve_ends(fast, hands, _PIPS[index] - a, b, following, 0, alpha, beta)
            else:
                value = _solve_ends(fast, hands, a, _PIPS[index] - b, following, 0, alpha, beta)
            if maxing:
                if value > best:
                    best = value
                    alpha = max(alpha, best)
            elif value < best:
                best = value
                beta = min(beta, best)
            if alpha >= beta:
                hands[turn] = hand
                return best
        hands[turn] = hand
    return best


def _blocking_choice(playable: int, a: int, b: int, following: int) -> tuple[int, bool]:
    """The play a blocker makes (tile index, on end `a`?): one after which `following` (the
    next seat's hand) has nothing that fits, else greedy's heaviest; `a < 0`: a lead."""
    best = -1
    chosen, on_a = 0, True
    while playable:
        low = playable & -playable
        playable ^= low
        index = low.bit_length() - 1
        rank = _RANK[index]
        if a < 0:
            ends = VALUE_MASK[_LOW[index]] | VALUE_MASK[_HIGH[index]]
            key = rank + (0 if following & ends else 64)
            if key > best:
                best, chosen = key, index
            continue
        if low & VALUE_MASK[a]:
            key = rank + (0 if following & (VALUE_MASK[_PIPS[index] - a] | VALUE_MASK[b]) else 64)
            if key > best:
                best, chosen, on_a = key, index, True
        if b != a and low & VALUE_MASK[b]:
            key = rank + (0 if following & (VALUE_MASK[a] | VALUE_MASK[_PIPS[index] - b]) else 64)
            if key > best:
                best, chosen, on_a = key, index, False
    return chosen, on_a


def fast_move(state: TurnMachine, action: Action) -> int:
    """The fast move for an engine action at `state` (for comparing the two paths)."""
    kind = type(action)
    if kind is Draw:
        return DRAW_MOVE
    if kind is Pass:
        return PASS_MOVE
    assert isinstance(action, Play)
    if action.place is None:
        return action.tile.index * 8 + LEAD
    return action.tile.index * 8 + action.place.value
