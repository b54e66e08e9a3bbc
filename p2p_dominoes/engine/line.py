"""The line of play: tiles in the order played, how they connect, and the open places."""

from __future__ import annotations

from enum import StrEnum
from typing import Final, NamedTuple

from p2p_dominoes.engine.errors import InvalidRecord
from p2p_dominoes.engine.tiles import ALL_TILES_MASK, TILES, VALUE_MASK, Tile
from p2p_dominoes.words import phrase


class Side(StrEnum):
    """Where a tile touches or is open: a non-double's ends, a double's long sides."""

    HIGH = "high"  # the end with the higher value
    LOW = "low"  # the end with the lower value
    A = "A"  # a double's side that touches the line (an opening double's first side used)
    B = "B"  # a double's other side
    C = "C"  # a centre double's first short end used (cross, telephone)
    D = "D"  # a centre double's other short end
    T0 = "T0"  # the trains engine's port of seat 0's train
    T1 = "T1"
    T2 = "T2"
    T3 = "T3"
    TC = "TC"  # the engine's port of the common train


# Enum members as module constants: Python 3.11 does not specialise attribute loads on a
# class, and these are read on every hand or every move.
_SIDE_A: Final = Side.A
_SIDE_B: Final = Side.B
_SIDE_HIGH: Final = Side.HIGH
_SIDE_LOW: Final = Side.LOW
_DOUBLE_ONLY: Final = (Side.C, Side.D, Side.T0, Side.T1, Side.T2, Side.T3, Side.TC)
"""Parts only a centre double or a trains engine has (places 56 and up)."""
_RANK: Final = {Side.HIGH: 0, Side.LOW: 1, Side.A: 0, Side.B: 1} | {
    side: 2 + i for i, side in enumerate(_DOUBLE_ONLY)
}
TRAIN_PORTS: Final = (Side.T0, Side.T1, Side.T2, Side.T3)
"""TRAIN_PORTS[seat]: the engine's port of that seat's train."""


class Place:
    """An open place: a tile, its free end or side, and the number it needs.

    There are 56 places on a line (two per tile; ids 0–55), and 49 more that only a centre's
    short ends and a trains engine's ports use; each exists once, so places compare by
    identity; get one with `Place.of(tile, side)`.
    """

    __slots__ = ("fits", "id", "rank", "side", "tile", "value")

    id: int
    tile: Tile
    side: Side
    value: int
    fits: int
    """Bits of the tiles that fit here (those with `value`): read on every play."""
    rank: int
    """Order within a tile: high, low, A, B, C, D, then the trains' ports."""

    def __init__(self, tile: Tile, side: Side, id_: int = -1) -> None:
        self.tile = tile
        self.side = side
        self.id = tile.index * 2 + (side in (_SIDE_LOW, _SIDE_B)) if id_ < 0 else id_
        self.value = tile.low if side in (_SIDE_LOW, _SIDE_A, _SIDE_B) else tile.high
        self.fits = VALUE_MASK[self.value]
        self.rank = _RANK[side]

    @staticmethod
    def of(tile: Tile, side: Side) -> Place:
        """The place on `tile` at `side`: a non-double has high and low ends, a double sides
        A and B (and, as a centre or an engine, ends C and D and the trains' ports)."""
        if tile.is_double and side in _DOUBLE_ONLY:
            return _EXTRA[(tile.index, side)]
        if side not in ((_SIDE_A, _SIDE_B) if tile.is_double else (_SIDE_HIGH, _SIDE_LOW)):
            named = repr(side.value)
            if tile.is_double:
                raise InvalidRecord(phrase("engine.why.side_of_double", tile=tile.text, side=named))
            raise InvalidRecord(phrase("engine.why.side_of_non_double", tile=tile.text, side=named))
        return PLACES[tile.index * 2 + (side in (_SIDE_LOW, _SIDE_B))]

    def sort_key(self) -> tuple[str, int]:
        """Description order: by tile text, then high, low, A, B, C, D, trains."""
        return (self.tile.text, self.rank)

    def __repr__(self) -> str:
        return f"Place({self.tile.text}, {self.side.value}, {self.value})"

    def __copy__(self) -> Place:
        return self  # the 56 places exist once: identity is how they compare

    def __deepcopy__(self, memo: dict[int, object]) -> Place:
        return self


def _make_places() -> tuple[Place, ...]:
    places = []
    for tile in TILES:
        first, second = (_SIDE_A, _SIDE_B) if tile.is_double else (_SIDE_HIGH, _SIDE_LOW)
        places += [Place(tile, first), Place(tile, second)]
    for tile in TILES:
        if tile.is_double:
            places += [Place(tile, side, len(places) + i) for i, side in enumerate(_DOUBLE_ONLY)]
    return tuple(places)


PLACES: Final = _make_places()
"""PLACES[place.id]: every place; the line's 56 first."""

_EXTRA: Final = {(p.tile.index, p.side): p for p in PLACES[56:]}


class Connection(NamedTuple):
    """Two tiles that touch: the one already on the table first, the newly placed second."""

    table_tile: Tile
    table_side: Side
    new_tile: Tile
    new_side: Side


def _attachment(place: Place, tile: Tile) -> tuple[Connection, Place]:
    """How `tile` lies when put on `place`: the connection made and the place it opens."""
    value = place.value
    if tile.is_double:
        new_side, free = _SIDE_A, Place.of(tile, _SIDE_B)
    elif tile.high == value:
        new_side, free = _SIDE_HIGH, Place.of(tile, _SIDE_LOW)
    else:
        new_side, free = _SIDE_LOW, Place.of(tile, _SIDE_HIGH)
    return Connection(place.tile, place.side, tile, new_side), free


_ATTACH: Final[tuple[tuple[tuple[Connection, Place] | None, ...], ...]] = tuple(
    tuple(_attachment(p, t) if t.has(p.value) else None for t in TILES) for p in PLACES
)
"""_ATTACH[place.id][tile.index]: the connection and new open place (None: the tile does not
fit; a tuple, not a dict: every play reads it)."""


class Line:
    """A line with two open ends (fewer once the donkey rule closes one); doubles never branch.

    Other layouts (a cross, trains) will be classes of their own with more open places.
    """

    __slots__ = ("along", "along_mask", "closed", "connections", "fit_mask", "places", "tiles")

    def __init__(self, along: bool = False) -> None:
        self.tiles: list[Tile] = []
        self.connections: list[Connection] = []
        self.places: list[Place] = []
        self.closed: list[Place] = []
        """Places a double closed for good (the donkey rule), in the order closed."""
        self.fit_mask = 0
        """Bits of every tile that fits some open place (kept up to date on each play)."""
        self.along = along
        """Every double lies lengthwise: its parts are ends A and B, and they count once."""
        self.along_mask = 0
        """Bits of the doubles a player laid lengthwise by choice (`doubles = choice`)."""

    lead_mask = ALL_TILES_MASK
    """Tiles that may lead an empty table (trains: the doubles)."""
    centre: Tile | None = None
    """The double that grows four rays (cross, telephone); a line has none."""

    @property
    def all_places(self) -> list[Place]:
        """Every open place, whoever may use it (a line: its `places`)."""
        return self.places

    def lies_along(self, tile: Tile) -> bool:
        """Whether `tile` (a double on the table) lies lengthwise."""
        return self.along or bool(self.along_mask & tile.bit)

    def copy(self) -> Line:
        other = Line(self.along)
        other.along_mask = self.along_mask
        other.tiles = self.tiles.copy()
        other.connections = self.connections.copy()
        other.places = self.places.copy()
        other.closed = self.closed.copy()
        other.fit_mask = self.fit_mask
        return other

    def end_total(self) -> int:
        """S: the open ends' numbers; a crosswise double at an end counts both halves, once."""
        total = 0
        counted: set[int] = set()
        along = self.along_mask
        for place in self.places:
            tile = place.tile
            if tile.is_double and not self.along and not along & tile.bit:
                if tile.index not in counted:
                    counted.add(tile.index)
                    total += tile.pips
            else:
                total += place.value
        return total

    def close(self, place: Place) -> None:
        """Close an open place for good (a double nobody covered in time)."""
        self.places.remove(place)
        self.closed.append(place)
        self._refit()

    def _refit(self) -> None:
        mask = 0
        for place in self.places:
            mask |= place.fits
        self.fit_mask = mask

    @property
    def is_empty(self) -> bool:
        return not self.tiles

    def places_for(self, tile: Tile) -> list[Place]:
        """The open places `tile` fits, in description order."""
        return sorted((p for p in self.places if tile.has(p.value)), key=Place.sort_key)

    def sorted_places(self) -> list[Place]:
        return sorted(self.places, key=Place.sort_key)

    def start(self, tile: Tile) -> None:
        """Lead the first tile: a double offers sides A and B, a non-double its two ends."""
        assert not self.tiles
        self.tiles.append(tile)
        self.places = [PLACES[tile.index * 2], PLACES[tile.index * 2 + 1]]
        self.fit_mask = VALUE_MASK[tile.low] | VALUE_MASK[tile.high]

    def lay(self, tile: Tile, place: Place | None, along: bool = False) -> None:
        """Lay a checked play: the lead (no place) or `tile` on `place`; `along`: a double its
        player lays lengthwise (doubles = choice)."""
        if along:
            self.along_mask |= tile.bit
        if not self.tiles:
            self.start(tile)
            return
        assert place is not None
        if place.side is _SIDE_B and not self.connections:
            # An untouched opening double: its first side used is side A by definition.
            place = PLACES[place.id - 1]
        attachment = _ATTACH[place.id][tile.index]
        assert attachment is not None  # the caller checked that it fits
        connection, free = attachment
        self.tiles.append(tile)
        self.connections.append(connection)
        places = self.places
        if places[0] is place:
            places[0] = free
        else:
            places[1] = free
        # Two places, or one once the donkey rule closed the other ([-1] is then [0]).
        self.fit_mask = places[0].fits | places[-1].fits

    def ends_after(self, tile: Tile, place: Place | None, along: bool = False) -> list[int]:
        """The numbers of the open places once `tile` is laid on `place` (a play that fits),
        the table left as it is: what a bot weighs a play by (a line: `lay`'s tables, without
        a copy; a double's number is the same across or `along`)."""
        if not self.tiles:
            return [PLACES[tile.index * 2].value, PLACES[tile.index * 2 + 1].value]
        assert place is not None
        if place.side is _SIDE_B and not self.connections:
            place = PLACES[place.id - 1]
        attachment = _ATTACH[place.id][tile.index]
        assert attachment is not None  # the caller checked that it fits
        free = attachment[1]
        return [
            free.value if open_place is place else open_place.value for open_place in self.places
        ]

    def attach(self, tile: Tile, place: Place) -> None:
        """Put `tile` on the open `place` of a line past its lead; the caller has checked that
        it fits."""
        assert self.tiles
        self.lay(tile, place)
