"""Who leads a hand: the opening rule, its fallback, and the rank list claims are made from.

A claimed rule (a double rule or the heaviest tile) ranks tiles in one total order: the rule's
doubles first, then, when its fallback is the heaviest tile, the others by pips and higher half.
The holder of the best-ranked dealt tile leads it. When nobody holds a ranked tile the fallback
decides: a lottery, the previous opener, one seat on, or a redeal (the hand is void).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final, NamedTuple

from p2p_dominoes.engine.errors import InvalidRecord
from p2p_dominoes.engine.rules import Fallback, Opener, Rules
from p2p_dominoes.engine.tiles import TILES, Tile, tile_of

# Enum members as module constants: Python 3.11 does not specialise attribute loads on a
# class, and these are read on every hand or every move.
_FALLBACK_HEAVIEST_TILE: Final = Fallback.HEAVIEST_TILE
_FALLBACK_LOTTERY: Final = Fallback.LOTTERY
_FALLBACK_REDEAL: Final = Fallback.REDEAL
_FALLBACK_ROTATE: Final = Fallback.ROTATE
_OPENER_ASSIGNED_DOUBLE: Final = Opener.ASSIGNED_DOUBLE
_OPENER_HEAVIEST_TILE: Final = Opener.HEAVIEST_TILE
_OPENER_HIGHEST_DOUBLE: Final = Opener.HIGHEST_DOUBLE
_OPENER_LOTTERY: Final = Opener.LOTTERY
_OPENER_LOWEST_DOUBLE: Final = Opener.LOWEST_DOUBLE
_OPENER_PREVIOUS_WINNER: Final = Opener.PREVIOUS_WINNER
_OPENER_ROTATE: Final = Opener.ROTATE
_OPENER_WEEKDAY_DOUBLE: Final = Opener.WEEKDAY_DOUBLE

_BY_WEIGHT: Final = tuple(sorted(TILES, key=lambda t: (t.pips, t.high), reverse=True))
"""All 28 tiles, heaviest first: most pips, ties to the higher half ([4|6] before [5|5])."""
_HEAVIEST_NON_DOUBLES: Final = tuple(t for t in _BY_WEIGHT if not t.is_double)


class PreviousHands(NamedTuple):
    """What later hands' openers depend on: the last counted hand's opener and lead seat."""

    opener: int | None = None
    lead_seat: int | None = None
    """The previous counted hand's winner seat (who went out, or won the block), if any."""


def _doubles_from(first: int) -> tuple[Tile, ...]:
    """d:d, (d+1):(d+1) … 6:6, then 0:0 … (d−1):(d−1)."""
    return tuple(tile_of(v, v) for v in [*range(first, 7), *range(first)])


def rank_list(
    rules: Rules, hand_number: int, previous: PreviousHands | None = None
) -> tuple[Tile, ...]:
    """The tiles this hand's opening is claimed by, best first; empty when the deal does not
    matter (a lottery, a rotation, a previous winner who exists)."""
    rule = rules.opener_rule(hand_number)
    if rule is _OPENER_PREVIOUS_WINNER:
        no_winner = previous is None or previous.lead_seat is None
        if no_winner and rules.fallback(hand_number) is _FALLBACK_HEAVIEST_TILE:
            return _BY_WEIGHT
        return ()
    if rule is _OPENER_HEAVIEST_TILE:
        return _BY_WEIGHT
    if rule is _OPENER_LOWEST_DOUBLE:
        doubles = _doubles_from(0)
    elif rule is _OPENER_HIGHEST_DOUBLE:
        doubles = tuple(reversed(_doubles_from(0)))
    elif rule is _OPENER_ASSIGNED_DOUBLE:
        doubles = _doubles_from(rules.assigned_double)
    elif rule is _OPENER_WEEKDAY_DOUBLE:
        doubles = _doubles_from(rules.weekday % 7)
    else:
        return ()
    if rules.fallback(hand_number) is _FALLBACK_HEAVIEST_TILE:
        return doubles + _HEAVIEST_NON_DOUBLES
    return doubles


def best_of(rank: Sequence[Tile], tiles: Iterable[Tile]) -> Tile | None:
    """The best-ranked of `tiles` (None when none is ranked)."""
    held = {t.index for t in tiles}
    return next((t for t in rank if t.index in held), None)


class Opening(NamedTuple):
    """How a hand opens: the seat to lead and the tile it must lead (None: any), or void."""

    seat: int | None
    must_lead: Tile | None = None
    void: bool = False
    """No ranked tile was dealt and the fallback is a redeal: the hand is not played."""


VOID: Final = Opening(None, None, True)


def opening(
    rules: Rules,
    hand_number: int,
    hands: Sequence[Sequence[Tile]],
    lottery: int | None,
    previous: PreviousHands,
) -> Opening:
    """The opening of a hand from the full deal (what a claim phase finds without the deal)."""
    rank = rank_list(rules, hand_number, previous)
    if rank:
        best = best_of(rank, (t for hand in hands for t in hand))
        if best is not None:
            seat = next(s for s, hand in enumerate(hands) if best in hand)
            return Opening(seat, best)
        return fallback_opening(rules, hand_number, len(hands), lottery, previous)
    return unclaimed_opening(rules, hand_number, len(hands), lottery, previous)


def unclaimed_opening(
    rules: Rules, hand_number: int, players: int, lottery: int | None, previous: PreviousHands
) -> Opening:
    """The opening under a rule that needs no knowledge of the deal."""
    rule = rules.opener_rule(hand_number)
    if rule is _OPENER_LOTTERY:
        return Opening(_lottery_seat(lottery, players))
    if hand_number == 1 or previous.opener is None:
        raise InvalidRecord(f"the opening rule {rule.value} needs a previous hand")
    if rule is _OPENER_ROTATE:
        return Opening((previous.opener + 1) % players)
    assert rule is _OPENER_PREVIOUS_WINNER, rule
    if previous.lead_seat is not None:
        return Opening(previous.lead_seat)
    return fallback_opening(rules, hand_number, players, lottery, previous)


def fallback_opening(
    rules: Rules, hand_number: int, players: int, lottery: int | None, previous: PreviousHands
) -> Opening:
    """The opening the fallback gives when the main rule finds nothing (not for heaviest-tile
    after a double rule: that is part of the rank list)."""
    fallback = rules.fallback(hand_number)
    if fallback is _FALLBACK_REDEAL:
        return VOID
    if fallback is _FALLBACK_LOTTERY:
        return Opening(_lottery_seat(lottery, players))
    if fallback is _FALLBACK_HEAVIEST_TILE:
        raise InvalidRecord("the heaviest-tile fallback is decided by the deal")
    if previous.opener is None:
        raise InvalidRecord(f"the fallback {fallback.value} needs a previous hand")
    if fallback is _FALLBACK_ROTATE:
        return Opening((previous.opener + 1) % players)
    return Opening(previous.opener)


def _lottery_seat(lottery: int | None, players: int) -> int:
    if lottery is None or lottery < 0:
        raise InvalidRecord("the opener is drawn by lottery: a random input is needed")
    return lottery % players
