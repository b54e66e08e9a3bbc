"""What this player may do now, for the page: the tiles that fit and at which end, the ways a
double may lie, and whether Draw and Pass are on (and why not).

The page never computes rules: it shows these options and sends back the one it chose, which
the controller finds among the same options (`page_commands.action_from`).
"""

from __future__ import annotations

from typing import Any

from p2p_dominoes.engine import Drawing, Line, Place, Play, SeatView, placement_points
from p2p_dominoes.engine.board import Board
from p2p_dominoes.session import TableSession
from p2p_dominoes.ui.board_shape import chain, shape_ends
from p2p_dominoes.ui.web.snapshot_words import snapshot_said


def play_ends(line: Line) -> dict[str, Place | None]:
    """The open places a page command may name, by end: a line's "left"/"right", a shape's
    rays ("A"–"D", "T0"–"T3", "TC", …)."""
    if isinstance(line, Board):
        return shape_ends(line)
    return chain(line)[1]


def play_options(view: SeatView, ends: dict[str, Place | None]) -> dict[str, list[str]]:
    """For each tile the player may play now, the ends ("left", "right", "lead") it fits (a
    double that may go across or along is listed once per end)."""
    options: dict[str, list[str]] = {}
    for play in view.legal_plays():
        if play.along:
            continue
        where = end_of(play, ends)
        options.setdefault(play.tile.key, []).append(where)
    return options


def orientation_options(
    view: SeatView,
    ends: dict[str, Place | None],
    line: Line,
    drawn_now: frozenset[str] = frozenset(),
) -> dict[str, dict[str, dict[str, dict[str, int]]]]:
    """Under `doubles: choice`, for each double and end where it may lie across or along, the
    end total and the points of each way: {tile: {end: {"across": {total, points}, "along":
    …}}}. `drawn_now`: the player's tiles drawn this turn (Threes for luck scores them apart)."""
    rules = view.rules
    found: dict[str, dict[str, dict[str, dict[str, int]]]] = {}
    plays = view.legal_plays()
    along = {(p.tile.key, end_of(p, ends)) for p in plays if p.along}
    for play in plays:
        where = end_of(play, ends)
        if (play.tile.key, where) not in along:
            continue
        trial = line.copy()
        trial.lay(*play)
        way = "along" if play.along else "across"
        points = placement_points(rules, line, play, play.tile.key in drawn_now)
        found.setdefault(play.tile.key, {}).setdefault(where, {})[way] = {
            "total": trial.end_total(),
            "points": points,
        }
    return found


def drawn_this_turn(session: TableSession) -> frozenset[str]:
    """The keys of this player's tiles drawn in the turn now under way (Threes for luck scores a
    scoring one +10): this turn's draws took the last deck positions handed out."""
    hand = session.hand
    if hand is None or hand.public is None or session.seat is None:
        return frozenset()
    if hand.public.turn != session.seat or not hand.public.draws_this_turn:
        return frozenset()
    first = hand.next_position - hand.public.draws_this_turn
    return frozenset(
        hand.known[p].key for p in hand.held[session.seat] if p >= first and p in hand.known
    )


def end_of(play: Play, ends: dict[str, Place | None]) -> str:
    """Which end of the line (\"left\", \"right\", or \"lead\") a play goes to."""
    if play.place is None:
        return "lead"
    for end, place in ends.items():
        if place is play.place:
            return end
    # An untouched opening double offers its side A only; B is the same place.
    return "right"


def draw_and_pass(view: SeatView, lang: str) -> dict[str, Any]:
    """Whether the draw and pass buttons are enabled, and why not when they are not."""
    rules = view.rules
    mine = view.turn == view.seat
    can_draw, can_pass = view.can_draw(), view.can_pass()
    draw_reason = pass_reason = ""
    if not mine:
        draw_reason = pass_reason = snapshot_said("not_turn", lang)
    else:
        if not can_draw:
            if rules.drawing is Drawing.NEVER:
                draw_reason = snapshot_said("no_drawing", lang)
            elif view.boneyard_size <= rules.reserve:  # the reserve is at most what is left
                why = "reserve" if view.boneyard_size else "empty"
                draw_reason = snapshot_said(why, lang, r=view.boneyard_size)
            else:
                draw_reason = snapshot_said("stuck_only", lang)
        if not can_pass:
            pass_reason = (
                snapshot_said("holds", lang)
                if view.legal_plays()
                else snapshot_said("must_draw", lang)
            )
    return {
        "can_draw": can_draw,
        "draw_reason": draw_reason,
        "can_pass": can_pass,
        "pass_reason": pass_reason,
    }
