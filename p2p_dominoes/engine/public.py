"""A hand as every peer sees it at the table: the line and tile counts, never hidden tiles.

Peers check each action against what is public as it happens (turn order, a play fits its place,
drawing while the boneyard allows it, passing only when drawing is impossible). What depends on
hidden tiles (a pass while holding a playable tile, a draw that the rules allow only when stuck,
a drawn tile that had to be played) is checked at the end-of-hand audit by replaying the hand on
a full `HandState`.
"""

from __future__ import annotations

from p2p_dominoes.engine.actions import Action, Play
from p2p_dominoes.engine.errors import IllegalAction
from p2p_dominoes.engine.legality import any_plays, may_draw, playable_mask, plays_both_ways
from p2p_dominoes.engine.line import Line
from p2p_dominoes.engine.rules import Rules
from p2p_dominoes.engine.tiles import DOUBLES_MASK, Tile, tiles_in
from p2p_dominoes.engine.turns import TurnMachine
from p2p_dominoes.words import phrase


class PublicHand(TurnMachine):
    """The public state of one hand: counts, boneyard size, line, turn and every public rule."""

    __slots__ = ("counts",)

    def __init__(
        self, rules: Rules, players: int, opener: int, must_lead: Tile | None = None
    ) -> None:
        players = rules.check_players(players)
        size = rules.hand_size(players)
        super().__init__(rules, players, opener, must_lead, 28 - size * players)
        self.counts = [size] * players

    def check_play(self, seat: int, play: Play) -> Play:
        """Raise IllegalAction unless `play` fits the table now; return it normalised."""
        return self.check_public_play(seat, play)

    def play(self, seat: int, play: Play, from_draw: bool = False) -> None:
        """Apply a play that `check_play` accepted (the tile's holder was checked elsewhere);
        `from_draw`: the tile is one this seat drew in this turn (its reveal's deck position is
        one drawn now), which Threes for luck scores differently."""
        play = self.check_public_play(seat, play)
        self.counts[seat] -= 1
        self._after_play(seat, play, self.counts[seat], from_draw)

    def check_draw(self, seat: int) -> None:
        """Raise IllegalAction unless drawing can be legal now for some hand."""
        rule = self._why_not_turn(seat)
        if rule is None and not self.draw_is_public_legal():
            rule = self.why_no_draw()
        if rule is not None:
            raise IllegalAction(seat, phrase("engine.action.draw"), rule)

    def draw(self, seat: int) -> None:
        """Apply a draw: the seat's count grows, the turn stays."""
        self.check_draw(seat)
        self.counts[seat] += 1
        self._after_draw(seat)

    def check_pass(self, seat: int) -> None:
        """Raise IllegalAction when the seat could be made to draw (or play a second double)."""
        rule = self._why_not_turn(seat)
        if rule is None and not self.pass_is_public_legal():
            rule = self.why_no_pass()
        if rule is not None:
            raise IllegalAction(seat, phrase("engine.action.pass"), rule)

    def pass_turn(self, seat: int) -> None:
        """Apply a pass; every player in turn passing blocks the hand."""
        self.check_pass(seat)
        self._after_pass(seat)

    def skip(self, seat: int) -> None:
        """Decline a second double (T2)."""
        self.check_skip(seat)
        self._after_skip(seat)


class PeerView:
    """A seat's view at a networked table: the public hand plus the seat's own tiles."""

    def __init__(
        self,
        public: PublicHand,
        seat: int,
        hand: int,
        pending: Tile | None,
        own_draws: tuple[Tile, ...] = (),
    ) -> None:
        self._public = public
        self.seat = seat
        self._hand = hand
        self._pending = pending
        self.own_draws = own_draws
        """The tiles this seat drew this hand, in order (when the session says)."""

    @property
    def rules(self) -> Rules:
        return self._public.rules

    @property
    def hand(self) -> list[Tile]:
        return list(tiles_in(self._hand))

    @property
    def tile_counts(self) -> tuple[int, ...]:
        return tuple(self._public.counts)

    @property
    def boneyard_size(self) -> int:
        return self._public.boneyard_size

    @property
    def line(self) -> Line:
        return self._public.line

    @property
    def turn(self) -> int:
        return self._public.turn

    @property
    def history(self) -> list[tuple[int, Action]]:
        return list(self._public.history)

    def _playable(self) -> int:
        public = self._public
        if public.turn != self.seat or public.over or public.must_draw_first():
            return 0
        mask = playable_mask(self._hand, public.line, self._pending, public.must_lead)
        return mask & DOUBLES_MASK if public.second_double else mask

    def legal_plays(self) -> list[Play]:
        playable = self._playable()
        if not playable:
            return []
        if self._public.choice:
            return plays_both_ways(self._public.line, playable)
        return any_plays(self._public.line, playable)

    def can_draw(self) -> bool:
        public = self._public
        if public.turn != self.seat or public.over:
            return False
        return may_draw(public, self._pending, self._playable())

    def can_pass(self) -> bool:
        public = self._public
        if public.turn != self.seat or public.over:
            return False
        return not self._playable() and public.pass_is_public_legal()

    def move_points(self) -> tuple[int, ...]:
        """What each seat's placements scored this hand (rules that score during play)."""
        return tuple(self._public.move_points)

    def luck_tallies(self) -> tuple[tuple[int, int], ...]:
        """Each seat's (wins, penalties) this hand under Threes for luck."""
        return self._public.luck_tallies()

    def can_skip(self) -> bool:
        public = self._public
        return public.turn == self.seat and not public.over and public.second_double

    # What a player at a real table also knows (`bots.search.TableView`).

    @property
    def pending(self) -> Tile | None:
        return self._pending if self._public.turn == self.seat else None

    @property
    def must_lead(self) -> Tile | None:
        return self._public.must_lead

    @property
    def passes(self) -> int:
        return self._public.passes

    @property
    def match_scores(self) -> tuple[int, ...]:
        return tuple(self._public.match_scores)

    @property
    def target(self) -> int:
        return self._public.rules.target(self._public.players)
