"""What a seat can do on its turn: play a tile on an open place, draw, or pass."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, NamedTuple

from p2p_dominoes.engine.line import PLACES, Place
from p2p_dominoes.engine.tiles import TILES, Tile
from p2p_dominoes.words import Phrase, phrase


class Play(NamedTuple):
    """Put `tile` on the open `place`; `place` is None only for the lead. `along`: a double
    laid lengthwise by the player's choice (`doubles = choice`; the record's `orient`)."""

    tile: Tile
    place: Place | None = None
    along: bool = False

    def __str__(self) -> str:
        lie = " along" if self.along else ""
        if self.place is None:
            return f"play {self.tile.text}{lie}"
        return f"play {self.tile.text}{lie} on {self.place.tile.text} ({self.place.side.value})"


@dataclass(frozen=True, slots=True)
class Draw:
    """Take the next tile from the boneyard; the turn stays with the drawer."""

    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True)
class Pass:
    """Let the turn go without playing; legal only with no play and no draw."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Skip:
    """Decline the second double of a turn (the page's "Skip"); legal only right after a double
    when two doubles a turn are allowed."""

    def __str__(self) -> str:
        return "skip"


Action = Play | Draw | Pass | Skip

DRAW = Draw()
PASS = Pass()
SKIP = Skip()

LEADS: Final[tuple[Play, ...]] = tuple(Play(tile) for tile in TILES)
"""LEADS[tile.index]: the lead of that tile (made once; actions are immutable)."""

PLAYS_ON: Final[tuple[dict[int, Play], ...]] = tuple(
    {t.bit: Play(t, p) for t in TILES if t.has(p.value)} for p in PLACES
)
"""PLAYS_ON[place.id][tile.bit]: playing that tile on that place, for tiles that fit."""

PLAYS_AT: Final[tuple[tuple[Play, ...], ...]] = tuple(
    tuple(PLAYS_ON[p.id].get(t.bit) or Play(t, p) for t in TILES) for p in PLACES
)
"""PLAYS_AT[place.id][tile.index]: the same plays as `PLAYS_ON` (the same objects for tiles
that fit; a tile that does not fit has an entry only to keep the row indexed by tile), read by
the legal plays' hot path."""


def action_words(action: object) -> Phrase | str:
    """An action as a refusal names it (`IllegalAction`'s action), in words that read in a
    player's language: the same English as `str(action)`; anything that is not an action as
    its `repr`."""
    if isinstance(action, Play):
        tile = action.tile.text
        place = action.place
        if place is None:
            key = "engine.action.play_along" if action.along else "engine.action.play"
            return phrase(key, tile=tile)
        key = "engine.action.play_along_on" if action.along else "engine.action.play_on"
        return phrase(key, tile=tile, on=place.tile.text, side=place.side.value)
    if isinstance(action, Draw):
        return phrase("engine.action.draw")
    if isinstance(action, Pass):
        return phrase("engine.action.pass")
    if isinstance(action, Skip):
        return phrase("engine.action.skip")
    return repr(action)


ALONG_LEADS: Final[dict[int, Play]] = {t.bit: Play(t, None, True) for t in TILES if t.is_double}
"""ALONG_LEADS[tile.bit]: leading that double lengthwise."""

ALONG_PLAYS_ON: Final[tuple[dict[int, Play], ...]] = tuple(
    {t.bit: Play(t, p, True) for t in TILES if t.is_double and t.has(p.value)} for p in PLACES
)
"""ALONG_PLAYS_ON[place.id][tile.bit]: laying that double lengthwise on that place."""
