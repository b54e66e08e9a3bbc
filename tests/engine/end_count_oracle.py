"""Scoring during play written again from RULES_V2 §3.1 and §4 (and the sketch §4.3), to check
the engine after every action: its own line of two open ends, its own end total S, its own
Threes-for-luck turn accounting. Used by the property tests of every preset and switch set."""

from __future__ import annotations

from dataclasses import dataclass, field

from p2p_dominoes.engine import Action, Draw, HandEnd, HandState, Pass, Play, Rules, Skip, Tile
from p2p_dominoes.engine.rules import Doubles, EndsAward, HandScoring, MoveScoring, TargetCheck


@dataclass
class _End:
    """One open end: the tile it belongs to, the number it shows, and whether that tile is a
    double lying across (which counts both halves, once)."""

    tile: Tile
    value: int
    across_double: bool


@dataclass
class PlayScorer:
    """What a hand should have scored so far during play, action by action."""

    rules: Rules
    players: int
    match_scores: tuple[int, ...]
    ends: list[_End] = field(default_factory=list)
    closed: set[tuple[int, int]] = field(default_factory=set)
    points: list[int] = field(default_factory=list)
    wins: list[int] = field(default_factory=list)
    penalties: list[int] = field(default_factory=list)
    reached: int | None = None
    doubled: bool = False
    drawn_now: list[Tile] = field(default_factory=list)
    lucky: int = 0
    doubles_in_turn: int = 0
    told: list[tuple[str, int, int]] = field(default_factory=list)
    """(kind, seat, points) of the awards and penalties the last action brought."""

    def __post_init__(self) -> None:
        self.points = [0] * self.players
        self.wins = [0] * self.players
        self.penalties = [0] * self.players

    @classmethod
    def for_hand(cls, hand: HandState) -> PlayScorer:
        return cls(hand.rules, hand.players, tuple(hand.match_scores))

    def end_total(self) -> int:
        """S (§3.1): each open end's number; a crosswise double counts 2v once."""
        total, seen = 0, set()
        for end in self.ends:
            if end.across_double:
                if end.tile not in seen:
                    seen.add(end.tile)
                    total += 2 * end.value
            else:
                total += end.value
        return total

    def _lay(self, play: Play, hand: HandState) -> None:
        tile = play.tile
        across = tile.is_double and not (play.along or self.rules.doubles is Doubles.ALONG)
        if not self.ends:
            self.ends = [
                _End(tile, tile.high, across),
                _End(tile, tile.low, across),
            ]
            return
        assert play.place is not None
        where = next(
            i
            for i, end in enumerate(self.ends)
            if end.tile is play.place.tile and end.value == play.place.value
        )
        other = tile.low if tile.high == play.place.value else tile.high
        self.ends[where] = _End(tile, other, across)

    def _sync_closed(self, hand: HandState) -> None:
        """Places the donkey rule closed are no longer open ends."""
        for place in hand.closed:
            key = (place.tile.index, place.value)
            if key in self.closed:
                continue
            self.closed.add(key)
            for i, end in enumerate(self.ends):
                if end.tile is place.tile and end.value == place.value:
                    del self.ends[i]
                    break

    def after(self, seat: int, action: Action, hand: HandState, drawn: Tile | None) -> None:
        """Account for `action` just applied to `hand` (`drawn`: the tile a draw took)."""
        self.told = []
        rules = self.rules
        if isinstance(action, Draw):
            assert drawn is not None
            self.drawn_now.append(drawn)
            return
        if isinstance(action, Play):
            self._lay(action, hand)
            self._score(seat, action.tile)
            over = hand.result is not None
            if (
                not over
                and action.tile.is_double
                and rules.two_doubles
                and self.doubles_in_turn == 0
            ):
                self.doubles_in_turn = 1
                return  # the turn goes on: a second double or skip
        elif not isinstance(action, (Pass, Skip)):
            raise AssertionError(action)
        self._end_turn(seat)
        self._sync_closed(hand)

    def _score(self, seat: int, tile: Tile) -> None:
        rules = self.rules
        how = rules.move_scoring
        if how is MoveScoring.NONE:
            return
        total = self.end_total()
        scores = total > 0 and total % rules.ends_modulus == 0
        if how is MoveScoring.LUCK:
            first = tile.is_double and not self.doubled
            self.doubled = self.doubled or tile.is_double
            if tile in self.drawn_now and scores:
                award = 10
                self.lucky += 1
            elif first:
                award = 8
            elif scores:
                award = 7 if tile.is_double else 5
            else:
                return
            self.wins[seat] += award
            self._cancel(seat)
            self.told.append(("score", seat, award))
            return
        if how is MoveScoring.ENDS:
            if not scores:
                return
            award = total if rules.ends_award is EndsAward.TOTAL else total // rules.ends_modulus
        else:
            award = tile.pips
            if not award:
                return
        self.points[seat] += award
        self.told.append(("score", seat, award))
        if rules.target_check is TargetCheck.IMMEDIATE and self.reached is None:
            target = rules.target(self.players)
            if target and self.match_scores[seat] + self.points[seat] >= target:
                self.reached = seat

    def _end_turn(self, seat: int) -> None:
        if self.rules.move_scoring is MoveScoring.LUCK:
            unused = len(self.drawn_now) - self.lucky
            if unused:
                self.penalties[seat] += 5 * unused
                self._cancel(seat)
                self.told.append(("penalty", seat, 5 * unused))
        self.drawn_now = []
        self.lucky = 0
        self.doubles_in_turn = 0

    def _cancel(self, seat: int) -> None:
        both = min(self.wins[seat], self.penalties[seat])
        self.wins[seat] -= both
        self.penalties[seat] -= both

    def check(self, hand: HandState) -> None:
        """The engine's notes, tallies and S agree with this recount."""
        engine = [(n.kind, n.seat, n.points) for n in hand.notes if n.kind in ("score", "penalty")]
        assert engine == self.told
        if hand.line.tiles:
            assert hand.end_total() == self.end_total()
        if self.rules.move_scoring is not MoveScoring.NONE:
            assert hand.move_points == self.points
            assert hand.wins == self.wins and hand.penalties == self.penalties
        assert hand.reached == self.reached


def play_points(hand: HandState, scorer: PlayScorer, base: tuple[int, ...]) -> tuple[int, ...]:
    """A finished hand's points from the recount: the pip amounts `base` (recounted
    elsewhere) plus the move points and the bonuses, or under Threes for luck each net."""
    rules = hand.rules
    assert hand.result is not None
    end = hand.result.end
    if end is HandEnd.VOID:
        return base
    if rules.hand_scoring is HandScoring.LUCK_SETTLEMENT:
        return tuple(w - p for w, p in zip(scorer.wins, scorer.penalties, strict=True))
    points = [b + m for b, m in zip(base, scorer.points, strict=True)]
    pips = [sum(t.pips for t in hand.hand_of(seat)) for seat in range(hand.players)]
    if end is HandEnd.DOMINO:
        closer = next(s for s in range(hand.players) if not hand.hand_of(s))
        points[closer] += rules.domino_bonus
    elif end in (HandEnd.BLOCK, HandEnd.EXHAUSTED):
        if rules.pairs:  # partners: the pair with the lower total (seat 0 or 1 counts for it)
            pips = [pips[0] + pips[2], pips[1] + pips[3]]
        if pips.count(min(pips)) == 1:
            points[pips.index(min(pips))] += rules.block_bonus
    return tuple(points)
