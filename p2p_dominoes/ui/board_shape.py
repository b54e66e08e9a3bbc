"""The board as the page and the terminal draw it (pure): a line from its left end to its right
end; and for a cross, a telephone or trains the root tile and each ray (or train) from the root
outwards with its open place, whether it is closed, and for trains its owner and marker.
"""

from __future__ import annotations

from typing import Any

from p2p_dominoes.engine import Line, Place, Side, Tile
from p2p_dominoes.engine.board import COMMON, Board, RayKey

_RAY_ORDER = ("A", "B", "C", "D", "L0", "L1")


def chain(line: Line) -> tuple[list[dict[str, Any]], dict[str, Place | None]]:
    """The line from its left end to its right end, each tile with the values facing left and
    right, and which open place is at which end."""
    tiles: list[dict[str, Any]] = []
    ends: dict[str, Place | None] = {"left": None, "right": None}
    if not line.tiles:
        return tiles, ends
    first = line.tiles[0]
    tiles.append(oriented(first, first.low, first.high))
    if first.is_double:
        ends = {"left": Place.of(first, Side.B), "right": Place.of(first, Side.A)}
    else:
        ends = {"left": Place.of(first, Side.LOW), "right": Place.of(first, Side.HIGH)}
    for connection in line.connections:
        joined = Place.of(connection.table_tile, connection.table_side)
        tile = connection.new_tile
        value = joined.value
        free = tile.other_half(value) if not tile.is_double else value
        side = (
            Side.B
            if tile.is_double
            else (Side.LOW if connection.new_side is Side.HIGH else Side.HIGH)
        )
        if ends["right"] is joined:
            tiles.append(oriented(tile, value, free))
            ends["right"] = Place.of(tile, side)
        else:
            tiles.insert(0, oriented(tile, free, value))
            ends["left"] = Place.of(tile, side)
    return tiles, ends


def oriented(tile: Tile, left: int, right: int) -> dict[str, Any]:
    """A tile as the page draws it: its key, the value facing left and right, a double."""
    return {"tile": tile.key, "left": left, "right": right, "double": tile.is_double}


def ray_name(key: RayKey) -> str:
    """A ray's name on the page and in its commands: "A"–"D", "L0"/"L1", "T0"–"T3", "TC"."""
    if key == COMMON:
        return "TC"
    if isinstance(key, int):
        return f"T{key}"
    return key


def shape_ends(board: Board) -> dict[str, Place | None]:
    """Every open place of the board by its ray's name (the page's "end" of a play there)."""
    return {ray_name(key): place for key, place in board.ends.items()}


def _root(board: Board) -> Tile:
    """The tile the rays start from: the centre, the trains engine, or a line's lead."""
    return board.centre if board.centre is not None else board.tiles[0]


def _neighbours(board: Line) -> dict[int, list[tuple[Tile, int]]]:
    """Each laid tile's touching tiles, with the value where they touch."""
    touching: dict[int, list[tuple[Tile, int]]] = {}
    for c in board.connections:
        value = Place.of(c.table_tile, c.table_side).value
        touching.setdefault(c.table_tile.index, []).append((c.new_tile, value))
        touching.setdefault(c.new_tile.index, []).append((c.table_tile, value))
    return touching


def _ray_tiles(
    board: Board, key: RayKey, root: Tile, touching: dict[int, list[tuple[Tile, int]]]
) -> list[dict[str, Any]]:
    """The tiles of ray `key` from the root outwards, each with its near and far values."""
    tiles: list[dict[str, Any]] = []
    seen = {root.index}
    at = root
    while True:
        step = next(
            (
                (tile, value)
                for tile, value in touching.get(at.index, [])
                if tile.index not in seen and board.ray_of_tile.get(tile.index) == key
            ),
            None,
        )
        if step is None:
            return tiles
        tile, near = step
        far = near if tile.is_double else tile.other_half(near)
        tiles.append({"tile": tile.key, "near": near, "far": far, "double": tile.is_double})
        seen.add(tile.index)
        at = tile


def shape_json(board: Board) -> dict[str, Any]:
    """The board's shape for the page: the root, then each ray from it (see the module)."""
    if not board.tiles:
        return {"layout": board.layout.value, "root": None, "rays": []}
    root = _root(board)
    touching = _neighbours(board)
    closed_tiles = {p.tile.index for p in board.closed}
    keys: list[RayKey] = []
    if board.trains:
        keys = [*range(board.players), COMMON]
    else:
        keys = [k for k in _RAY_ORDER if k in board.lengths or k in board.ends]
    states = dict(board.train_states()) if board.trains else {}
    rays = []
    for key in keys:
        tiles = _ray_tiles(board, key, root, touching)
        place = board.ends.get(key)
        last = tiles[-1]["tile"] if tiles else None
        closed = place is None and (
            (last is not None and any(p.tile.key == last for p in board.closed))
            or (last is None and root.index in closed_tiles and key in ("A", "B"))
        )
        ray: dict[str, Any] = {
            "ray": ray_name(key),
            "tiles": tiles,
            "open": None if place is None else {"value": place.value, "side": place.side.value},
            "closed": closed,
            "waiting": place is None and not closed,
        }
        if board.trains:
            ray["owner"] = None if key == COMMON else key
            ray["state"] = states[key]
        rays.append(ray)
    lead = {"tile": root.key, "low": root.low, "high": root.high, "double": root.is_double}
    return {"layout": board.layout.value, "root": lead, "rays": rays}
