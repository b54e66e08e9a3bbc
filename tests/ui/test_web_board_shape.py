"""What the page is told about a shape's board: the root, each ray from it outwards with its
open place (a target) or its closed end, and for trains each train's owner and marker."""

from p2p_dominoes.engine import Place, Side, parse_tile
from p2p_dominoes.engine.board import Board
from p2p_dominoes.engine.rules import Layout
from p2p_dominoes.ui.board_shape import shape_ends, shape_json
from p2p_dominoes.ui.web.page_moves import play_ends


def end(board: Board, ray: str) -> Place:
    """The open end of the ray the page calls `ray`."""
    place = shape_ends(board)[ray]
    assert place is not None
    return place


def lay(board: Board, tile: str, ray: str) -> None:
    """Put `tile` on the open end of the ray the page calls `ray`."""
    board.attach(parse_tile(tile), end(board, ray))


def test_a_lead_that_is_not_a_double_is_a_line_until_the_centre_comes() -> None:
    board = Board(Layout.TELEPHONE, 2)
    board.start(parse_tile("2|3"))
    assert [r["ray"] for r in shape_json(board)["rays"]] == ["L0", "L1"]
    lay(board, "3|3", "L0")
    shape = shape_json(board)
    assert shape["root"] == {"tile": "3|3", "low": 3, "high": 3, "double": True}
    rays = {r["ray"]: r for r in shape["rays"]}
    # Everything laid before the centre is its side A, read from the centre outwards.
    assert rays["A"]["tiles"] == [{"tile": "2|3", "near": 3, "far": 2, "double": False}]
    assert rays["A"]["open"] == {"value": 2, "side": "low"}
    assert {k: rays[k]["open"]["value"] for k in "BCD"} == {"B": 3, "C": 3, "D": 3}


def test_a_cross_keeps_its_short_ends_waiting_and_a_closed_ray_is_told() -> None:
    board = Board(Layout.CROSS, 2)
    board.start(parse_tile("4|4"))
    lay(board, "4|6", "A")
    rays = {r["ray"]: r for r in shape_json(board)["rays"]}
    assert rays["C"]["waiting"] and rays["C"]["open"] is None and not rays["C"]["closed"]
    board.close(end(board, "A"))
    rays = {r["ray"]: r for r in shape_json(board)["rays"]}
    assert rays["A"]["closed"] and rays["A"]["open"] is None
    assert "A" not in shape_ends(board)


def test_trains_name_their_owners_and_the_open_ones() -> None:
    board = Board(Layout.TRAINS, 3)
    board.start(parse_tile("5|5"))
    board.set_mover(1)
    lay(board, "5|2", "T1")
    board.mark_open(2)
    shape = shape_json(board)
    assert [(r["ray"], r["owner"], r["state"]) for r in shape["rays"]] == [
        ("T0", 0, "private"),
        ("T1", 1, "private"),
        ("T2", 2, "open"),
        ("TC", None, "not-started"),
    ]
    assert shape["rays"][1]["tiles"] == [{"tile": "2|5", "near": 5, "far": 2, "double": False}]
    assert play_ends(board)["T1"] == Place.of(parse_tile("2|5"), Side.LOW)
