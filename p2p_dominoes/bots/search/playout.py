"""The fast play-out path: a hand under the first version's rules as bit masks and two end
numbers, and the exact end-game solve over it."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from p2p_dominoes.bots.search.position import PositionError
from p2p_dominoes.engine.actions import Action, Draw, Pass, Play
from p2p_dominoes.engine.hand import HandState
from p2p_dominoes.engine.line import Line
from p2p_dominoes.engine.rules import MoveScoring, Rules
from p2p_dominoes.engine.scoring import HandEnd, HandResult, score_hand
from p2p_dominoes.engine.tiles import (
    TILES,
    VALUE_MASK,
    Tile,
    mask_of,
    pips_in,
)
from p2p_dominoes.engine.turns import TurnMachine

_MOVES_NONE: Final = MoveScoring.NONE
_BLOCK: Final = HandEnd.BLOCK
_DOMINO: Final = HandEnd.DOMINO


def line_ends(line: Line) -> tuple[int, int]:
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
HEAVIER: Final[tuple[int, ...]] = tuple(
    mask_of(t for t in TILES if _RANK[t.index] > _RANK[tile.index]) for tile in TILES
)
"""HEAVIER[tile.index]: the tiles greedy would lay before it."""
MORE_PIPS: Final[tuple[int, ...]] = tuple(
    mask_of(t for t in TILES if t.pips > tile.pips) for tile in TILES
)
"""MORE_PIPS[tile.index]: the tiles with more pips than it."""
_BY_RANK: Final[tuple[int, ...]] = tuple(t.index for t in _HEAVIEST_FIRST)
_LOW: Final[tuple[int, ...]] = tuple(t.low for t in TILES)
_HIGH: Final[tuple[int, ...]] = tuple(t.high for t in TILES)
_PIPS: Final[tuple[int, ...]] = tuple(t.pips for t in TILES)
_FITS: Final[tuple[int, ...]] = tuple(
    VALUE_MASK[a] | VALUE_MASK[b] for a in range(7) for b in range(7)
)
"""_FITS[a * 7 + b]: the tiles that fit end a or end b."""
_BOTH_ENDS: Final[tuple[int, ...]] = tuple(
    VALUE_MASK[a] & VALUE_MASK[b] if a != b else 0 for a in range(7) for b in range(7)
)
"""_BOTH_ENDS[a * 7 + b]: the bit of the tile [a|b] that fits both of two different ends."""


class FastHand:
    """A hand under rules whose turns are simple (`TurnPlan.simple`) as bit masks and two end
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

    def __init__(self, state: HandState | None = None) -> None:
        """The fast form of `state`; PositionError unless its rules fit (`FastHand.fits`).
        Without a state, a shell whose every field the caller sets (`copy`, `Sampler.fast`):
        a compiled class (setup.py) cannot be made without its constructor."""
        if state is None:
            return
        rules = state.rules
        if not FastHand.fits(rules):
            raise PositionError(
                f"the fast play-out needs plain turns and no ceremonies; {rules.name} has more"
            )
        self._set_rules(rules)
        self.players = state.players
        self.hands = list(state.hands)
        self.a, self.b = line_ends(state.line)
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
        return rules.turn_plan.simple and not rules.ceremonies

    def _set_rules(self, rules: Rules) -> None:
        self.rules = rules
        plan = rules.turn_plan
        self._any_time = plan.any_time
        self._never = not plan.draws
        self._reserve = plan.reserve
        self._at_once = plan.at_once
        self._stuck_draw = plan.stuck_draw

    def copy(self) -> FastHand:
        """An independent copy (a search copies a position once per move it tries)."""
        other = FastHand()
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
        fits (`blocking_move`); the result `HandState` would score.

        The loop is `step` and the choice inlined (a search's innermost loop); tests check it
        against a loop over `step`."""
        if self.end is not None:
            return self.result()
        hands = self.hands
        a, b, turn, passes = self.a, self.b, self.turn, self.passes
        pending, must_lead = self.pending, self.must_lead
        players = self.players
        boneyard, drawn, size = self.boneyard, self.drawn, self.size
        drawable = not self._never and size > self._reserve
        at_once = self._at_once
        fits = _FITS
        while True:
            hand = hands[turn]
            if pending or must_lead:
                playable = (pending or must_lead) & hand
            elif a < 0:
                playable = hand
            else:
                playable = hand & fits[a * 7 + b]
            if playable:
                if turn == blocker:
                    following = hands[turn + 1 if turn + 1 < players else 0]
                    index, on_a = _blocking_choice(playable, a, b, following)
                else:
                    best = -1
                    index = 0
                    while playable:
                        low = playable & -playable
                        i = low.bit_length() - 1
                        if _RANK[i] > best:
                            best = _RANK[i]
                            index = i
                        playable ^= low
                    on_a = _LOW[index] == a or _HIGH[index] == a
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
            elif not pending and drawable:
                tile = boneyard[drawn]
                drawn += 1
                size -= 1
                drawable = size > self._reserve
                passes = 0
                hands[turn] = hand | tile.bit
                if at_once and not must_lead and (a < 0 or fits[a * 7 + b] & tile.bit):
                    pending = tile.bit
            else:
                assert not (self._stuck_draw and drawable)
                passes += 1
                if passes >= players:
                    self.end = _BLOCK
                    break
                turn = turn + 1 if turn + 1 < players else 0
        self.a, self.b, self.turn, self.passes = a, b, turn, passes
        self.pending, self.must_lead, self.drawn, self.size = pending, must_lead, drawn, size
        return self.result()

    def play_random(self, rng: random.Random) -> HandResult:
        """Play the hand out with uniform random moves: each step takes
        `moves()[int(rng.random() * len(moves()))]` (the engine benchmark's play-out).

        The loop is `step` and the pick inlined; tests check it against a loop over
        `moves` and `step`."""
        if self.end is not None:
            return self.result()
        hands = self.hands
        a, b, turn, passes = self.a, self.b, self.turn, self.passes
        pending, must_lead = self.pending, self.must_lead
        players = self.players
        boneyard, drawn, size = self.boneyard, self.drawn, self.size
        drawable = not self._never and size > self._reserve
        any_time, at_once = self._any_time, self._at_once
        stuck_passes = not (self._stuck_draw and drawable)
        uniform = rng.random
        fits, both_ends = _FITS, _BOTH_ENDS
        while True:
            hand = hands[turn]
            # The pick-th of moves(): plays by tile (the one tile fitting two different ends
            # twice, end a first), then draw, then pass.
            if pending or must_lead:
                playable = (pending or must_lead) & hand
                both = both_ends[a * 7 + b] if a >= 0 else 0
            elif a < 0:
                playable = hand
                both = 0
            else:
                key = a * 7 + b
                playable = hand & fits[key]
                both = both_ends[key]
            plays = playable.bit_count()
            if playable & both:
                plays += 1
            if playable:
                if not pending and drawable and any_time:
                    pick = int(uniform() * (plays + 1))
                    if pick == plays:
                        pick = -1
                else:
                    pick = int(uniform() * plays)
            elif not pending and drawable:
                pick = -1 if int(uniform() * (1 + stuck_passes)) == 0 else -2
            else:
                pick = int(uniform()) - 2  # only a pass: the pick is always 0
            if pick >= 0:
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
                if a < 0:
                    a, b = _HIGH[index], _LOW[index]
                elif pick == 0 if low & both else low & VALUE_MASK[a]:
                    a = _PIPS[index] - a
                else:
                    b = _PIPS[index] - b
                hand ^= low
                hands[turn] = hand
                passes = 0
                pending = must_lead = 0
                if not hand:
                    self.end = _DOMINO
                    self.closer = turn
                    break
                turn = turn + 1 if turn + 1 < players else 0
            elif pick == -1:
                tile = boneyard[drawn]
                drawn += 1
                size -= 1
                drawable = size > self._reserve
                stuck_passes = not (self._stuck_draw and drawable)
                passes = 0
                hands[turn] = hand | tile.bit
                if at_once and not must_lead and (a < 0 or fits[a * 7 + b] & tile.bit):
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
