"""One hand with every tile known: the deal, legal actions, and the validated step of each action.

The public turn rules live in `TurnMachine`; this adds what needs the hands (holding the tile,
holding no playable tile when passing or drawing when stuck, a drawn tile to play at once)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from p2p_dominoes.engine.actions import (
    DRAW,
    PASS,
    SKIP,
    Action,
    Draw,
    Pass,
    Play,
    Skip,
    action_words,
)
from p2p_dominoes.engine.errors import IllegalAction, InvalidRecord
from p2p_dominoes.engine.legality import (
    board_plays,
    may_draw,
    must_play_drawn,
    playable_mask,
    plays_both_ways,
    plays_for,
    why_no_draw,
)
from p2p_dominoes.engine.line import Place, Side
from p2p_dominoes.engine.rules import MoveScoring, Rules
from p2p_dominoes.engine.scoring import HandEnd, HandResult, score_hand, scored_so_far
from p2p_dominoes.engine.tiles import (
    ALL_TILES_MASK,
    DOUBLES_MASK,
    TILES,
    Tile,
    mask_of,
    pips_in,
    tiles_in,
)
from p2p_dominoes.engine.turns import TurnMachine
from p2p_dominoes.words import phrase

# Enum members as module constants: Python 3.11 does not specialise attribute loads on a
# class, and these are read on every hand or every move.
_BLOCK: Final = HandEnd.BLOCK
_DOMINO: Final = HandEnd.DOMINO
_UNFINISHED: Final = HandEnd.UNFINISHED
_SIDE_B: Final = Side.B


class HandState(TurnMachine):
    """The full state of one hand; `apply` checks every action before it changes anything."""

    __slots__ = ("_drawn", "boneyard", "dealt", "hands", "pending", "result")

    def __init__(
        self,
        rules: Rules,
        hands: Sequence[Sequence[Tile]],
        boneyard: Sequence[Tile],
        opener: int,
        must_lead: Tile | None = None,
        *,
        _blank: list[int] | None = None,
    ) -> None:
        """Start a hand from a deal; `must_lead` is a tile the opener is obliged to lead.
        (`_blank`: the hands' masks of a deal `_blank` made and checked once, for a copy to
        overwrite; never for a deal from elsewhere.)"""
        players = len(hands)
        if _blank is None:
            masks = _checked_deal(rules, hands, boneyard, opener, must_lead)
        else:
            masks = _blank
        super().__init__(rules, players, opener, must_lead, len(boneyard))
        self.hands = masks
        self.dealt = tuple(self.hands)
        self.boneyard = list(boneyard)
        self._drawn = 0
        self.pending: Tile | None = None
        """A drawn tile that fits and must be played at once (play_drawn_at_once)."""
        self.result: HandResult | None = None

    @staticmethod
    def assembled(
        public: TurnMachine,
        hands: Sequence[int],
        boneyard: Sequence[Tile],
        drawn: int,
        pending: Tile | None,
    ) -> HandState:
        """The hand a public machine shows, with every tile placed: `hands` (bit masks) as the
        seats hold them now, `boneyard` in draw order with its first `drawn` tiles gone. The
        caller has checked that the tiles fit the public facts (a search's sampled position,
        bots/search/sampler.py); what it assembles is played by the same rules as any hand."""
        state = _blank(public.rules, public.players)
        public.copy_public_into(state)
        state.hands = list(hands)
        state.dealt = tuple(hands)
        state.boneyard = list(boneyard)
        state._drawn = drawn
        state.pending = pending
        state.result = None
        return state

    def copy(self) -> HandState:
        """An independent copy: acting on one never changes the other."""
        other = HandState.assembled(self, self.hands, self.boneyard, self._drawn, self.pending)
        other.dealt = self.dealt
        other.result = self.result
        return other

    # -- what the rules allow ------------------------------------------------------------

    @property
    def drawn_tiles(self) -> list[Tile]:
        """The tiles drawn so far, in order."""
        return self.boneyard[: self._drawn]

    def hand_of(self, seat: int) -> list[Tile]:
        return list(tiles_in(self.hands[seat]))

    def playable_mask(self, seat: int) -> int:
        """Bits of the tiles `seat` could play now, were it their turn."""
        mask = playable_mask(self.hands[seat], self.line, self.pending, self.must_lead)
        if self.second_double:
            mask &= DOUBLES_MASK
        return mask

    def can_draw(self, playable: int) -> bool:
        """Drawing is allowed now for a seat whose playable tiles are `playable`."""
        return may_draw(self, self.pending, playable)

    def legal_plays(self) -> list[Play]:
        """Every (tile, open place) the seat to act may play."""
        if self.result is not None:
            return []
        return self._plays(self.playable_mask(self.turn))

    def _plays(self, playable: int) -> list[Play]:
        """The plays of the tiles in `playable` (the seat to act's), in a new list."""
        if not playable or self.must_draw_first():
            return []
        line = self.line
        if self._choice:
            return plays_both_ways(line, playable)
        if self._board:
            return board_plays(line, playable)  # type: ignore[arg-type]
        return plays_for(line, playable)

    def legal_actions(self) -> list[Action]:
        """Plays first, then draw, pass and skip when the rules allow them."""
        if self.result is not None:
            return []
        playable = self.playable_mask(self.turn)
        actions: list[Action] = self._plays(playable)  # type: ignore[assignment]
        if self.second_double:
            actions.append(SKIP)
            return actions
        if self.can_draw(playable):
            actions.append(DRAW)
        if not playable and self.pass_is_public_legal():
            actions.append(PASS)
        return actions

    # -- the validated step ----------------------------------------------------------------

    def apply(self, seat: int, action: Action) -> None:
        """Carry out `action` for `seat`, or raise IllegalAction and change nothing."""
        if self.result is not None:
            raise IllegalAction(seat, action_words(action), phrase("engine.why.hand_over"))
        if seat != self.turn:
            rule = phrase("engine.why.not_your_turn", seat=self.turn)
            raise IllegalAction(seat, action_words(action), rule)
        kind = type(action)
        if kind is Play:
            # The hand's own checks, the public check (its quick form for the common play),
            # then `TurnMachine._after_play` (the turn's phases the plan has).
            play: Play = action  # type: ignore[assignment]
            tile, place, along = play
            hand = self.hands[seat]
            if (
                not hand & tile.bit
                or (self.pending is not None and tile is not self.pending)
                or (self.must_lead is not None and tile is not self.must_lead)
            ):
                raise self._illegal_play(seat, tile, place)
            line = self.line
            if (
                self._board
                or along
                or place is None
                or not line.connections
                or not place.fits & tile.bit
                or place not in line.places  # places are interned: `in` compares identities
                or self.forced_due
                or self.second_double
            ):
                # The lead, the first play on it, a board, a phase under way or a play
                # refused: the full public check, with its reasons. Any other play of a held
                # tile on an open place of a line that it fits is one it accepts unchanged.
                play = self.check_public_play(seat, play)
            hand ^= tile.bit
            self.hands[seat] = hand
            self.pending = None
            drawn = self.draws_this_turn
            from_draw = bool(drawn) and tile in self.boneyard[self._drawn - drawn : self._drawn]
            self._after_play(seat, play, hand, from_draw)
        elif kind is Draw:
            self._draw(seat)
            return
        elif kind is Pass:
            self._pass(seat)
        elif kind is Skip:
            self.check_skip(seat)
            self._after_skip(seat)
        else:
            raise IllegalAction(seat, repr(action), phrase("engine.why.not_an_action"))
        if self.end is not None:
            self._score()

    def _score(self) -> None:
        pips = list(map(pips_in, self.hands))
        luck = self.rules.move_scoring is MoveScoring.LUCK
        self.result = score_hand(
            self.rules,
            self.end or _BLOCK,
            pips,
            self.closer,
            self.move_points if self.rules.move_scoring is not MoveScoring.NONE else (),
            self.luck_tallies() if luck else (),
            self.reached,
            self.history,
        )

    def _illegal_play(self, seat: int, tile: Tile, place: Place | None) -> IllegalAction:
        """The first rule that playing `tile` on `place` breaks."""
        what = phrase("engine.action.play", tile=tile.text)
        if not self.hands[seat] & tile.bit:
            return IllegalAction(seat, what, phrase("engine.why.not_held", tile=tile.text))
        if self.pending is not None and tile is not self.pending:
            rule = phrase("engine.why.drawn_tile_must_be_played", tile=self.pending.text)
            return IllegalAction(seat, what, rule)
        try:
            self.check_public_play(seat, Play(tile, place))
        except IllegalAction as exc:
            return exc
        return IllegalAction(seat, what, phrase("engine.why.place_not_open"))

    def _draw(self, seat: int) -> None:
        playable = self.playable_mask(seat)
        if not self.can_draw(playable):
            rule = why_no_draw(self, self.pending, playable)
            raise IllegalAction(seat, phrase("engine.action.draw"), rule)
        tile = self.boneyard[self._drawn]
        self._drawn += 1
        self.hands[seat] |= tile.bit
        forced = self.forced_due > 0
        self._after_draw(seat)
        if must_play_drawn(self, tile, forced):
            self.pending = tile

    def _pass(self, seat: int) -> None:
        playable = self.playable_mask(seat)
        if playable:
            tile = next(tiles_in(playable))
            rule = phrase("engine.why.has_playable", tile=tile.text)
            raise IllegalAction(seat, phrase("engine.action.pass"), rule)
        if not self.pass_is_public_legal():
            raise IllegalAction(seat, phrase("engine.action.pass"), self.why_no_pass())
        self._after_pass(seat)

    # -- results -----------------------------------------------------------------------------

    def outcome(self) -> HandResult:
        """The result, or an 'unfinished' one while the hand goes on: with no points, or under
        rules that score during play with the points (and Threes for luck's tallies) so far."""
        if self.result is not None:
            return self.result
        pips = tuple(pips_in(h) for h in self.hands)
        # A plan with no phase (bonuses at most) shows an unfinished hand without points, as
        # it always has: nothing it scores accrues before the hand ends.
        if self.rules.scores_during_play and not self.plan.simple:
            luck = self.rules.move_scoring is MoveScoring.LUCK
            return scored_so_far(
                self.rules,
                pips,
                self.move_points if self.rules.move_scoring is not MoveScoring.NONE else (),
                self.luck_tallies() if luck else (),
            )
        units = self.rules.units(self.players)
        return HandResult(_UNFINISHED, None, (0,) * units, pips)


def _checked_deal(
    rules: Rules,
    hands: Sequence[Sequence[Tile]],
    boneyard: Sequence[Tile],
    opener: int,
    must_lead: Tile | None,
) -> list[int]:
    """The hands' bit masks, once the deal is checked: `rules`' hand size to each seat, each of
    the 28 tiles exactly once, an opener who is a seat and holds the lead it must make;
    InvalidRecord (one line) otherwise."""
    players = len(hands)
    size = rules.hand_size(players)  # InvalidRecord unless the rules are for `players`
    masks = [mask_of(hand) for hand in hands]
    dealt = mask_of(boneyard)
    for mask in masks:
        dealt |= mask
    if (
        dealt != ALL_TILES_MASK
        or players * size + len(boneyard) != len(TILES)
        or list(map(len, hands)) != [size] * players
    ):
        raise InvalidRecord(_deal_defect(rules, hands, boneyard))
    if not 0 <= opener < players:
        raise InvalidRecord(phrase("engine.why.opener_not_a_seat", opener=opener, players=players))
    if must_lead is not None and not masks[opener] & must_lead.bit:
        raise InvalidRecord(
            phrase("engine.why.opener_lacks_lead", opener=opener, tile=must_lead.text)
        )
    return masks


def _blank(rules: Rules, players: int) -> HandState:
    """A hand of `rules` for `players`, to be overwritten field by field (`HandState.copy`,
    `HandState.assembled`): a compiled class cannot be made without its constructor. Its deal
    (a tile each, in the set's order) is never checked nor played: every field it sets is
    overwritten, and those the rules and the player count set are the same in any hand."""
    hands, boneyard = _BLANK_DEALS[players]
    return HandState(rules, hands, boneyard, 0, _blank=[tile.bit for tile in TILES[:players]])


_BLANK_DEALS: Final = {
    players: (tuple((tile,) for tile in TILES[:players]), TILES[players:]) for players in (2, 3, 4)
}
"""The deal `_blank` gives each player count (made once: every copy of a hand makes one)."""


def _deal_defect(rules: Rules, hands: Sequence[Sequence[Tile]], boneyard: Sequence[Tile]) -> str:
    """Why a deal is not `rules`' hand size to each seat and each of the 28 tiles once."""
    size = rules.hand_size(len(hands))
    for seat, hand in enumerate(hands):
        if len(hand) != size:
            return phrase(
                "engine.why.deal_wrong_size",
                seat=seat,
                dealt=len(hand),
                size=size,
                players=len(hands),
            )
    seen = 0
    for tile in [*(t for hand in hands for t in hand), *boneyard]:
        if seen & tile.bit:
            return phrase("engine.why.dealt_twice", tile=tile.text)
        seen |= tile.bit
    missing = ", ".join(t.text for t in tiles_in(ALL_TILES_MASK & ~seen))
    return phrase("engine.why.deal_missing", tiles=missing)


def highest_double_lead(hands: Sequence[Sequence[Tile]]) -> tuple[int, Tile]:
    """The seat holding the highest double and that double; with none, the heaviest tile."""
    dealt = [(tile, seat) for seat, hand in enumerate(hands) for tile in hand]
    doubles = [(tile, seat) for tile, seat in dealt if tile.is_double]
    pool = doubles or dealt
    tile, seat = max(pool, key=lambda ts: (ts[0].pips, ts[0].high))
    return seat, tile
