"""A hand as every peer sees it at the table: the line and tile counts, never hidden tiles.

Peers check each action against what is public as it happens (turn order, a play fits its place,
drawing while the boneyard allows it, passing only when drawing is impossible). What depends on
hidden tiles (a pass while holding a playable tile, a draw that the rules allow only when stuck,
a drawn tile that had to be played) is checked at the end-of-hand audit by replaying the hand on
a full `HandState`.
"""

from __future__ import annotations

from p2p_dominoes.engine.actions import DRAW, PASS, PLAYS_ON, Action, Play
from p2p_dominoes.engine.errors import IllegalAction
from p2p_dominoes.engine.legality import may_draw, playable_mask, plays_for, why_no_draw
from p2p_dominoes.engine.line import Line, Side
from p2p_dominoes.engine.rules import Drawing, Rules
from p2p_dominoes.engine.scoring import HandEnd
from p2p_dominoes.engine.tiles import VALUE_MASK, Tile, tiles_in


class PublicHand:
    """The public state of one hand: counts, boneyard size, line, turn and consecutive passes."""

    def __init__(
        self, rules: Rules, players: int, opener: int, must_lead: Tile | None = None
    ) -> None:
        self.rules = rules
        self.players = rules.check_players(players)
        size = rules.hand_size(players)
        self.counts = [size] * players
        self.boneyard_size = 28 - size * players
        self.line = Line()
        self.opener = opener
        self.turn = opener
        self.must_lead = must_lead
        self.passes = 0
        self.end: HandEnd | None = None
        self.history: list[tuple[int, Action]] = []

    @property
    def over(self) -> bool:
        return self.end is not None

    def _check_turn(self, seat: int, what: str) -> None:
        if self.end is not None:
            raise IllegalAction(seat, what, "the hand is over")
        if seat != self.turn:
            raise IllegalAction(seat, what, f"it is seat {self.turn}'s turn")

    def normalise(self, play: Play) -> Play:
        """The same play with an untouched opening double's side B read as side A."""
        place = play.place
        if place is not None and place.side is Side.B and len(self.line.tiles) == 1:
            return PLAYS_ON[place.id - 1].get(play.tile.bit, play)
        return play

    def check_play(self, seat: int, play: Play) -> Play:
        """Raise IllegalAction unless `play` fits the line now; return it normalised."""
        play = self.normalise(play)
        tile, place = play.tile, play.place
        what = f"play {tile.text}"
        self._check_turn(seat, what)
        if tile in self.line.tiles:
            raise IllegalAction(seat, what, f"{tile.text} is already on the table")
        if not self.line.tiles:
            if self.must_lead is not None and tile is not self.must_lead:
                raise IllegalAction(seat, what, f"this hand must be led with {self.must_lead.text}")
            if place is not None:
                raise IllegalAction(seat, what, "the line is empty: the lead takes no place")
            return play
        if place is None or place not in self.line.places:
            if not self.line.places_for(tile):
                ends = " and ".join(str(v) for v in sorted({p.value for p in self.line.places}))
                raise IllegalAction(seat, what, f"{tile.text} fits no open end ({ends})")
            raise IllegalAction(seat, what, "that place is not open")
        if not VALUE_MASK[place.value] & tile.bit:
            raise IllegalAction(
                seat, what, f"{tile.text} does not fit the {place.value} on {place.tile.text}"
            )
        return play

    def play(self, seat: int, play: Play) -> None:
        """Apply a play that `check_play` accepted (the tile's holder was checked elsewhere)."""
        play = self.check_play(seat, play)
        if self.line.tiles:
            assert play.place is not None
            self.line.attach(play.tile, play.place)
        else:
            self.line.start(play.tile)
        self.must_lead = None
        self.counts[seat] -= 1
        self.passes = 0
        self.history.append((seat, play))
        if self.counts[seat] == 0:
            self.end = HandEnd.DOMINO
        else:
            self.turn = (seat + 1) % self.players

    def check_draw(self, seat: int) -> None:
        """Raise IllegalAction unless drawing can be legal now for some hand."""
        self._check_turn(seat, "draw")
        if self.rules.drawing is Drawing.NEVER or self.boneyard_size <= self.rules.reserve:
            raise IllegalAction(seat, "draw", why_no_draw(self.rules, self.boneyard_size, None, 0))

    def draw(self, seat: int) -> None:
        """Apply a draw: the seat's count grows, the turn stays."""
        self.check_draw(seat)
        self.boneyard_size -= 1
        self.counts[seat] += 1
        self.history.append((seat, DRAW))

    def check_pass(self, seat: int) -> None:
        """Raise IllegalAction when the seat could be made to draw instead."""
        self._check_turn(seat, "pass")
        if self.rules.drawing is not Drawing.NEVER and self.boneyard_size > self.rules.reserve:
            raise IllegalAction(
                seat,
                "pass",
                f"they must draw or play while the boneyard holds more than "
                f"{self.rules.reserve} tiles",
            )

    def pass_turn(self, seat: int) -> None:
        """Apply a pass; every player in turn passing blocks the hand."""
        self.check_pass(seat)
        self.passes += 1
        self.history.append((seat, PASS))
        if self.passes >= self.players:
            self.end = HandEnd.BLOCK
        else:
            self.turn = (seat + 1) % self.players


class PeerView:
    """A seat's view at a networked table: the public hand plus the seat's own tiles."""

    def __init__(self, public: PublicHand, seat: int, hand: int, pending: Tile | None) -> None:
        self._public = public
        self.seat = seat
        self._hand = hand
        self._pending = pending

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
        if public.turn != self.seat or public.over:
            return 0
        return playable_mask(self._hand, public.line, self._pending, public.must_lead)

    def legal_plays(self) -> list[Play]:
        playable = self._playable()
        return plays_for(self._public.line, playable) if playable else []

    def can_draw(self) -> bool:
        public = self._public
        if public.turn != self.seat or public.over:
            return False
        return may_draw(public.rules, public.boneyard_size, self._pending, self._playable())

    def can_pass(self) -> bool:
        public = self._public
        if public.turn != self.seat or public.over:
            return False
        return not self._playable() and not self.can_draw()
