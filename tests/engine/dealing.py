"""Helpers that build hands from tile text, as the examples in the rules do."""

from __future__ import annotations

from collections.abc import Sequence

from p2p_dominoes.engine import TILES, HandState, Rules, Tile, parse_tile


def tiles(text: str) -> list[Tile]:
    """'1|4 6|6 2|5' → the three tiles."""
    return [parse_tile(t) for t in text.split()]


def deal(
    rules: Rules,
    hands: Sequence[str],
    boneyard: str = "",
    opener: int = 0,
    must_lead: Tile | None = None,
) -> HandState:
    """A hand with the given tiles; short hands are filled up with unnamed tiles from [6|6]
    downwards, and the boneyard starts with `boneyard`, the rest following in canonical order."""
    dealt = [tiles(h) for h in hands]
    head = tiles(boneyard)
    used = {t for hand in dealt for t in hand} | set(head)
    spare = [t for t in reversed(TILES) if t not in used]
    size = rules.hand_size(len(hands))
    for hand in dealt:
        while len(hand) < size:
            hand.append(spare.pop(0))
    rest = sorted(spare)
    return HandState(rules, dealt, head + rest, opener, must_lead)
