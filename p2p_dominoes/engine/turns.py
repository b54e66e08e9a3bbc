"""The public turn machine of one hand: whose turn it is and what the rules allow publicly.

`HandState` (every tile known: local play, replays, the end-of-hand audit) and `PublicHand` (what
each peer sees at a networked table) both build on it, so the checks a peer makes as messages
arrive and the audit's replay are the same code. Hidden facts (whether a seat held a playable
tile) are the subclasses' business.

A turn: forced draws first (X3), then draws within the limit, then a play (a second double may
follow, T2) or a pass. At its end: an extra turn on the end total (X2), a forced draw of two for
the next seat (X3), closing a double nobody covered in time (X1), then the next seat.

Scoring during play (Fives, Threes, Threes for luck, RULES_V2 §4) lives here too, so every peer
computes it from public actions alone: each placement is scored from the end total S
(`placement_award`), Threes for luck settles the turn's draws at its end, and the hand ends when
the turn that emptied the boneyard ends (`exhausted`) or a placement reaches the target
(`target`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from p2p_dominoes.engine.actions import ALONG_PLAYS_ON, DRAW, PASS, PLAYS_ON, SKIP, Action, Play
from p2p_dominoes.engine.board import Board
from p2p_dominoes.engine.errors import IllegalAction
from p2p_dominoes.engine.line import Line, Place, Side
from p2p_dominoes.engine.placement import LUCK_PENALTY, placement_award
from p2p_dominoes.engine.rules import (
    Layout,
    MoveScoring,
    Rules,
    TargetCheck,
)
from p2p_dominoes.engine.scoring import HandEnd
from p2p_dominoes.engine.tiles import Tile
from p2p_dominoes.words import phrase, phrase_count

# Enum members as module constants: Python 3.11 does not specialise attribute loads on a
# class, and these are read on every hand or every move.
_BLOCK: Final = HandEnd.BLOCK
_DOMINO: Final = HandEnd.DOMINO
_EXHAUSTED: Final = HandEnd.EXHAUSTED
_TARGET: Final = HandEnd.TARGET
_MOVES_LUCK: Final = MoveScoring.LUCK
_MOVES_NONE: Final = MoveScoring.NONE
_TARGET_IMMEDIATE: Final = TargetCheck.IMMEDIATE
_LAYOUT_LINE: Final = Layout.LINE
_LINE_PLACES: Final = 56
"""Places with an id from here on are a centre's short ends or a trains engine's ports."""

FORCED_DRAWS = 2
"""Tiles the next seat must draw when the end total hits `forced_draw_sum` ("draw two")."""

_NO_SCORES = tuple((0,) * n for n in range(5))
"""Match scores of 0 for each player count (what a hand starts from unless told)."""


@dataclass(frozen=True)
class TurnNote:
    """Something a rule made happen after an action, for the players to be told.

    kind: "extra_turn" (seat moves again; total), "forced_draw" (seat must first draw `count`;
    total), "closed" (place closed for good), "second_double" (seat may lay a second double),
    "score" (the placement scored `points` for reason `why`; total = the end total),
    "penalty" (Threes for luck: `count` tiles drawn this turn brought no scoring move; `points`
    penalty points)."""

    kind: str
    seat: int
    total: int = 0
    count: int = 0
    place: Place | None = None
    points: int = 0
    why: str = ""


@dataclass
class _Clock:
    """A double laid on an end: it closes unless covered by the end of its layer's next turn
    that begins after every other seat has begun one."""

    place: Place
    layer: int
    others: set[int]
    armed: bool = False


class TurnMachine:
    """Turn order, counts, the line and every public rule of a hand."""

    __slots__ = (
        "_board",
        "_choice",
        "_clocks",
        "_doubled",
        "_doubles_this_turn",
        "_exhausting",
        "_lucky",
        "boneyard_size",
        "closer",
        "drawn_this_turn",
        "draws_this_turn",
        "end",
        "forced_due",
        "history",
        "line",
        "match_scores",
        "move_points",
        "must_lead",
        "notes",
        "opener",
        "passes",
        "penalties",
        "plan",
        "players",
        "reached",
        "required_lead",
        "rules",
        "second_double",
        "turn",
        "wins",
    )

    def __init__(
        self, rules: Rules, players: int, opener: int, must_lead: Tile | None, boneyard: int
    ) -> None:
        self.rules = rules
        plan = rules.turn_plan
        self.plan = plan
        """The rules compiled into what a turn reads (engine/turn_plan.py)."""
        self.players = players
        self._board = plan.layout is not _LAYOUT_LINE
        """A cross, a telephone or trains: the general path (`Board`), never the line's."""
        if self._board:
            board = Board(plan.layout, players, plan.cross_quota, plan.along)
            board.set_mover(opener)
            self.line: Line = board
        else:
            self.line = Line(plan.along)
        self.opener = opener
        self.turn = opener
        self.must_lead = must_lead
        self.required_lead = must_lead
        """The tile the opening required, kept after the lead (a record writes it down)."""
        self.passes = 0
        """Passes in a row with no play and no draw between them; n of them block the hand."""
        self.boneyard_size = boneyard
        """Tiles not dealt (the reserve included; out of play when the rules have no drawing)."""
        self.end: HandEnd | None = None
        self.closer: int | None = None
        self.history: list[tuple[int, Action]] = []
        self.drawn_this_turn = 0
        """Draws this turn that count against `draw_limit` (forced draws do not)."""
        self.forced_due = 0
        """Draws the seat to move must make before anything else (X3)."""
        self.second_double = False
        """The seat to move has just laid a double and may lay a second one or skip (T2)."""
        self._doubles_this_turn = 0
        self._clocks: list[_Clock] = []
        self.notes: list[TurnNote] = []
        """What the rules made happen after the last action (empty for most actions)."""
        self._choice = plan.choice
        self.move_points = [0] * players
        """Points each seat scored by its placements this hand (`move_scoring` ends or
        placed-tile); they count towards the match at once."""
        self.match_scores: tuple[int, ...] = _NO_SCORES[players]
        """The match scores before this hand (what an immediate target check adds to)."""
        self.reached: int | None = None
        """The seat whose placement reached its target during play (`target_check`)."""
        self.draws_this_turn = 0
        """Every draw of this turn, forced ones included (what Threes for luck counts)."""
        self.wins = [0] * players
        """Threes for luck: each seat's win points, after cancelling against penalties."""
        self.penalties = [0] * players
        """Threes for luck: each seat's penalty points, after cancelling against wins."""
        self._doubled = False
        self._lucky = 0
        self._exhausting = False

    def copy_public_into(self, other: TurnMachine) -> None:
        """Give `other`, a machine of the same rules and players, every public fact of this
        hand, sharing nothing it could change (a search copies a position for each move it
        tries). Every field is named here, not found by introspection: a compiled build
        (setup.py) keeps no `__slots__` to read; `tests/engine/test_copies.py` fails on a field
        added to the class and left out here."""
        other.line = self.line.copy()
        other.opener = self.opener
        other.turn = self.turn
        other.must_lead = self.must_lead
        other.required_lead = self.required_lead
        other.passes = self.passes
        other.boneyard_size = self.boneyard_size
        other.end = self.end
        other.closer = self.closer
        other.history = self.history.copy()
        other.drawn_this_turn = self.drawn_this_turn
        other.forced_due = self.forced_due
        other.second_double = self.second_double
        other._doubles_this_turn = self._doubles_this_turn
        other._clocks = [_Clock(c.place, c.layer, set(c.others), c.armed) for c in self._clocks]
        other.notes = self.notes.copy()
        other.move_points = self.move_points.copy()
        other.match_scores = self.match_scores
        other.reached = self.reached
        other.draws_this_turn = self.draws_this_turn
        other.wins = self.wins.copy()
        other.penalties = self.penalties.copy()
        other._doubled = self._doubled
        other._lucky = self._lucky
        other._exhausting = self._exhausting

    # -- public facts ------------------------------------------------------------------------

    @property
    def choice(self) -> bool:
        """Players say how each double lies (`doubles = choice`): legal plays list each
        double twice, across and along."""
        return self._choice

    @property
    def over(self) -> bool:
        return self.end is not None

    @property
    def drawable(self) -> int:
        """Tiles that may still be drawn now (the reserve is never drawn)."""
        plan = self.plan
        if not plan.draws:
            return 0
        return max(0, self.boneyard_size - plan.reserve)

    @property
    def closed(self) -> list[Place]:
        return self.line.closed

    def end_total(self) -> int:
        return self.line.end_total()

    def draw_is_public_legal(self) -> bool:
        """Whether the seat to move may draw, as far as public facts go."""
        if self.end is not None or self.second_double or not self.drawable:
            return False
        if self.forced_due:
            return True
        limit = self.plan.draw_limit
        return not limit or self.drawn_this_turn < limit

    def must_draw_first(self) -> bool:
        """The seat to move owes forced draws that the boneyard can still give."""
        return bool(self.forced_due) and self.drawable > 0

    def pass_is_public_legal(self) -> bool:
        """Whether a pass can be legal (the seat must also hold no playable tile)."""
        if self.end is not None or self.second_double or self.must_draw_first():
            return False
        return not self.plan.stuck_draw or not self.draw_is_public_legal()

    def why_no_pass(self) -> str:
        if self.second_double:
            return phrase("engine.why.second_double_or_skip")
        if self.must_draw_first():
            return phrase("engine.why.forced_draw_first", count=self.forced_due)
        return phrase_count("engine.why.must_draw_above_reserve", self.plan.reserve)

    def why_no_draw(self) -> str:
        rules = self.plan
        if not rules.draws:
            return phrase("engine.why.no_drawing")
        if self.second_double:
            return phrase("engine.why.second_double_or_skip")
        if not self.drawable:
            if rules.reserve and self.boneyard_size:  # what is left is the reserve
                return phrase(
                    "engine.why.reserve_never_drawn",
                    size=self.boneyard_size,
                    reserve=min(rules.reserve, self.boneyard_size),
                )
            return phrase("engine.why.boneyard_empty")
        return phrase_count("engine.why.draw_limit", rules.draw_limit)

    # -- checks shared by both hands -----------------------------------------------------------

    def _why_not_turn(self, seat: int) -> str | None:
        """Why `seat` may not act now (the hand is over, or another seat's turn), or None."""
        if self.end is not None:
            return phrase("engine.why.hand_over")
        if seat != self.turn:
            return phrase("engine.why.not_your_turn", seat=self.turn)
        return None

    @property
    def board(self) -> Board | None:
        """The cross, telephone or trains board (None for a line)."""
        line = self.line
        return line if isinstance(line, Board) else None

    def normalise(self, play: Play) -> Play:
        """The same play with an untouched opening double's side B read as side A (and, on a
        board, every symmetric place read as its canonical one)."""
        place = play.place
        if self._board and place is not None:
            canonical: Place = self.line.canonical(place)  # type: ignore[attr-defined]
            if canonical is not place:
                table = ALONG_PLAYS_ON if play.along else PLAYS_ON
                return table[canonical.id].get(play.tile.bit, play)
            return play
        if place is not None and place.side is Side.B and len(self.line.tiles) == 1:
            table = ALONG_PLAYS_ON if play.along else PLAYS_ON
            return table[place.id - 1].get(play.tile.bit, play)
        return play

    def check_public_play(self, seat: int, play: Play) -> Play:
        """Raise IllegalAction unless `play` fits the table now; return it normalised."""
        play = self.normalise(play)
        rule = self._why_not_play(seat, play)
        if rule is not None:
            raise IllegalAction(seat, phrase("engine.action.play", tile=play.tile.text), rule)
        return play

    def _why_not_play(self, seat: int, play: Play) -> str | None:
        """The rule the normalised `play` breaks now (a `Phrase`), or None when it fits."""
        tile, place = play.tile, play.place
        rule = self._why_not_turn(seat)
        if rule is not None:
            return rule
        line = self.line
        if play.along and (not tile.is_double or not self._choice):
            return phrase("engine.why.along_only_double")
        if self.must_draw_first():
            return self.why_no_pass()
        if self.second_double and not tile.is_double:
            return phrase("engine.why.second_double_only")
        if tile in line.tiles:
            return phrase("engine.why.already_on_table", tile=tile.text)
        if not line.tiles:
            if self.must_lead is not None and tile is not self.must_lead:
                return phrase("engine.why.must_lead_with", tile=self.must_lead.text)
            if place is not None:
                return phrase("engine.why.lead_takes_no_place")
            if not line.lead_mask & tile.bit:
                return phrase("engine.why.trains_start_from_double")
            return None
        if place is None or place not in line.places or not line.fit_mask & tile.bit:
            if place is not None and place in line.closed:
                return phrase("engine.why.place_closed")
            board = self.board
            if place is not None and board is not None:
                reason = board.why_not(place)
                if reason:
                    return reason
            elif place is not None and place.id >= _LINE_PLACES:
                return phrase("engine.why.line_has_no_place", side=repr(place.side.value))
            if not line.fit_mask & tile.bit:
                ends = _ends_listed(sorted({p.value for p in line.places}))
                return phrase("engine.why.fits_no_open_end", tile=tile.text, ends=ends)
            return phrase("engine.why.place_not_open")
        if not place.fits & tile.bit:
            return phrase(
                "engine.why.does_not_fit", tile=tile.text, value=place.value, at=place.tile.text
            )
        return None

    # -- the public steps ------------------------------------------------------------------------

    def _after_play(self, seat: int, play: Play, hand_left: int, from_draw: bool = False) -> None:
        """Lay a checked play; `hand_left` is the seat's tile count after it; `from_draw`: the
        tile was drawn in this turn (public at a table: its reveal names a position drawn now)."""
        line = self.line
        tile, place, along = play
        line.lay(tile, place, along)
        self.must_lead = None
        self.passes = 0
        self.history.append((seat, play))
        if self.notes:
            self.notes = []
        if self.plan.move_scoring is not _MOVES_NONE:
            self._score_placement(seat, tile, from_draw)
        if not hand_left:
            self.end = _DOMINO
            self.closer = seat
            self._settle_draws(seat)
            return
        if self.reached is not None:
            self.end = _TARGET
            self._settle_draws(seat)
            return
        if self._clocks and place is not None:
            self._clocks = [c for c in self._clocks if c.place is not place]
        if (
            tile.is_double
            and place is not None
            and self.plan.double_closes_ray
            and tile is not line.centre
        ):
            free = next(p for p in line.all_places if p.tile is tile)
            self._clocks.append(_Clock(free, seat, set()))
        if tile.is_double and self.plan.two_doubles and not self.second_double:
            self._doubles_this_turn += 1
            if self._doubles_this_turn == 1:
                self.second_double = True
                self.notes.append(TurnNote("second_double", seat))
                return
        self._end_turn(seat, placed=True)

    def _after_skip(self, seat: int) -> None:
        self.history.append((seat, SKIP))
        self.notes = []
        self._end_turn(seat, placed=True)

    def check_skip(self, seat: int) -> None:
        rule = self._why_not_turn(seat)
        if rule is None and not self.second_double:
            rule = phrase("engine.why.no_second_double")
        if rule is not None:
            raise IllegalAction(seat, phrase("engine.action.skip"), rule)

    def _after_draw(self, seat: int) -> None:
        self.boneyard_size -= 1
        self.passes = 0
        if self.forced_due:
            self.forced_due -= 1
        else:
            self.drawn_this_turn += 1
        if self.forced_due and not self.drawable:
            self.forced_due = 0
        self.draws_this_turn += 1
        if self.plan.end_when_boneyard_empty and not self.drawable:
            self._exhausting = True
        self.history.append((seat, DRAW))
        if self.notes:
            self.notes = []

    def _after_pass(self, seat: int) -> None:
        board = self.board if self._board else None
        if board is not None and board.trains and seat not in board.markers:
            # This pass opens the seat's train, so the seats that passed before it may have a
            # play now: the run of passes that blocks the hand starts again here.
            self.passes = 0
        self.passes += 1
        self.history.append((seat, PASS))
        if self.notes:
            self.notes = []
        if self.passes >= self.players:
            self._settle_draws(seat)
            self.end = _BLOCK
        else:
            self._end_turn(seat, placed=False)

    def _end_turn(self, seat: int, placed: bool) -> None:
        rules = self.plan
        self._settle_draws(seat)
        if self._exhausting:
            self.end = _EXHAUSTED
            return
        # The end total, when a phase reads it (an extra turn, a forced draw).
        summed = placed and (rules.extra_turn_sum or rules.forced_draw_sum)
        total = self.line.end_total() if summed else -1
        again = bool(rules.extra_turn_sum) and total == rules.extra_turn_sum
        for clock in list(self._clocks) if self._clocks else ():
            if clock.armed and clock.layer == seat:
                self._clocks.remove(clock)
                if clock.place in self.line.all_places:
                    self.line.close(clock.place)
                    self.notes.append(TurnNote("closed", clock.layer, place=clock.place))
        if self.line.tiles and not self.line.all_places:
            self.end = _BLOCK
            return
        following = seat if again else (seat + 1) % self.players
        self.turn = following
        if self._board:
            board: Board = self.line  # type: ignore[assignment]
            if not placed:
                board.mark_open(seat)
            board.set_mover(following)
        self.drawn_this_turn = 0
        self.second_double = False
        self._doubles_this_turn = 0
        self.forced_due = 0
        if again:
            self.notes.append(TurnNote("extra_turn", seat, total))
        if rules.forced_draw_sum and total == rules.forced_draw_sum and self.drawable:
            self.forced_due = FORCED_DRAWS
            self.notes.append(
                TurnNote("forced_draw", following, total, min(FORCED_DRAWS, self.drawable))
            )
        for clock in self._clocks:
            if following != clock.layer:
                clock.others.add(following)
            elif len(clock.others) == self.players - 1:
                clock.armed = True

    # -- scoring during play ---------------------------------------------------------------------

    def _score_placement(self, seat: int, tile: Tile, from_draw: bool) -> None:
        """Award what the placement just made scores (`move_scoring`), from public facts only."""
        rules = self.rules
        total = self.line.end_total()
        points, why = placement_award(rules, total, tile, not self._doubled, from_draw)
        if tile.is_double:
            self._doubled = True
        if not points:
            return
        self.notes.append(TurnNote("score", seat, total, points=points, why=why))
        if rules.move_scoring is _MOVES_LUCK:
            if why == "lucky-draw":
                self._lucky += 1
            self.wins[seat] += points
            self._cancel(seat)
            return
        self.move_points[seat] += points
        if self.plan.target_check is _TARGET_IMMEDIATE and self.reached is None:
            target = rules.target(self.players)
            if target and self.match_scores[seat] + self.move_points[seat] >= target:
                self.reached = seat

    def _settle_draws(self, seat: int) -> None:
        """Threes for luck, at the end of a turn: a penalty for each tile drawn in it that
        brought no scoring move (all of them but those played at once to a scoring total)."""
        draws = self.draws_this_turn
        self.draws_this_turn = 0
        if self.plan.move_scoring is not _MOVES_LUCK:
            return
        unused = draws - self._lucky
        self._lucky = 0
        if unused > 0:
            points = LUCK_PENALTY * unused
            self.penalties[seat] += points
            self._cancel(seat)
            self.notes.append(TurnNote("penalty", seat, count=unused, points=points, why="draws"))

    def _cancel(self, seat: int) -> None:
        """Wins cancel penalties at once ("put out"): each seat carries one or the other."""
        cancelled = min(self.wins[seat], self.penalties[seat])
        self.wins[seat] -= cancelled
        self.penalties[seat] -= cancelled

    def luck_tallies(self) -> tuple[tuple[int, int], ...]:
        """(win points, penalty points) of every seat so far (Threes for luck)."""
        return tuple(zip(self.wins, self.penalties, strict=True))


def _ends_listed(values: list[int]) -> str:
    """The open ends' numbers, "3 and 5" (a `Phrase`, each "and" its own), or "none"."""
    if not values:
        return phrase("engine.why.no_ends")
    listed: str = str(values[0])
    for value in values[1:]:
        listed = phrase("engine.why.ends_and", ends=listed, last=value)
    return listed
