"""Protocol v3's tile proofs (PROTOCOL.md §10.6): a play or a lead claim shows its tile with an
OR-proof that the tile is at one of the seat's positions, never which one.

Which positions a proof ranges over, the partial openings the proof's branches are built from,
and this peer's own proofs.
"""

from __future__ import annotations

from collections.abc import Sequence

from p2p_dominoes import mental
from p2p_dominoes.engine import Play, Rules, Tile, placement_points
from p2p_dominoes.mental import Branch, RandomSource, Step, StepKind
from p2p_dominoes.session.checks import bad
from p2p_dominoes.session.hand_in_play import HandInPlay
from p2p_dominoes.words import phrase


def _opening(hand: HandInPlay, position: int, owner: int) -> bytes:
    """The partial opening of `owner`'s `position` (its shares were checked on arrival)."""
    opening = hand.openings.get(position)
    if opening is None:
        assert hand.joint is not None
        opening = mental.partial_opening(
            hand.ctx,
            hand.joint,
            hand.deck,
            position,
            owner,
            hand.shares_for(position),
            checked=True,
        )
        hand.openings[position] = opening
    return opening


def branches(hand: HandInPlay, seat: int, positions: Sequence[int]) -> tuple[Branch, ...]:
    """The OR-proof branches of `seat`'s `positions`, one a position."""
    openings = {p: _opening(hand, p, seat) for p in positions}
    return mental.branches_for(hand.deck, positions, openings)


def drawn_now(hand: HandInPlay) -> list[int]:
    """The positions drawn in this turn (the last ones handed out)."""
    assert hand.public is not None
    return list(range(hand.next_position - hand.public.draws_this_turn, hand.next_position))


def scores_apart(rules: Rules, hand: HandInPlay, play: Play) -> bool:
    """Whether `play` would score differently as a tile drawn in this turn (Threes for
    luck): only then does the play say which (a public fact the rules need)."""
    public = hand.public
    assert public is not None
    if public.draws_this_turn == 0:
        return False
    line = public.line
    return placement_points(rules, line, play, True) != placement_points(rules, line, play, False)


def proof_set(
    rules: Rules, hand: HandInPlay, seat: int, play: Play, drawn: bool | None
) -> list[int]:
    """The positions a play's proof ranges over: all the seat ever held, or, when the rules
    score a tile drawn in this turn apart, this turn's draws (`drawn`) or all the others;
    `drawn` is given exactly then."""
    if not scores_apart(rules, hand, play):
        if drawn is not None:
            raise bad("bad-play", phrase("session.why.play_says_drawn_only_when"))
        return hand.held[seat]
    if drawn is None:
        raise bad("bad-play", phrase("session.why.play_scores_apart_if_drawn"))
    now = drawn_now(hand)
    return now if drawn else [p for p in hand.held[seat] if p not in now]


def play_step(hand: HandInPlay) -> Step:
    """A v3 play's proof step: the number of tiles played before it in this hand."""
    return Step(StepKind.PLAY, len(hand.tiles_played))


def prove(
    hand: HandInPlay,
    seat: int,
    step: Step,
    tile: Tile,
    positions: Sequence[int],
    rng: RandomSource,
) -> bytes:
    """This seat's proof that `tile` is at one of `positions` (it knows which)."""
    assert hand.keys is not None
    real = next(p for p in positions if hand.known.get(p) is tile)
    found = branches(hand, seat, positions)
    return mental.prove_tile(hand.ctx, hand.keys, step, tile.index, found, real, rng)
