"""The board described in words (English and Russian), for accessible text and records.

The words are the catalogues' (p2p_dominoes/words, keys ``engine.*``); this module puts them
together: which sentence, which names and numbers in it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from p2p_dominoes import words
from p2p_dominoes.engine.actions import Action, Draw, Play, Skip
from p2p_dominoes.engine.board import COMMON, Board
from p2p_dominoes.engine.line import TRAIN_PORTS, Line, Place, Side
from p2p_dominoes.engine.rules import Goal, HandScoring, Rules
from p2p_dominoes.engine.scoring import HandEnd, HandResult, MatchOutcome
from p2p_dominoes.engine.tiles import Tile
from p2p_dominoes.engine.turns import TurnNote
from p2p_dominoes.engine.words import LANGUAGES as LANGUAGES
from p2p_dominoes.engine.words import check_lang

_SIDES: Final[dict[Side, str]] = {
    Side.HIGH: "engine.board.high_end",
    Side.LOW: "engine.board.low_end",
    Side.A: "engine.board.side_a",
    Side.B: "engine.board.side_b",
    Side.C: "engine.board.end_c",
    Side.D: "engine.board.end_d",
}
"""The catalogue key of each end or side that is not a train."""

_ENDS: Final[dict[Side, str]] = {Side.A: "engine.board.end_a", Side.B: "engine.board.end_b"}
"""The sides of a double laid along the line, which are its ends."""

_STATES: Final[dict[str, str]] = {
    "open": "engine.board.open",
    "private": "engine.board.private",
    "started": "engine.board.open",
    "not-started": "engine.board.not_started",
}
"""A train's state in words."""


def side_name(side: Side, lang: str = "en") -> str:
    """The words for an end or side: "low end", "side A", "end C",
    "train of seat 1" … (seats counted from 1, as people read them; records count from 0)."""
    check_lang(lang)
    if side in _SIDES:
        return words.line(_SIDES[side], lang)
    if side is Side.TC:
        return words.line("engine.board.common_train", lang)
    return words.line("engine.board.train", lang, seat=TRAIN_PORTS.index(side) + 1)


def describe(line: Line, lang: str = "en", end_total: bool = False) -> str:
    """Tiles in play order, connections in the order made, open places sorted by tile; then
    places closed for good, and the end total when a rule reads it. Trains name their seats
    counted from 1, like every other text a person reads."""
    check_lang(lang)
    none = words.line("engine.board.none", lang)

    def part(tile: Tile, side: Side) -> str:
        if tile.is_double and line.lies_along(tile) and side in _ENDS:
            return words.line(_ENDS[side], lang)
        return side_name(side, lang)

    tiles = ", ".join(t.text for t in line.tiles) or none
    connections = (
        "; ".join(
            f"{c.table_tile.text} ({part(c.table_tile, c.table_side)}) – "
            f"{c.new_tile.text} ({part(c.new_tile, c.new_side)})"
            for c in line.connections
        )
        or none
    )
    places = (
        "; ".join(
            f"{p.tile.text} ({part(p.tile, p.side)}, {p.value})" for p in line.sorted_places()
        )
        or none
    )
    text = (
        f"{words.line('engine.board.tiles', lang)}: {tiles}. "
        f"{words.line('engine.board.connections', lang)}: {connections}."
    )
    if isinstance(line, Board) and line.trains and line.tiles:
        states = "; ".join(
            f"{_train_owner(key, lang)} — {words.line(_STATES[state], lang)}"
            for key, state in line.train_states()
        )
        text += f" {words.line('engine.board.trains', lang)}: {states}."
    text += f" {words.line('engine.board.places', lang)}: {places}."
    if line.closed:
        closed = "; ".join(
            f"{p.tile.text} ({part(p.tile, p.side)}, {p.value})"
            for p in sorted(line.closed, key=Place.sort_key)
        )
        text += f" {words.line('engine.board.closed', lang)}: {closed}."
    if end_total and line.tiles:
        text += f" {words.line('engine.board.end_total', lang)}: {line.end_total()}."
    return text


def _train_owner(key: int | str, lang: str) -> str:
    """Whose train: "common", or "seat 2" (the board's keys count seats from 0)."""
    if key == COMMON:
        return words.line("engine.board.common", lang)
    return words.line("engine.seat", lang, seat=int(key) + 1)


def seat_name(seat: int, names: Sequence[str] = (), lang: str = "en") -> str:
    """What a person reads for a seat: its player's name, else "seat 1" … (one-based)."""
    check_lang(lang)
    if 0 <= seat < len(names) and names[seat]:
        return names[seat]
    return words.line("engine.seat", lang, seat=seat + 1)


def _named(seat: int, names: Sequence[str]) -> bool:
    return 0 <= seat < len(names) and bool(names[seat])


def _sentence_start(seat: int, names: Sequence[str], lang: str) -> str:
    """`seat_name`, capitalised when it is the one-based stand-in ("Seat 2 wins …")."""
    name = seat_name(seat, names, lang)
    if _named(seat, names):
        return name
    return _capital(name)


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def scores_text(scores: Sequence[int], names: Sequence[str] = ()) -> str:
    """The scores, each after its player's name when the names are known: "Ann 12, Bob 5"."""
    if len(names) == 4 and len(scores) == 2:  # partners: "Ann & Cid 12, Bob & Dan 40"
        names = [f"{names[0]} & {names[2]}", f"{names[1]} & {names[3]}"]
    if len(names) != len(scores):
        return ", ".join(map(str, scores))
    return ", ".join(f"{name} {score}" for name, score in zip(names, scores, strict=True))


def action_text(
    seat: int,
    action: Action,
    drawn: Tile | None = None,
    lang: str = "en",
    names: Sequence[str] = (),
) -> str:
    """One action in words; `drawn` shows the drawn tile (only to those allowed to see it).

    The seat is named by `names` when given, else as "seat 1" … (one-based)."""
    who = seat_name(seat, names, lang)
    if isinstance(action, Play):
        tile = action.tile.text
        place = action.place
        if place is None:
            key = "engine.play_along" if action.along else "engine.play"
            return words.line(key, lang, who=who, tile=tile)
        where = f"{place.tile.text} ({side_name(place.side, lang)})"
        key = "engine.play_along_on" if action.along else "engine.play_on"
        return words.line(key, lang, who=who, tile=tile, where=where)
    if isinstance(action, Draw):
        if drawn is None:
            return words.line("engine.draw", lang, who=who)
        return words.line("engine.draw_tile", lang, who=who, tile=drawn.text)
    if isinstance(action, Skip):
        return words.line("engine.skip", lang, who=who)
    return words.line("engine.pass", lang, who=who)


def result_text(
    result: HandResult, lang: str = "en", names: Sequence[str] = (), seat: int | None = None
) -> str:
    """How a hand ended and the arithmetic of its points, naming the winner (or, when losers
    record their own pips, who records what); `seat`: who reads it (Kozel's fish totals are
    then in that seat's Us / Them order, as its sheet)."""
    check_lang(lang)
    if result.end is HandEnd.UNFINISHED:
        if result.during_play is not None:  # Fives, Threes, Threes for luck: scored so far
            return _so_far_text(result, lang, names)
        return words.line("engine.result.unfinished", lang)
    if result.seat_pips and result.end in (HandEnd.DOMINO, HandEnd.BLOCK):  # Kozel's pairs
        from p2p_dominoes.engine.kozel_text import pairs_result_text

        return pairs_result_text(result, lang, names, seat)
    if result.end is HandEnd.VOID:
        if any(result.pips):
            return words.line("engine.result.void_blocked", lang)
        return words.line("engine.result.void_unopened", lang)
    if (
        result.scoring in (HandScoring.NONE, HandScoring.LUCK_SETTLEMENT)
        or result.move_points
        or result.bonuses
        or result.end in (HandEnd.EXHAUSTED, HandEnd.TARGET)
    ):
        return _play_points_text(result, lang, names)
    if result.scoring is not HandScoring.LEADER_TAKES:
        from p2p_dominoes.engine.kozel_text import ceremonies_text

        return (
            _penalty_text(result, lang, names)
            + _minimum_text(result, lang)
            + ceremonies_text(result, lang, names)
        )
    if result.end is HandEnd.DOMINO:
        assert result.winner is not None
        who = seat_name(result.winner, names, lang)
        return words.line("engine.result.domino", lang, who=who, sum=result.arithmetic())
    if result.winner is None:
        return words.line("engine.result.block_shared", lang)
    who = seat_name(result.winner, names, lang)
    return words.line("engine.result.block", lang, who=who, sum=result.arithmetic())


def _so_far_text(result: HandResult, lang: str, names: Sequence[str]) -> str:
    """An unfinished hand scored during play: each seat's points so far (for luck, each net
    with its wins and penalties)."""
    if len(result.points) == 2 and len(result.pips) == 4:  # partners: a pair's points
        who = [
            f"{seat_name(seat, names, lang)} & {seat_name(seat + 2, names, lang)}"
            for seat in (0, 1)
        ]
    else:
        who = [seat_name(seat, names, lang) for seat in range(len(result.points))]
    if result.scoring is HandScoring.LUCK_SETTLEMENT:
        listed = ", ".join(
            f"{name} {net:+d} ({won} − {lost})"
            for name, net, (won, lost) in zip(who, result.points, result.tallies, strict=True)
        )
        return words.line("engine.result.so_far_nets", lang, listed=listed)
    listed = ", ".join(f"{name} {points}" for name, points in zip(who, result.points, strict=True))
    return words.line("engine.result.so_far", lang, listed=listed)


def _play_points_text(result: HandResult, lang: str, names: Sequence[str]) -> str:
    """A hand scored during play (Fives, Threes, Threes for luck): how it ended, the bonuses,
    and each seat's points (for luck: each net and what the winner records)."""
    if result.end is HandEnd.DOMINO and result.closer is not None:
        who = seat_name(result.closer, names, lang)
        head = words.line("engine.points.domino", lang, who=who)
    elif result.end is HandEnd.EXHAUSTED:
        head = words.line("engine.points.exhausted", lang)
    elif result.end is HandEnd.TARGET and result.winner is not None:
        who = seat_name(result.winner, names, lang)
        head = _capital(words.line("engine.points.target", lang, who=who))
    else:
        head = words.line("engine.points.block", lang)
    parts = [head]
    for seat, bonus in enumerate(result.bonuses):
        if bonus:
            who = seat_name(seat, names, lang)
            parts.append(words.line("engine.points.bonus", lang, bonus=bonus, who=who))
    listed = ", ".join(
        f"{seat_name(seat, names, lang)} {points:+d}"
        if result.scoring is HandScoring.LUCK_SETTLEMENT
        else f"{seat_name(seat, names, lang)} {points}"
        for seat, points in enumerate(result.points)
    )
    if result.scoring is HandScoring.LUCK_SETTLEMENT:
        parts.append(words.line("engine.points.nets", lang, listed=listed))
        if result.winner is None:
            parts.append(words.line("engine.points.shared", lang))
        else:
            who = seat_name(result.winner, names, lang)
            paid = result.settlement[result.winner]
            parts.append(words.line("engine.points.wins", lang, who=who, paid=paid))
    else:
        parts.append(words.line("engine.points.points", lang, listed=listed))
    return "; ".join(parts) + "."


def _seats_text(seats: Sequence[int], names: Sequence[str], lang: str) -> str:
    listed = [seat_name(s, names, lang) for s in seats]
    if len(listed) < 2:
        return "".join(listed)
    return words.line("engine.seats_and", lang, seats=", ".join(listed[:-1]), last=listed[-1])


def _penalty_text(result: HandResult, lang: str, names: Sequence[str]) -> str:
    """A hand where the losers record their own pips: who went out, who records what."""
    recorders = result.recorders
    if recorders:
        what = _seats_text(recorders, names, lang)
        writes = words.plural(
            "engine.penalty.records", len(recorders), lang, who=what, sum=result.arithmetic()
        )
    else:
        writes = words.line("engine.nobody_records", lang)
    if result.end is HandEnd.DOMINO:
        assert result.closer is not None
        who = seat_name(result.closer, names, lang)
        return words.line("engine.penalty.domino", lang, who=who, writes=writes)
    if result.winner is None:
        return words.line("engine.penalty.shared", lang, writes=writes)
    who = seat_name(result.winner, names, lang)
    return words.line("engine.penalty.block", lang, who=who, writes=writes)


def _minimum_text(result: HandResult, lang: str) -> str:
    """The amounts the minimum to record dropped, and what rounding made of the rest."""
    out = ""
    amounts = result.amounts or result.points
    dropped = [a for a, p in zip(amounts, result.points, strict=True) if a and not p]
    rounded = [(a, p) for a, p in zip(amounts, result.points, strict=True) if p and a != p]
    if rounded:
        pairs = ", ".join(f"{a} → {p}" for a, p in rounded)
        out += " " + words.line("engine.minimum.rounded", lang, pairs=pairs)
    if dropped:
        listed = ", ".join(map(str, dropped))
        out += " " + words.line("engine.minimum.dropped", lang, listed=listed)
    return out


def match_text(
    outcome: MatchOutcome, scores: Sequence[int], lang: str = "en", names: Sequence[str] = ()
) -> str:
    """The state of the match after a hand, naming the winner (and the losers who reached a
    target that loses) once it is over."""
    if outcome.pairs:  # Kozel: "us and them", the goat pair and its title
        from p2p_dominoes.engine.kozel_text import pairs_match_text

        return pairs_match_text(outcome, scores, lang, names)
    check_lang(lang)
    listed = scores_text(scores, names)
    if not outcome.over:
        return words.line("engine.match.scores", lang, listed=listed)
    lost = ""
    if outcome.losers:
        who = _seats_text(outcome.losers, names, lang)
        lost = _capital(words.plural("engine.match.losers", len(outcome.losers), lang, who=who))
        lost += " "
    if outcome.winner is None:
        return lost + words.line("engine.match.drawn", lang, listed=listed)
    who = seat_name(outcome.winner, names, lang)
    won = words.line("engine.match.won", lang, who=who, listed=listed)
    if not _named(outcome.winner, names) and won.startswith(who):
        won = _capital(won)  # "Seat 2 wins …" (a name stays as it is)
    return lost + won


def hands_played_text(hands: int, max_hands: int, lang: str = "en") -> str:
    """ "Match finished after 2 of 2 hands": a match that ended after its agreed hands."""
    check_lang(lang)
    return words.plural("engine.match.hands_played", max_hands, lang, hands=hands)


def match_length_text(
    hands: int, max_hands: int, scores: Sequence[int], lang: str = "en", names: Sequence[str] = ()
) -> str:
    """A match that ended after its agreed number of hands (nobody reached the target)."""
    return f"{hands_played_text(hands, max_hands, lang)}: {scores_text(scores, names)}."


def note_text(note: TurnNote, lang: str = "en", names: Sequence[str] = ()) -> str:
    """What a rule made happen after an action, in words (an extra turn, a forced draw, a
    closed place, a second double that may follow)."""
    who = seat_name(note.seat, names, lang)
    if note.kind == "extra_turn":
        return words.line("engine.note.extra_turn", lang, total=note.total, who=who)
    if note.kind == "forced_draw":
        return words.line(
            "engine.note.forced_draw", lang, total=note.total, who=who, count=note.count
        )
    start = _sentence_start(note.seat, names, lang)
    if note.kind == "score":
        return _score_note(note, start, lang)
    if note.kind == "penalty":
        return words.plural("engine.note.penalty", note.points, lang, who=start, count=note.count)
    if note.kind == "closed":
        assert note.place is not None
        return words.line("engine.note.closed", lang, tile=note.place.tile.text)
    return words.line("engine.note.second_double", lang, who=start)


_SCORE_REASONS: Final[dict[str, str]] = {
    "ends": "engine.reason.ends",
    "placed-tile": "engine.reason.placed_tile",
    "first-double": "engine.reason.first_double",
    "scoring-double": "engine.reason.scoring_double",
    "scoring-move": "engine.reason.scoring_move",
    "lucky-draw": "engine.reason.lucky_draw",
}
"""Why a move scored (`TurnNote.why`, by `move_scoring`): its words' catalogue key."""


def _score_note(note: TurnNote, who: str, lang: str) -> str:
    """ "+2: 10 at the ends" with the scorer's name; the reason per `move_scoring`."""
    key = _SCORE_REASONS.get(note.why)
    why = note.why if key is None else words.line(key, lang, total=note.total)
    return words.line("engine.note.score", lang, who=who, points=note.points, why=why)


def goal_text(rules: Rules, players: int, lang: str = "en") -> str:
    """The match's goal in words: "Whoever reaches 101 loses." …"""
    check_lang(lang)
    if rules.goal is Goal.FIXED_HANDS:
        return words.plural("engine.goal.hands", rules.hands_limit, lang)
    target = rules.target(players)
    if rules.goal is Goal.REACH_LOSES:
        return words.line("engine.goal.reach_loses", lang, target=target)
    return words.line("engine.goal.first_to", lang, target=target)
