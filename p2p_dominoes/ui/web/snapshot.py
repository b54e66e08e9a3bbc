"""The state the web page draws, as JSON-ready dicts built from a peer's session (pure).

The page never computes rules: which tiles are playable where, whether drawing or passing is
allowed and why not, and the board description all come from here.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from p2p_dominoes.engine import (
    Drawing,
    HandEnd,
    HandResult,
    HandScoring,
    Line,
    MatchOutcome,
    Place,
    Play,
    SeatView,
    TurnNote,
    goal_text,
    match_text,
    note_text,
    parse_tile,
    result_text,
    side_name,
)
from p2p_dominoes.engine.board import Board
from p2p_dominoes.engine.kozel_text import ceremonies_text
from p2p_dominoes.engine.rules import Doubles, MoveScoring, Rules
from p2p_dominoes.engine.rules_text import describe_rules
from p2p_dominoes.engine.turns import placement_points
from p2p_dominoes.net.admission import LobbyState
from p2p_dominoes.net.join_code import join_code_digits, join_code_words
from p2p_dominoes.net.presence import Presence
from p2p_dominoes.net.verdict import verdict_line
from p2p_dominoes.session import Phase, TableSession, is_lottery_stall
from p2p_dominoes.session.events import Blame
from p2p_dominoes.session.table_code import TableCode
from p2p_dominoes.ui.board_shape import chain, oriented, shape_ends, shape_json
from p2p_dominoes.ui.web.board_words import board_words
from p2p_dominoes.ui.web.kozel_sheet import SheetRow, sheet_json

_REASONS = {
    "en": {
        "not_turn": "It is not your turn.",
        "must_play": "Play the tile you drew: it fits.",
        "no_drawing": "These rules have no drawing.",
        "reserve": "The boneyard is down to its last {r} tiles, which are never drawn.",
        "empty": "The boneyard is empty.",
        "stuck_only": "You may draw only when no tile fits.",
        "holds": "You hold a tile that fits.",
        "must_draw": "You must draw while the boneyard allows it.",
        "come_back": "{name} has {s} s to come back before the table stops.",
        "to_move": "{name} has {s} s to move before the table stops.",
        "you_move": "You have {s} s to move before the table stops for everyone.",
        "stopped_cheat": "The table stopped: {name} broke the rules ({reason}).",
        "stopped_failure": "The table stopped here: {reason}.",
        "went_out": "{winner} went out: {sum} = {points} to {winner}.",
        "blocked": "Blocked; {winner} holds the fewest pips: {sum} = {points} to {winner}.",
        "blocked_tie": "Blocked, with a tie for the fewest pips: nobody scores.",
        "pips_of": "{name}'s {pips}",
        "luck_settles": "{winner} takes the difference: {sum} = {points}.",
        "luck_nothing": "{winner} has the best net, but {sum} = {raw}: nobody records.",
        "flash_ends": "{total} at the ends",
        "flash_placed-tile": "the tile's pips",
        "flash_first-double": "the first double",
        "flash_scoring-double": "a double, {total} at the ends",
        "flash_scoring-move": "{total} at the ends",
        "flash_lucky-draw": "a drawn tile, {total} at the ends",
        "flash_penalty": "{count} drawn, no score",
    },
    "ru": {
        "not_turn": "Сейчас не ваш ход.",
        "must_play": "Положите взятую кость: она подходит.",
        "no_drawing": "В этих правилах нет добора.",
        "reserve": "На базаре последние {r} кости, их не берут.",
        "empty": "Базар пуст.",
        "stuck_only": "Брать можно, только если ходить нечем.",
        "holds": "У вас есть подходящая кость.",
        "must_draw": "Нужно брать из базара, пока это разрешено.",
        "come_back": "У игрока {name} {s} с, чтобы вернуться, иначе стол остановится.",
        "to_move": "У игрока {name} {s} с на ход, иначе стол остановится.",
        "you_move": "У вас {s} с на ход, иначе стол остановится для всех.",
        "stopped_cheat": "Стол остановлен: {name} нарушает правила ({reason}).",
        "stopped_failure": "Стол остановлен на этом компьютере: {reason}.",
        "went_out": "{winner} выходит: {sum} = {points} очк. игроку {winner}.",
        "blocked": "Рыба; меньше всех на руке у {winner}: {sum} = {points} очк. игроку {winner}.",
        "blocked_tie": "Рыба, и меньше всех на руке поровну у нескольких: очков никто не получает.",
        "pips_of": "{name} {pips}",
        "luck_settles": "{winner} забирает разницу: {sum} = {points}.",
        "luck_nothing": "Лучший итог у игрока {winner}, но {sum} = {raw}: никто не записывает.",
        "flash_ends": "сумма концов {total}",
        "flash_placed-tile": "очки выложенной кости",
        "flash_first-double": "первый дубль",
        "flash_scoring-double": "дубль, сумма концов {total}",
        "flash_scoring-move": "сумма концов {total}",
        "flash_lucky-draw": "взятая кость, сумма концов {total}",
        "flash_penalty": "взято {count}, без очков",
    },
}


def _reason(key: str, lang: str, **values: object) -> str:
    return _REASONS["ru" if lang == "ru" else "en"][key].format(**values)


def play_ends(line: Line) -> dict[str, Place | None]:
    """The open places a page command may name, by end: a line's "left"/"right", a shape's
    rays ("A"–"D", "T0"–"T3", "TC", …)."""
    if isinstance(line, Board):
        return shape_ends(line)
    return chain(line)[1]


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


def score_flash(notes: Sequence[TurnNote], lang: str) -> list[dict[str, Any]]:
    """What the last move scored, for the page's flash: "+2: 10 at the ends" per scoring note
    (and "−10: 2 drawn, no score" for a Threes-for-luck penalty)."""
    flashes = []
    for note in notes:
        if note.kind == "score":
            why = _reason(f"flash_{note.why}", lang, total=note.total)
            text = f"+{note.points}: {why}"
        elif note.kind == "penalty":
            text = f"−{note.points}: " + _reason("flash_penalty", lang, count=note.count)
        else:
            continue
        flashes.append({"seat": note.seat, "kind": note.kind, "points": note.points, "text": text})
    return flashes


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
        draw_reason = pass_reason = _reason("not_turn", lang)
    else:
        if not can_draw:
            if rules.drawing is Drawing.NEVER:
                draw_reason = _reason("no_drawing", lang)
            elif view.boneyard_size <= rules.reserve:  # the reserve is at most what is left
                why = "reserve" if view.boneyard_size else "empty"
                draw_reason = _reason(why, lang, r=view.boneyard_size)
            else:
                draw_reason = _reason("stuck_only", lang)
        if not can_pass:
            pass_reason = (
                _reason("holds", lang) if view.legal_plays() else _reason("must_draw", lang)
            )
    return {
        "can_draw": can_draw,
        "draw_reason": draw_reason,
        "can_pass": can_pass,
        "pass_reason": pass_reason,
    }


@dataclass
class TableProgress:
    """What the page shows beside the session's state: progress, waiting, alerts, the log."""

    shuffles_done: int = 0
    shuffles_total: int = 0
    last_shuffler: str = ""
    waiting_for: str = ""
    waiting_seconds: float = 0.0
    alert: str = ""
    log: list[str] = field(default_factory=list)
    history: list[list[int]] = field(default_factory=list)
    last_result: HandResult | None = None
    last_hands: list[list[str]] = field(default_factory=list)
    last_hand_number: int = 0
    match_over: bool = False
    match_winner: int | None = None
    match_draw: bool = False
    match_outcome: MatchOutcome | None = None
    """The match's end as the engine decided it (its pair and title under Kozel)."""
    sheet: list[SheetRow] = field(default_factory=list)
    """Kozel: every audited hand with the pairs' totals after it (the «Мы / Они» sheet)."""
    presence: Presence | None = None
    """Connections, turns and whom we wait for, as the runtime last reported them."""
    next_hand: int = 0
    """The hand a pause between hands leads to (0: no pause)."""
    next_hand_left: float = 0.0
    """Seconds left of that pause as of the snapshot."""
    next_hand_ready: bool = False
    """This player said they are ready (or the pause ran out)."""
    final_line: list[dict[str, Any]] = field(default_factory=list)
    final_description: str = ""
    final_shape: dict[str, Any] | None = None
    """A shape's board (`board_shape.shape_json`) of that last hand, None on a line."""
    """The last hand's board, kept on screen until the next hand's tiles are dealt."""
    failure: str = ""
    """Why this peer could not go on (a PeerFailure), once the table has stopped for it."""
    verdict: tuple[int, str] | None = None
    """Another seat stopped the table because a seat stalled (its signed notice): that seat,
    and the sentence every peer shows (`net/verdict.py`)."""
    resumable: bool = False
    """The data directory still holds this table unfinished (the lobby may resume it)."""
    last_action: dict[str, Any] | None = None
    """The hand's most recent move (seat, kind, tile, value), or None."""
    recent_actions: list[dict[str, Any]] = field(default_factory=list)
    """The hand's last few moves, oldest first, each with its serial number."""
    action_serial: int = 0
    """How many moves this peer has seen (the serial of the latest)."""
    last_score: list[dict[str, Any]] = field(default_factory=list)
    """What the hand's last scoring move scored (`score_flash` items), [] before one."""
    last_score_serial: int = 0
    """The serial of that move."""


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
        "resume_table": session.transcript.table_id.hex() if progress.resumable else None,
        "alert": progress.alert,
        "log": progress.log[-60:],
        "end": _end_json(progress, lang, names, seat),
        "sheet": sheet_json(session.rules, seat or 0, progress.sheet, names, lang, session.players),
        "pairs": session.rules.pairs,  # Kozel: partners opposite (the partner's badge)
        "match": {
            "over": progress.match_over,
            "winner": progress.match_winner,
            "draw": progress.match_draw,
            **_pairs_match_json(progress, session, names, lang),
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
            "text": _reason(key, lang, name=names[stall.seat], s=left),
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
    if blame is not None:
        name = names[blame.seat]
        if blame.code == "stall":  # the sentence every peer shows (net/verdict.py)
            text = verdict_line(name, blame.expected, lang, is_lottery_stall(blame))
            reason = "stall"
        else:
            text = _reason("stopped_cheat", lang, name=name, reason=blame.reason)
            reason = "cheat"
        return {"reason": reason, "seat": blame.seat, "name": name, "text": text, "next": steps}
    if progress.verdict is not None:  # told by another seat: the same sentence as there
        seat, text = progress.verdict
        name = names[seat]
        return {"reason": "stall", "seat": seat, "name": name, "text": text, "next": steps}
    if progress.failure:
        text = _reason("stopped_failure", lang, reason=progress.failure)
        return {"reason": "failure", "seat": None, "name": "", "text": text, "next": steps}
    return None


def code_json(code: TableCode | None) -> dict[str, Any] | None:
    """The table code for the page: words in each language, and digits (None before setup)."""
    if code is None:
        return None
    return {"en": list(code.words("en")), "ru": list(code.words("ru")), "digits": code.digits}


def seat_scores(rules: Rules, scores: Sequence[int], players: int) -> list[int]:
    """Each seat's match total: with partners (Kozel) a seat shows its pair's."""
    if rules.pairs and len(scores) == 2:
        return [scores[seat % 2] for seat in range(players)]
    return list(scores)


def result_words(result: HandResult, names: Sequence[str], lang: str) -> str:
    """The hand's points in words, with names: "Ann went out: Bob's 8 + bot-1's 20 = 28 to Ann."
    (empty for an unfinished hand); the engine's sentence when the points are not that plain
    sum (a void hand, house scoring)."""
    if result.end is HandEnd.UNFINISHED:
        return ""
    if result.during_play is not None:  # Fives, Threes, Threes for luck: not a pip sum
        return _during_play_words(result, names, lang)
    winner = result.winner
    if result.seat_pips:  # partners (Kozel): the engine names the pairs
        return result_text(result, lang, names)
    if result.end is HandEnd.BLOCK and winner is None and not any(result.points):
        return _reason("blocked_tie", lang)
    if winner is None or result.end not in (HandEnd.DOMINO, HandEnd.BLOCK):
        return result_text(result, lang, names)
    others = sum(p for seat, p in enumerate(result.pips) if seat != winner)
    own = result.pips[winner] if result.end is HandEnd.BLOCK else 0
    if result.points[winner] != others - own or any(
        p for seat, p in enumerate(result.points) if seat != winner
    ):
        return result_text(result, lang, names)
    parts = [
        _reason("pips_of", lang, name=names[seat], pips=pips)
        for seat, pips in enumerate(result.pips)
        if seat != winner
    ]
    total = " + ".join(parts)
    key = "went_out"
    if result.end is HandEnd.BLOCK:
        key = "blocked"
        total += " − " + _reason("pips_of", lang, name=names[winner], pips=result.pips[winner])
    return _reason(key, lang, winner=names[winner], sum=total, points=result.points[winner])


def _during_play_words(result: HandResult, names: Sequence[str], lang: str) -> str:
    """A hand scored during play: the engine's sentence (how it ended, bonuses, points), and
    under Threes for luck the settlement's arithmetic: the winner takes the difference."""
    text = result_text(result, lang, names)
    if result.scoring is not HandScoring.LUCK_SETTLEMENT:
        return text
    winner = result.winner
    if winner is None:
        return text
    nets = result.points
    terms = [str(nets[winner])] + [
        f"(−{-n})" if n < 0 else str(n) for seat, n in enumerate(nets) if seat != winner
    ]
    arithmetic = " − ".join(terms)
    raw = nets[winner] - sum(n for seat, n in enumerate(nets) if seat != winner)
    key = "luck_settles" if raw > 0 else "luck_nothing"
    settled = result.settlement[winner] if result.settlement else max(0, raw)
    return f"{text} " + _reason(
        key, lang, winner=names[winner], sum=arithmetic, points=settled, raw=raw
    )


def _pairs_match_json(
    progress: TableProgress, session: TableSession, names: Sequence[str], lang: str
) -> dict[str, Any]:
    """Under Kozel: the match's end in the engine's words (the goat pair and its title)."""
    outcome = progress.match_outcome
    if outcome is None or not outcome.pairs:
        return {}
    return {
        "pairs": True,
        "losers": list(outcome.losers),
        "title": outcome.title,
        "text": match_text(outcome, session.scores, lang, names),
    }


def _end_json(
    progress: TableProgress, lang: str, names: Sequence[str] = (), seat: int | None = None
) -> dict[str, Any] | None:
    result = progress.last_result
    if result is None:
        return None
    if result.seat_pips:  # Kozel: the pairs' amounts, each seat shown with its pair's
        words = result_text(result, lang, names, seat)  # (a fish's totals: the sheet's order)
        return {
            "words": words,
            "text": words,
            "hand_number": progress.last_hand_number,
            "end": result.end.value,
            "pairs": True,
            "winner": result.winner,
            "points": [result.points[seat % 2] for seat in range(len(result.seat_pips))],
            "pips": list(result.seat_pips),
            "pair_points": list(result.points),
            "pair_pips": list(result.pips),
            "ceremonies": list(result.ceremonies),
            "ceremony_text": ceremonies_text(result, lang, names).strip(),
            "title": result.title,
            "arithmetic": result.arithmetic(),
            "hands": progress.last_hands,
            "audit": "clean",
        }
    return {
        "words": result_words(result, names, lang) if names else "",
        "text": result_text(result, lang, names),
        "hand_number": progress.last_hand_number,
        "end": result.end.value,
        "winner": result.winner,
        "points": list(result.points),
        "pips": list(result.pips),
        "arithmetic": result.arithmetic() if result.end is not HandEnd.UNFINISHED else "",
        "during_play": result.during_play is not None,
        "recorded": list(result.recorded),
        "hands": progress.last_hands,
        "audit": "clean",
    }


def host_lobby_snapshot(state: LobbyState | None, now: float) -> dict[str, Any] | None:
    """The host's own table before the start: seats (removable) and who asks for a seat.

    Names were cleaned (peer_text) by the lobby; the page still shows them as text only.
    `now` is the admission clock's time, for the seconds each request has left.
    """
    if state is None:
        return None
    return {
        "table": state.table,
        "players": state.players,
        "pairs": state.pairs,
        "seats": [
            {"seat": s.seat, "name": s.name, "fingerprint": s.fingerprint, "bot": s.bot}
            for s in state.seats
        ],
        "pending": [
            {
                "number": r.number,
                "name": r.name,
                "fingerprint": r.key.fingerprint,
                "short": r.key.short_fingerprint,
                "source": r.source,
                "seconds": max(0, round(r.deadline - now)),
            }
            for r in state.pending
        ],
        # The join code beside the table (the person reads it out): words in both languages.
        "code": None
        if state.code is None
        else {
            "en": join_code_words(state.code, "en"),
            "ru": join_code_words(state.code, "ru"),
            "digits": join_code_digits(state.code),
        },
    }
