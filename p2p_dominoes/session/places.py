"""The place a signed `play` names: its `at` (table tile index) and `side` fields, decoded.

One helper for every play message version, so that each decodes places alike. `side` is a part
name: `high`/`low`, `A`/`B`, a centre's short ends `C`/`D`, or a trains engine's port — the train
itself: `T0`–`T3` (a seat's) or `TC` (the common train). A play on a train's outer end names that
tile's end, which lies on one train only.
"""

from __future__ import annotations

from p2p_dominoes.engine import InvalidRecord, Place, Side, Tile
from p2p_dominoes.engine.tiles import TILES
from p2p_dominoes.mental.errors import message_of
from p2p_dominoes.words import phrase

_SIDES = frozenset(s.value for s in Side)


class BadPlace(ValueError):
    """The fields do not name a place (one clear line says why)."""


def decode_place(at: object, side: object) -> Place | None:
    """The place (`at`, `side`) name, or None for a lead (both nil); BadPlace otherwise."""
    if at is None and side is None:
        return None
    if not isinstance(at, int) or not isinstance(side, str) or side not in _SIDES:
        raise BadPlace(phrase("session.why.play_names_both_table_tile"))
    if not 0 <= at < len(TILES):
        raise BadPlace(phrase("session.why.there_no_tile_number", at=at))
    try:
        return Place.of(TILES[at], Side(side))
    except InvalidRecord as exc:
        raise BadPlace(message_of(exc)) from None


def encode_place(place: Place | None) -> tuple[int | None, str | None]:
    """The (`at`, `side`) fields of a play on `place` (nil, nil for a lead)."""
    if place is None:
        return None, None
    tile: Tile = place.tile
    return tile.index, place.side.value
