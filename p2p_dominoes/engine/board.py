"""Table shapes beyond the line: the cross, the telephone and trains (RULES_V2 §3).

One model for all three: every tile but the root lies on a *ray*, and a ray has at most one open
place, at its outer end. The shapes differ only in which rays exist and when they open. The
line keeps its own class (`Line`, the engine's fast path); `Board` is a `Line` in every other
respect, so the turn machine, the description and the session read both the same way. `places`
is what the seat to move may use (for trains: its own train, the common one and every train
marked open); `all_places` is every open place.
"""

from __future__ import annotations

from typing import Final

from p2p_dominoes.engine.line import _ATTACH, TRAIN_PORTS, Line, Place, Side
from p2p_dominoes.engine.rules import Layout
from p2p_dominoes.engine.tiles import ALL_TILES_MASK, DOUBLES_MASK, Tile
from p2p_dominoes.words import phrase, phrase_count

COMMON: Final = -1
"""The common train's ray key (a seat's train is keyed by the seat)."""

RayKey = int | str
"""A ray's name: "L0"/"L1" (a line before its centre), "A"–"D" (a centre's rays), a seat or
COMMON (trains)."""

_PORTS: Final = frozenset((*TRAIN_PORTS, Side.TC))


def train_port(key: RayKey) -> Side:
    """The engine's part a train starts from: `T0`–`T3` for a seat's, `TC` for the common."""
    if key == COMMON:
        return Side.TC
    assert isinstance(key, int)
    return TRAIN_PORTS[key]


def train_of_port(side: Side) -> RayKey | None:
    """The train an engine port starts (None for any other part)."""
    if side is Side.TC:
        return COMMON
    if side in TRAIN_PORTS:
        return TRAIN_PORTS.index(side)
    return None


_LONG_SIDES: Final = (Side.A, Side.B)


class Board(Line):
    """The open rays of a cross, a telephone or trains; doubles other than the centre lie
    across (or along) and never branch."""

    __slots__ = (
        "_dormant",
        "centre",
        "ends",
        "layout",
        "lead_mask",
        "lengths",
        "markers",
        "mover",
        "players",
        "quota",
        "ray_of_tile",
    )

    def __init__(self, layout: Layout, players: int, quota: int = 1, along: bool = False) -> None:
        super().__init__(along)
        self.layout = layout
        self.players = players
        self.quota = quota
        """Cross: tiles each side of the centre must hold before its ends C and D open."""
        self.centre: Tile | None = None
        self.ends: dict[RayKey, Place] = {}
        """Each ray's open place, in the order the rays were made (closed rays have none)."""
        self.lengths: dict[RayKey, int] = {}
        self.ray_of_tile: dict[int, RayKey] = {}
        """The ray each tile lies on (not the root: the lead, or a centre laid on a line)."""
        self.markers: set[int] = set()
        """Trains: the seats whose trains are open to all (they passed since last feeding it)."""
        self.mover = 0
        """The seat to move: whose reach `places` and `fit_mask` are."""
        self._dormant = False
        self.lead_mask = DOUBLES_MASK if layout is Layout.TRAINS else ALL_TILES_MASK

    @property
    def trains(self) -> bool:
        return self.layout is Layout.TRAINS

    @property
    def all_places(self) -> list[Place]:
        return list(self.ends.values())

    def copy(self) -> Board:
        other = Board(self.layout, self.players, self.quota, self.along)
        other.along_mask = self.along_mask
        other.tiles = self.tiles.copy()
        other.connections = self.connections.copy()
        other.places = self.places.copy()
        other.closed = self.closed.copy()
        other.fit_mask = self.fit_mask
        other.centre = self.centre
        other.ends = dict(self.ends)
        other.lengths = dict(self.lengths)
        other.ray_of_tile = dict(self.ray_of_tile)
        other.markers = set(self.markers)
        other.mover = self.mover
        other._dormant = self._dormant
        return other

    # -- who may use what ----------------------------------------------------------------------

    def set_mover(self, seat: int) -> None:
        """The turn passes to `seat`: its reach becomes `places`."""
        self.mover = seat
        self._refit()

    def mark_open(self, seat: int) -> None:
        """Trains: `seat` ended its turn with a pass, so its train opens to all."""
        if self.trains:
            self.markers.add(seat)
            self._refit()

    def _refit(self) -> None:
        if self.trains:
            reach = {self.mover, COMMON} | self.markers
            places = [p for key, p in self.ends.items() if key in reach]
        else:
            places = list(self.ends.values())
        mask = 0
        for place in places:
            mask |= place.fits
        self.places = places
        self.fit_mask = mask

    def play_places(self) -> list[Place]:
        """`places` with symmetric places once: an untouched lead double's parts are all its
        side A; a centre's ends C and D, both untouched, are end C."""
        places = self.places
        if not self.connections and self.tiles and self.tiles[0].is_double and not self.trains:
            return places[:1]
        twin = self._twin_ends()
        if twin is not None:
            return [p for p in places if p is not twin[1]]
        return places

    def _twin_ends(self) -> tuple[Place, Place] | None:
        """The centre's ends C and D while both are open and untouched."""
        centre = self.centre
        if centre is None:
            return None
        c, d = Place.of(centre, Side.C), Place.of(centre, Side.D)
        ends = self.ends
        if ends.get("C") is c and ends.get("D") is d:
            return c, d
        return None

    def canonical(self, place: Place) -> Place:
        """The place a play naming `place` lands on (see `play_places`)."""
        if place not in self.ends.values():
            return place
        lead = self.tiles[0]
        if not self.connections and lead.is_double and not self.trains:
            return Place.of(lead, Side.A)
        twin = self._twin_ends()
        if twin is not None and place is twin[1]:
            return twin[0]
        return place

    def why_not(self, place: Place) -> str | None:
        """Why the seat to move may not use `place`, when the board says why."""
        if place in self.closed:
            return phrase("engine.why.place_closed")
        if self.trains:
            for key, open_place in self.ends.items():
                if open_place is place and key not in (self.mover, COMMON):
                    return phrase("engine.why.private_train", seat=key)
            if place.side in _PORTS and place.tile is self.tiles[0]:
                return phrase("engine.why.train_not_open")
        elif place.side in _PORTS:
            return phrase("engine.why.no_trains")
        if (
            self.layout is Layout.CROSS
            and self.centre is place.tile
            and place.side in (Side.C, Side.D)
            and self._dormant
        ):
            return phrase_count("engine.why.centre_dormant", self.quota)
        return None

    def train_of(self, tile: Tile) -> RayKey | None:
        """Trains: the train `tile` lies on (None for the engine)."""
        return self.ray_of_tile.get(tile.index) if self.trains else None

    def train_states(self) -> list[tuple[RayKey, str]]:
        """Trains: (train, "open"/"private"/"not-started"/"started") for every seat, then the
        common train."""
        out: list[tuple[RayKey, str]] = []
        for seat in range(self.players):
            out.append((seat, "open" if seat in self.markers else "private"))
        started = any(key == COMMON for key in self.ray_of_tile.values())
        out.append((COMMON, "started" if started else "not-started"))
        return out

    # -- laying tiles ----------------------------------------------------------------------------

    def start(self, tile: Tile) -> None:
        """The lead: a trains engine (a double), a centre (a double across), or a line."""
        assert not self.tiles
        self.tiles.append(tile)
        if self.trains:
            for seat in range(self.players):
                self._open(seat, Place.of(tile, TRAIN_PORTS[seat]))
            self._open(COMMON, Place.of(tile, Side.TC))
        elif tile.is_double and not self.lies_along(tile):
            self._make_centre(tile, {"A": Place.of(tile, Side.A)}, 0)
        else:
            first, second = (Side.A, Side.B) if tile.is_double else (Side.HIGH, Side.LOW)
            self._open("L0", Place.of(tile, first))
            self._open("L1", Place.of(tile, second))
        self._refit()

    def _open(self, key: RayKey, place: Place) -> None:
        self.ends[key] = place
        self.lengths.setdefault(key, 0)

    def _make_centre(self, tile: Tile, ends: dict[RayKey, Place], behind: int) -> None:
        """`tile` becomes the centre; `ends` holds ray A's open place (none when that ray is
        closed or the centre was laid on it), `behind` the tiles already on its A side."""
        self.centre = tile
        self.ends = dict(ends)
        self.ends["B"] = Place.of(tile, Side.B)
        self.lengths = {"A": behind, "B": 0, "C": 0, "D": 0}
        if self.layout is Layout.TELEPHONE:
            self._open_short_ends()
        else:
            self._dormant = True
            self._check_cross()

    def _open_short_ends(self) -> None:
        assert self.centre is not None
        self.ends["C"] = Place.of(self.centre, Side.C)
        self.ends["D"] = Place.of(self.centre, Side.D)
        self._dormant = False

    def _check_cross(self) -> None:
        lengths = self.lengths
        if self._dormant and lengths["A"] >= self.quota and lengths["B"] >= self.quota:
            self._open_short_ends()

    def ends_after(self, tile: Tile, place: Place | None, along: bool = False) -> list[int]:
        """`Line.ends_after` on a board: laid on a copy (a board's places are many)."""
        trial = self.copy()
        trial.lay(tile, place, along)
        return [open_place.value for open_place in trial.places]

    def lay(self, tile: Tile, place: Place | None, along: bool = False) -> None:
        """Lay a checked play: the lead (no place) or `tile` on `place`; `along`: a double its
        player lays lengthwise (doubles = choice)."""
        if along:
            self.along_mask |= tile.bit
        if self.tiles:
            assert place is not None
            self.attach(tile, place)
        else:
            self.start(tile)

    def attach(self, tile: Tile, place: Place) -> None:
        """Put `tile` on the open `place` (canonical, checked to fit by the caller)."""
        place = self.canonical(place)
        key = next(k for k, p in self.ends.items() if p is place)
        attachment = _ATTACH[place.id][tile.index]
        assert attachment is not None  # the caller checked that it fits
        connection, free = attachment
        self.tiles.append(tile)
        self.connections.append(connection)
        if (
            self.centre is None
            and self.layout is not Layout.TRAINS
            and tile.is_double
            and not self.lies_along(tile)
        ):
            # The first double across is the centre; everything on the table is its A side.
            other: dict[RayKey, Place] = {}
            for ray, open_place in self.ends.items():
                if ray != key:
                    other["A"] = open_place  # the line's other end, now the far end of ray A
            for earlier in self.tiles[:-1]:
                self.ray_of_tile[earlier.index] = "A"
            self._make_centre(tile, other, len(self.tiles) - 1)
        else:
            self.ends[key] = free
            self.lengths[key] += 1
            self.ray_of_tile[tile.index] = key
            if self.trains and key == self.mover:
                self.markers.discard(self.mover)
            if self._dormant:
                self._check_cross()
        self._refit()

    def close(self, place: Place) -> None:
        """Close an open place for good (the donkey rule); its ray grows no more."""
        key = next(k for k, p in self.ends.items() if p is place)
        del self.ends[key]
        self.closed.append(place)
        self._refit()

    # -- reading the board -------------------------------------------------------------------------

    def end_total(self) -> int:
        """S (RULES_V2 §3.1): a crosswise double with an open long side counts 2v once, an open
        short end of a centre nothing, any other open place its number; the trains engine 2v
        while no train has started."""
        total = 0
        counted = 0
        lone = len(self.tiles) == 1
        for place in self.ends.values():
            tile = place.tile
            side = place.side
            if side in _PORTS:
                if lone and not counted & tile.bit:
                    counted |= tile.bit
                    total += tile.pips
            elif tile.is_double and not self.lies_along(tile):
                if side in _LONG_SIDES and not counted & tile.bit:
                    counted |= tile.bit
                    total += tile.pips
            else:
                total += place.value
        return total

    def sorted_places(self) -> list[Place]:
        """Every open place (whoever may use it), in description order."""
        return sorted(self.ends.values(), key=Place.sort_key)
