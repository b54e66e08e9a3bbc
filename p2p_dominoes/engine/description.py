"""The board described in words (English and Russian), for accessible text and records."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from p2p_dominoes.engine.actions import Action, Draw, Play, Skip
from p2p_dominoes.engine.board import COMMON, Board
from p2p_dominoes.engine.errors import InvalidRecord
from p2p_dominoes.engine.line import TRAIN_PORTS, Line, Place, Side
from p2p_dominoes.engine.rules import Goal, HandScoring, Rules
from p2p_dominoes.engine.scoring import HandEnd, HandResult, MatchOutcome
from p2p_dominoes.engine.tiles import Tile
from p2p_dominoes.engine.turns import TurnNote


@dataclass(frozen=True)
class _Wording:
    tiles: str
    connections: str
    places: str
    none: str
    sides: dict[Side, str]
    ends: dict[Side, str]
    closed: str
    end_total: str
    train: str
    common: str
    trains: str
    seat: str
    states: dict[str, str]
    common_name: str


_WORDINGS: Final[dict[str, _Wording]] = {
    "en": _Wording(
        tiles="Tiles",
        connections="Connections",
        places="Open places",
        none="none",
        sides={
            Side.HIGH: "high end",
            Side.LOW: "low end",
            Side.A: "side A",
            Side.B: "side B",
            Side.C: "end C",
            Side.D: "end D",
        },
        ends={Side.A: "end A", Side.B: "end B"},
        closed="Closed places",
        end_total="End total",
        train="train of seat {seat}",
        common="common train",
        trains="Trains",
        seat="seat {seat}",
        states={
            "open": "open to all",
            "private": "private",
            "started": "open to all",
            "not-started": "not started",
        },
        common_name="common",
    ),
    "ru": _Wording(
        tiles="Кости",
        connections="Соединения",
        places="Допустимые места продолжения",
        none="нет",
        sides={
            Side.HIGH: "конец с большим значением",
            Side.LOW: "конец с меньшим значением",
            Side.A: "линия A",
            Side.B: "линия B",
            Side.C: "конец C",
            Side.D: "конец D",
        },
        ends={Side.A: "конец A", Side.B: "конец B"},
        closed="Закрытые места",
        end_total="Сумма концов",
        train="поезд места {seat}",
        common="общий поезд",
        trains="Поезда",
        seat="место {seat}",
        states={
            "open": "открыт всем",
            "private": "закрыт",
            "started": "открыт всем",
            "not-started": "не начат",
        },
        common_name="общий",
    ),
}

LANGUAGES: Final = tuple(_WORDINGS)


def side_name(side: Side, lang: str = "en") -> str:
    """The words for an end or side: "low end", "side A", "конец с меньшим значением",
    "train of seat 1" … (seats counted from 1, as people read them; records count from 0)."""
    w = _wording(lang)
    if side in w.sides:
        return w.sides[side]
    if side is Side.TC:
        return w.common
    return w.train.format(seat=TRAIN_PORTS.index(side) + 1)


def describe(line: Line, lang: str = "en", end_total: bool = False) -> str:
    """Tiles in play order, connections in the order made, open places sorted by tile; then
    places closed for good, and the end total when a rule reads it. Trains name their seats
    counted from 1, like every other text a person reads."""
    w = _wording(lang)

    def part(tile: Tile, side: Side) -> str:
        if tile.is_double and line.lies_along(tile) and side in w.ends:
            return w.ends[side]
        if side in w.sides:
            return w.sides[side]
        return side_name(side, lang)

    tiles = ", ".join(t.text for t in line.tiles) or w.none
    connections = (
        "; ".join(
            f"{c.table_tile.text} ({part(c.table_tile, c.table_side)}) – "
            f"{c.new_tile.text} ({part(c.new_tile, c.new_side)})"
            for c in line.connections
        )
        or w.none
    )
    places = (
        "; ".join(
            f"{p.tile.text} ({part(p.tile, p.side)}, {p.value})" for p in line.sorted_places()
        )
        or w.none
    )
    text = f"{w.tiles}: {tiles}. {w.connections}: {connections}."
    if isinstance(line, Board) and line.trains and line.tiles:
        states = "; ".join(
            f"{w.common_name if key == COMMON else w.seat.format(seat=int(key) + 1)} — "
            f"{w.states[state]}"
            for key, state in line.train_states()
        )
        text += f" {w.trains}: {states}."
    text += f" {w.places}: {places}."
    if line.closed:
        closed = "; ".join(
            f"{p.tile.text} ({part(p.tile, p.side)}, {p.value})"
            for p in sorted(line.closed, key=Place.sort_key)
        )
        text += f" {w.closed}: {closed}."
    if end_total and line.tiles:
        text += f" {w.end_total}: {line.end_total()}."
    return text


def _wording(lang: str) -> _Wording:
    try:
        return _WORDINGS[lang]
    except KeyError:
        raise InvalidRecord(f"unknown language {lang!r} (languages: en, ru)") from None


def seat_name(seat: int, names: Sequence[str] = (), lang: str = "en") -> str:
    """What a person reads for a seat: its player's name, else "seat 1" … (one-based)."""
    if 0 <= seat < len(names) and names[seat]:
        return names[seat]
    return f"место {seat + 1}" if _is_ru(lang) else f"seat {seat + 1}"


def _is_ru(lang: str) -> bool:
    return _wording(lang) is _WORDINGS["ru"]


def _sentence_start(seat: int, names: Sequence[str], lang: str) -> str:
    """`seat_name`, capitalised when it is the one-based stand-in ("Seat 2 wins …")."""
    name = seat_name(seat, names, lang)
    if 0 <= seat < len(names) and names[seat]:
        return name
    return name[:1].upper() + name[1:]


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
    ru = _is_ru(lang)
    who = seat_name(seat, names, lang)
    if isinstance(action, Play):
        verb = "кладёт" if ru else "plays"
        lie = (" вдоль" if ru else " along") if action.along else ""
        if action.place is None:
            return f"{who} {verb} {action.tile.text}{lie}"
        on = "к" if ru else "on"
        place = action.place
        where = f"{place.tile.text} ({side_name(place.side, lang)})"
        return f"{who} {verb} {action.tile.text}{lie} {on} {where}"
    if isinstance(action, Draw):
        verb = "берёт из базара" if ru else "draws"
        return f"{who} {verb}" + (f" {drawn.text}" if drawn is not None else "")
    if isinstance(action, Skip):
        return f"{who} " + ("не кладёт второй дубль" if ru else "lays no second double")
    return f"{who} " + ("пропускает ход" if ru else "passes")


def result_text(
    result: HandResult, lang: str = "en", names: Sequence[str] = (), seat: int | None = None
) -> str:
    """How a hand ended and the arithmetic of its points, naming the winner (or, when losers
    record their own pips, who records what); `seat`: who reads it (Kozel's fish totals are
    then in that seat's Us / Them order, as its sheet)."""
    ru = _is_ru(lang)
    if result.end is HandEnd.UNFINISHED:
        if result.during_play is not None:  # Fives, Threes, Threes for luck: scored so far
            return _so_far_text(result, lang, names)
        return "Сдача не окончена." if ru else "The hand is unfinished."
    if result.seat_pips and result.end in (HandEnd.DOMINO, HandEnd.BLOCK):  # Kozel's pairs
        from p2p_dominoes.engine.kozel_text import pairs_result_text

        return pairs_result_text(result, lang, names, seat)
    if result.end is HandEnd.VOID:
        if ru:
            return (
                "Сдача пересдаётся: рыба не засчитывается."
                if result.pips != (0,) * len(result.pips)
                else "Сдача пересдаётся: зайти некому."
            )
        if any(result.pips):
            return "The hand is redealt: blocked hands do not count."
        return "The hand is redealt: nobody could open it."
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
        if ru:
            return f"Домино: {who} выкладывает последнюю кость, {result.arithmetic()}."
        return f"Domino by {who}: {result.arithmetic()}."
    if result.winner is None:
        if ru:
            return "Блокировка: наименьшая сумма разделена, никто не получает очков."
        return "Block: the lowest total is shared, nobody scores."
    who = seat_name(result.winner, names, lang)
    if ru:
        return (
            f"Блокировка: наименьшая сумма только у одного игрока — {who}, {result.arithmetic()}."
        )
    return f"Block: {who} has the single lowest total, {result.arithmetic()}."


def _so_far_text(result: HandResult, lang: str, names: Sequence[str]) -> str:
    """An unfinished hand scored during play: each seat's points so far (for luck, each net
    with its wins and penalties)."""
    ru = _is_ru(lang)
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
        if ru:
            return f"Сдача не окончена; итог на сейчас (выигрыш − штраф): {listed}."
        return f"The hand is unfinished; nets so far (wins − penalties): {listed}."
    listed = ", ".join(f"{name} {points}" for name, points in zip(who, result.points, strict=True))
    if ru:
        return f"Сдача не окончена; очки за партию на сейчас: {listed}."
    return f"The hand is unfinished; points this hand so far: {listed}."


def _play_points_text(result: HandResult, lang: str, names: Sequence[str]) -> str:
    """A hand scored during play (Fives, Threes, Threes for luck): how it ended, the bonuses,
    and each seat's points (for luck: each net and what the winner records)."""
    ru = _is_ru(lang)
    if result.end is HandEnd.DOMINO and result.closer is not None:
        who = seat_name(result.closer, names, lang)
        head = f"Домино: {who} выкладывает последнюю кость" if ru else f"Domino by {who}"
    elif result.end is HandEnd.EXHAUSTED:
        head = "Базар исчерпан, партия окончена" if ru else "The boneyard ran out: the hand ends"
    elif result.end is HandEnd.TARGET and result.winner is not None:
        who = seat_name(result.winner, names, lang)
        head = f"{who} набирает цель по ходу партии" if ru else f"{who} reached the target in play"
        head = head[:1].upper() + head[1:]
    else:
        head = "Рыба" if ru else "Block"
    parts = [head]
    for seat, bonus in enumerate(result.bonuses):
        if bonus:
            who = seat_name(seat, names, lang)
            parts.append(f"надбавка +{bonus}: {who}" if ru else f"bonus +{bonus} to {who}")
    listed = ", ".join(
        f"{seat_name(seat, names, lang)} {points:+d}"
        if result.scoring is HandScoring.LUCK_SETTLEMENT
        else f"{seat_name(seat, names, lang)} {points}"
        for seat, points in enumerate(result.points)
    )
    if result.scoring is HandScoring.LUCK_SETTLEMENT:
        parts.append(
            f"итог (выигрыш − штраф): {listed}" if ru else f"nets (wins − penalties): {listed}"
        )
        if result.winner is None:
            parts.append(
                "лучший итог разделён, никто не записывает"
                if ru
                else "the best net is shared, nobody records"
            )
        else:
            who = seat_name(result.winner, names, lang)
            paid = result.settlement[result.winner]
            parts.append(
                f"побеждает {who} и записывает {paid}" if ru else f"{who} wins and records {paid}"
            )
    else:
        parts.append(f"очки за партию: {listed}" if ru else f"points this hand: {listed}")
    return "; ".join(parts) + "."


def _seats_text(seats: Sequence[int], names: Sequence[str], lang: str) -> str:
    listed = [seat_name(s, names, lang) for s in seats]
    if len(listed) < 2:
        return "".join(listed)
    joint = " и " if _is_ru(lang) else " and "
    return ", ".join(listed[:-1]) + joint + listed[-1]


def _penalty_text(result: HandResult, lang: str, names: Sequence[str]) -> str:
    """A hand where the losers record their own pips: who went out, who records what."""
    ru = _is_ru(lang)
    recorders = result.recorders
    amounts = result.amounts or result.points
    if recorders:
        what = _seats_text(recorders, names, lang)
        sum_text = result.arithmetic()
        writes = (
            (
                f"{what} записывает {sum_text}"
                if len(recorders) == 1
                else f"{what} записывают {sum_text}"
            )
            if ru
            else f"{what} record{'s' if len(recorders) == 1 else ''} {sum_text}"
        )
    else:
        writes = "никто ничего не записывает" if ru else "nobody records anything"
    del amounts
    if result.end is HandEnd.DOMINO:
        assert result.closer is not None
        who = seat_name(result.closer, names, lang)
        if ru:
            return f"Домино: {who} выкладывает последнюю кость; {writes}."
        return f"Domino by {who}: {writes}."
    if result.winner is None:
        if ru:
            return f"Рыба: наименьшая сумма разделена; {writes}."
        return f"Block: the lowest total is shared; {writes}."
    who = seat_name(result.winner, names, lang)
    if ru:
        return f"Рыба: меньше всего очков — {who}; {writes}."
    return f"Block: {who} has the single lowest total; {writes}."


def _minimum_text(result: HandResult, lang: str) -> str:
    """The amounts the minimum to record dropped, and what rounding made of the rest."""
    ru = _is_ru(lang)
    out = ""
    amounts = result.amounts or result.points
    dropped = [a for a, p in zip(amounts, result.points, strict=True) if a and not p]
    rounded = [(a, p) for a, p in zip(amounts, result.points, strict=True) if p and a != p]
    if rounded:
        pairs = ", ".join(f"{a} → {p}" for a, p in rounded)
        out += f" Округление: {pairs}." if ru else f" Rounded: {pairs}."
    if dropped:
        listed = ", ".join(map(str, dropped))
        out += (
            f" Меньше минимума не пишут: {listed}."
            if ru
            else f" Under the minimum, not recorded: {listed}."
        )
    return out


def match_text(
    outcome: MatchOutcome, scores: Sequence[int], lang: str = "en", names: Sequence[str] = ()
) -> str:
    """The state of the match after a hand, naming the winner (and the losers who reached a
    target that loses) once it is over."""
    if outcome.pairs:  # Kozel: "us and them", the goat pair and its title
        from p2p_dominoes.engine.kozel_text import pairs_match_text

        return pairs_match_text(outcome, scores, lang, names)
    ru = _is_ru(lang)
    listed = scores_text(scores, names)
    if not outcome.over:
        return f"Счёт: {listed}." if ru else f"Scores: {listed}."
    lost = ""
    if outcome.losers:
        who = _seats_text(outcome.losers, names, lang)
        if ru:
            verb = (
                "доходит до цели и проигрывает"
                if len(outcome.losers) == 1
                else ("доходят до цели и проигрывают")
            )
            lost = f"{who} {verb}. "
        else:
            lost = f"{who} reached the target and lost. "
        lost = lost[:1].upper() + lost[1:]
    if outcome.winner is None:
        return lost + (
            f"Матч окончен вничью: {listed}." if ru else f"The match is drawn: {listed}."
        )
    if ru:
        return lost + f"Матч выигрывает {seat_name(outcome.winner, names, lang)}: {listed}."
    return lost + f"{_sentence_start(outcome.winner, names, lang)} wins the match: {listed}."


def hands_played_text(hands: int, max_hands: int, lang: str = "en") -> str:
    """ "Match finished after 2 of 2 hands": a match that ended after its agreed hands."""
    if _is_ru(lang):
        word = "сдачи" if max_hands % 10 == 1 and max_hands % 100 != 11 else "сдач"
        return f"Матч окончен после {hands} из {max_hands} {word}"
    word = "hand" if max_hands == 1 else "hands"
    return f"Match finished after {hands} of {max_hands} {word}"


def match_length_text(
    hands: int, max_hands: int, scores: Sequence[int], lang: str = "en", names: Sequence[str] = ()
) -> str:
    """A match that ended after its agreed number of hands (nobody reached the target)."""
    return f"{hands_played_text(hands, max_hands, lang)}: {scores_text(scores, names)}."


def note_text(note: TurnNote, lang: str = "en", names: Sequence[str] = ()) -> str:
    """What a rule made happen after an action, in words (an extra turn, a forced draw, a
    closed place, a second double that may follow)."""
    ru = _is_ru(lang)
    who = seat_name(note.seat, names, lang)
    if note.kind == "extra_turn":
        if ru:
            return f"Сумма концов {note.total}: {who} ходит ещё раз."
        return f"The ends total {note.total}: {who} moves again."
    if note.kind == "forced_draw":
        if ru:
            return f"Сумма концов {note.total}: {who} сначала берёт из базара {note.count}."
        return f"The ends total {note.total}: {who} must first draw {note.count}."
    if note.kind == "score":
        return _score_note(note, _sentence_start(note.seat, names, lang), lang)
    if note.kind == "penalty":
        who = _sentence_start(note.seat, names, lang)
        if ru:
            return (
                f"{who}: штраф {note.points} — взятых из базара костей без результативного "
                f"хода: {note.count}."
            )
        return (
            f"{who}: {note.points} penalty points — drawn tiles that brought no scoring "
            f"move: {note.count}."
        )
    if note.kind == "closed":
        assert note.place is not None
        tile = note.place.tile.text
        if ru:
            return f"{tile} никто не покрыл: это место закрыто навсегда."
        return f"Nobody covered {tile}: that place is closed for good."
    if ru:
        return (
            f"{_sentence_start(note.seat, names, lang)} может положить второй дубль или пропустить."
        )
    return f"{_sentence_start(note.seat, names, lang)} may lay a second double, or skip."


_SCORE_REASONS: Final[dict[str, tuple[str, str]]] = {
    "ends": ("сумма концов {total}", "{total} at the ends"),
    "placed-tile": ("очки выложенной кости", "the pips of the tile laid"),
    "first-double": ("первый дубль", "the first double"),
    "scoring-double": (
        "результативный ход дублем, сумма концов {total}",
        "a scoring double, {total} at the ends",
    ),
    "scoring-move": (
        "результативный ход, сумма концов {total}",
        "a scoring move, {total} at the ends",
    ),
    "lucky-draw": (
        "нужная кость из базара, сумма концов {total}",
        "the drawn tile scores, {total} at the ends",
    ),
}


def _score_note(note: TurnNote, who: str, lang: str) -> str:
    """ "+2: 10 at the ends" with the scorer's name; the reason per `move_scoring`."""
    ru_text, en_text = _SCORE_REASONS.get(note.why, (note.why, note.why))
    if _is_ru(lang):
        return f"{who}: +{note.points} ({ru_text.format(total=note.total)})."
    return f"{who}: +{note.points} ({en_text.format(total=note.total)})."


def goal_text(rules: Rules, players: int, lang: str = "en") -> str:
    """The match's goal in words: "Whoever reaches 101 loses." …"""
    ru = _is_ru(lang)
    if rules.goal is Goal.FIXED_HANDS:
        hands = rules.hands_limit
        if ru:
            word = "сдачи" if hands % 10 == 1 and hands % 100 != 11 else "сдач"
            return f"Матч из {hands} {word}."
        return f"The match is {hands} hand{'s' if hands != 1 else ''}."
    target = rules.target(players)
    if rules.goal is Goal.REACH_LOSES:
        return f"Кто дойдёт до {target}, проигрывает." if ru else f"Whoever reaches {target} loses."
    return f"Кто первым наберёт {target}, выигрывает." if ru else f"First to {target} wins."
