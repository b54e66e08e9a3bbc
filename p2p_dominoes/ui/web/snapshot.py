"""The state the web page draws, as JSON-ready dicts built from a peer's session (pure).

The page never computes rules: which tiles are playable where, whether drawing or passing is
allowed and why not, and the board description all come from here. This module puts the table
screen's snapshot together (`table_snapshot`: the line, the hand, presence, why a table
stopped); its parts live beside it: what the player may do (`page_moves.py`), the scores and a
hand's end (`score_words.py`), what the UI learned (`table_progress.py`), the sentences
(`snapshot_words.py`), and the lobby's rows (`lobby_rows.py`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from p2p_dominoes.engine import (
    Drawing,
    Line,
    Place,
    goal_text,
    note_text,
    parse_tile,
    side_name,
)
from p2p_dominoes.engine.board import Board
from p2p_dominoes.engine.rules import Doubles, MoveScoring
from p2p_dominoes.engine.rules_text import describe_rules
from p2p_dominoes.net.presence import Presence
from p2p_dominoes.net.said import said
from p2p_dominoes.net.verdict import verdict_line
from p2p_dominoes.session import Phase, TableSession, is_lottery_stall
from p2p_dominoes.session.events import Blame
from p2p_dominoes.session.table_code import TableCode
from p2p_dominoes.ui.board_shape import chain, oriented, shape_ends, shape_json
from p2p_dominoes.ui.web.board_words import board_words
from p2p_dominoes.ui.web.kozel_sheet import sheet_json
from p2p_dominoes.ui.web.page_moves import (
    draw_and_pass,
    drawn_this_turn,
    orientation_options,
    play_options,
)
from p2p_dominoes.ui.web.score_words import end_json, pairs_match_json, seat_scores
from p2p_dominoes.ui.web.snapshot_words import snapshot_said
from p2p_dominoes.ui.web.table_progress import TableProgress
from p2p_dominoes.words import reason_in


def _along(tiles: list[dict[str, Any]], line: Line) -> list[dict[str, Any]]:
    """Marks the doubles laid along (doubles: choice): the board draws them lengthwise."""
    if not line.along_mask and not line.along:
        return tiles
    return [
        {**t, "along": True} if t["double"] and line.lies_along(parse_tile(t["tile"])) else t
        for t in tiles
    ]


def _place_json(place: Place | None, end: str, lang: str) -> dict[str, Any] | None:
    if place is None:
        return None
    return {
        "end": end,
        "tile": place.tile.key,
        "side": place.side.value,
        "value": place.value,
        "label": f"{place.tile.text} ({side_name(place.side, lang)}, {place.value})",
    }


def table_snapshot(
    session: TableSession,
    names: Sequence[str],
    fingerprints: Sequence[str],
    progress: TableProgress,
    lang: str,
) -> dict[str, Any]:
    """Everything the table screen shows, for this peer's seat."""
    seat = session.seat
    hand = session.hand
    public = hand.public if hand is not None else None
    data: dict[str, Any] = {
        "screen": "table",
        "names": list(names),
        "fingerprints": list(fingerprints),
        "code": code_json(session.table_code),
        "seat": seat,
        "rules": session.rules.name,
        "target": session.rules.target(session.players),
        "scores": seat_scores(session.rules, session.scores, session.players),
        "history": progress.history,
        "hand_number": hand.number if hand is not None else 0,
        "phase": session.phase.value,
        "progress": {
            "done": progress.shuffles_done,
            "total": progress.shuffles_total,
            "last": progress.last_shuffler,
        },
        "waiting": {"name": progress.waiting_for, "seconds": round(progress.waiting_seconds)}
        if progress.waiting_for
        else None,
        **presence_json(progress.presence, names, lang),
        "next_hand": _next_hand_json(progress, session),
        "stopped": stopped_json(session.blame, progress, names, lang),
        "go_on": progress.go_on,  # v4: go on with a bot in the seat someone left?
        "replaced": [{"seat": s, "before": b} for s, b in sorted(progress.replaced.items())],
        "resume_table": session.transcript.table_id.hex() if progress.resumable else None,
        "alert": progress.alert,
        "log": progress.log[-60:],
        "end": end_json(progress, lang, names, seat),
        "sheet": sheet_json(session.rules, seat or 0, progress.sheet, names, lang, session.players),
        "pairs": session.rules.pairs,  # Kozel: partners opposite (the partner's badge)
        "match": {
            "over": progress.match_over,
            "winner": progress.match_winner,
            "draw": progress.match_draw,
            **pairs_match_json(progress, session, names, lang),
        },
        "turn": None,
        "line": [],
        "ends": [],
        "hand": [],
        "counts": [],
        "boneyard": 0,
        "reserve": session.rules.reserve,
        "description": "",
        "controls": None,
        "last_action": None,
        "recent_actions": [],
        "goal": goal_text(session.rules, session.players, lang),
        "rules_summary": " ".join(describe_rules(session.rules.to_dict(), lang)),
        "boneyard_in_play": session.rules.drawing is not Drawing.NEVER,
        "drawable": 0,
        "rule_notes": [],
        "closed": [],
        "can_skip": False,
        "end_total": None,
        "hand_points": None,
        "luck": None,
        "luck_draws": None,
        "score_flash": _flash_json(progress),
    }
    if public is None or seat is None or session.phase in (Phase.SETUP, Phase.HALTED):
        if progress.final_line and session.phase is not Phase.SETUP:
            data["line"] = progress.final_line
            data["description"] = progress.final_description
            data["final_board"] = True
            if progress.final_shape is not None:
                data["shape"] = progress.final_shape["layout"]
                data["board"] = progress.final_shape
        return data
    board = public.line
    if isinstance(board, Board):  # a cross, a telephone, trains: rays (line games unchanged)
        tiles = [oriented(t, t.low, t.high) for t in board.tiles]
        ends = shape_ends(board)
        data["shape"] = board.layout.value
        data["board"] = shape_json(board)
        data["ends"] = [p for p in (_place_json(v, k, lang) for k, v in ends.items()) if p]
        data["line"] = _along(tiles, board)
    else:
        tiles, ends = chain(board)
        data["line"] = _along(tiles, board)
        data["ends"] = [
            p
            for p in (
                _place_json(ends["left"], "left", lang),
                _place_json(ends["right"], "right", lang),
            )
            if p
        ]
    data["counts"] = list(public.counts)
    data["boneyard"] = public.boneyard_size
    rules = session.rules
    total = public.end_total() if rules.reads_end_total and public.line.tiles else None
    data["description"] = board_words(public.line, names, seat, lang, total)
    if rules.reads_end_total and public.line.tiles:  # a rule reads it: always in sight
        data["end_total"] = public.end_total()
    if rules.scores_during_play:
        if rules.move_scoring is MoveScoring.LUCK:
            data["luck"] = [list(tally) for tally in public.luck_tallies()]
        else:
            data["hand_points"] = list(public.move_points)
    if rules.move_scoring is MoveScoring.LUCK and not public.over:
        data["luck_draws"] = {
            "seat": public.turn,
            "drawn": public.draws_this_turn,
            "limit": rules.draw_limit,
        }
    data["drawable"] = public.drawable
    data["rule_notes"] = [note_text(note, lang, names) for note in public.notes]
    data["closed"] = [{"tile": p.tile.key, "value": p.value} for p in public.line.closed]
    data["last_action"] = _with_end(progress.last_action, tiles)
    data["recent_actions"] = [_with_end(a, tiles) for a in progress.recent_actions]
    in_turns = session.phase is Phase.TURNS
    data["turn"] = public.turn if not public.over else None
    view = session.view()
    options = play_options(view, ends) if in_turns and session.awaiting_action else {}
    orient = (
        orientation_options(view, ends, public.line, drawn_this_turn(session))
        if options and rules.doubles is Doubles.CHOICE
        else {}
    )
    data["hand"] = [
        {
            "tile": t.key,
            "low": t.low,
            "high": t.high,
            "fits": options.get(t.key, []),
            **({"orient": orient[t.key]} if t.key in orient else {}),
        }
        for t in sorted(view.hand, key=lambda t: t.index)
    ]
    data["controls"] = draw_and_pass(view, lang) if in_turns else None
    data["can_skip"] = in_turns and session.awaiting_action and view.can_skip()
    return data


def _flash_json(progress: TableProgress) -> dict[str, Any] | None:
    """The last move that scored (or drew a penalty) this hand, with the serial of that move:
    the page flashes it once when the serial is new and keeps it in sight until the next."""
    if not progress.last_score:
        return None
    return {"serial": progress.last_score_serial, "items": progress.last_score}


RECENT_ACTIONS = 8
"""Moves kept in the snapshot: enough for every seat's move that can reach a page at once."""


def _with_end(action: dict[str, Any] | None, line: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The last move with the end of the line its tile now lies at (None for a draw or pass)."""
    if action is None:
        return None
    end = None
    if action["kind"] == "play" and line:
        if len(line) == 1:
            end = "lead"
        elif line[0]["tile"] == action["tile"]:
            end = "left"
        elif line[-1]["tile"] == action["tile"]:
            end = "right"
    return {**action, "end": end}


def presence_json(presence: Presence | None, names: Sequence[str], lang: str) -> dict[str, Any]:
    """The "presence", "waiting" and "stall_warning" fields (see snapshot-contract.md); an empty
    dict before the runtime reported anything, so the old "waiting" stays."""
    if presence is None:
        return {}
    seats = [
        {
            "seat": p.seat,
            "state": p.state,
            "away_seconds": None if p.away_seconds is None else int(p.away_seconds),
            "turn_seconds": None if p.turn_seconds is None else int(p.turn_seconds),
            "page": p.page,
            "page_seconds": None if p.page_seconds is None else int(p.page_seconds),
            "bot": p.bot,
        }
        for p in presence.seats
    ]
    waiting = presence.waiting
    shown = None
    if waiting is not None and waiting.shown:
        name = names[waiting.seat]
        shown = {"seat": waiting.seat, "name": name, "seconds": int(waiting.seconds)}
        shown["page_closed"] = waiting.page_closed
    warning = None
    stall = presence.stall_warning
    if stall is not None:
        left = math.ceil(stall.stall_left)
        mine = stall is presence.own_turn
        away = stall.away or stall.page_closed
        key = "you_move" if mine else "come_back" if away else "to_move"
        warning = {
            "seat": stall.seat,
            "name": names[stall.seat],
            "seconds_left": left,
            "away": away,
            "me": mine,
            "text": snapshot_said(key, lang, name=names[stall.seat], s=left),
        }
    return {"presence": seats, "waiting": shown, "stall_warning": warning}


def _next_hand_json(progress: TableProgress, session: TableSession) -> dict[str, Any] | None:
    """The pause between hands, until the next hand's tiles are dealt."""
    hand = session.hand
    if not progress.next_hand or session.finished:
        return None
    if hand is None or hand.number != progress.next_hand or hand.public is not None:
        return None
    return {
        "number": progress.next_hand,
        "seconds_left": 0 if progress.next_hand_ready else math.ceil(progress.next_hand_left),
        "ready": progress.next_hand_ready,
    }


def stopped_json(
    blame: Blame | None, progress: TableProgress, names: Sequence[str], lang: str
) -> dict[str, Any] | None:
    """Why the table stopped before its end, and the next steps the page offers."""
    steps = ["lobby", "record", *(["resume"] if progress.resumable else [])]
    if progress.left:  # v4: our person left the table (our goodbye)
        text = said("left", lang)
        return {"reason": "left", "seat": None, "name": "", "text": text, "next": steps[:2]}
    if progress.asking_back and not progress.failure:  # v4, §16.1
        text = said("asking_back", lang)  # our peer asks for our seat back: not over yet
        return {"reason": "asking_back", "seat": None, "name": "", "text": text, "next": ["record"]}
    if progress.went_on:  # v4: another seat said we stalled; the table went on without us
        text = progress.went_on
        return {"reason": "went_on", "seat": None, "name": "", "text": text, "next": steps[:2]}
    if progress.declined:  # v4: our person would not go on without a seat that left
        name = progress.declined
        text = said("declined", lang, name=name)
        return {"reason": "declined", "seat": None, "name": name, "text": text, "next": steps[:2]}
    if blame is not None:
        name = names[blame.seat]
        if blame.code == "stall":  # the sentence every peer shows (net/verdict.py)
            text = verdict_line(name, blame.expected, lang, is_lottery_stall(blame))
            reason = "stall"
        else:
            why = reason_in(blame.reason, lang)
            text = snapshot_said("stopped_cheat", lang, name=name, reason=why)
            reason = "cheat"
        return {"reason": reason, "seat": blame.seat, "name": name, "text": text, "next": steps}
    if progress.verdict is not None:  # told by another seat: the same sentence as there
        seat, text = progress.verdict
        name = names[seat]
        return {"reason": "stall", "seat": seat, "name": name, "text": text, "next": steps}
    if progress.failure:
        why = reason_in(progress.failure, lang)  # a Phrase kept as one reads in the page's
        text = snapshot_said("stopped_failure", lang, reason=why)
        return {"reason": "failure", "seat": None, "name": "", "text": text, "next": steps}
    return None


def code_json(code: TableCode | None) -> dict[str, Any] | None:
    """The table code for the page: words in each language, and digits (None before setup)."""
    if code is None:
        return None
    return {"en": list(code.words("en")), "ru": list(code.words("ru")), "digits": code.digits}
