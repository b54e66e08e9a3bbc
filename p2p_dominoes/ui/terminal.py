"""The terminal UI's pure parts: the table drawn as text (the board as a compact line of tiles,
the sentence a key away), a menu of the legal actions, what to type after a wrong choice, the
waiting line, and the host's lobby questions (who asks for a seat) and the answers typed to them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from p2p_dominoes.engine import (
    DRAW,
    PASS,
    Action,
    Board,
    InvalidRecord,
    Place,
    Play,
    SeatView,
    Tile,
    describe,
    parse_tile,
    scores_text,
    side_name,
)
from p2p_dominoes.engine.actions import SKIP
from p2p_dominoes.engine.rules import MoveScoring
from p2p_dominoes.net.admission import LobbyState, Request
from p2p_dominoes.net.said import pairs_said
from p2p_dominoes.ui.board_text import closed_text, compact_board

BOARD_KEY: Final = "b"
"""The key that prints the board as the screen-reader sentence (`engine.describe`)."""

_WORDS = {
    "en": {
        "line": "Line",
        "table": "Table",
        "end_total": "End total: {n}.",
        "closed": "Closed places: {places}.",
        "board_key": "the board in words",
        "empty": "(empty: lead any tile)",
        "yours": "Your tiles",
        "tiles": "{n} tiles",
        "boneyard": "Boneyard: {n} tiles ({r} never drawn)",
        "scores": "Scores",
        "turn_you": "Your turn.",
        "turn": "{name}'s turn.",
        "play": "play {tile} on {where}",
        "places": "Places",
        "at_place": "place {n}",
        "lead": "lead {tile}",
        "draw": "draw a tile",
        "luck_draw": "try my luck (draw; {n} of {limit} drawn)",
        "luck_drawn": "{name} has drawn {n} of {limit} this turn",
        "pass": "pass",
        "skip": "no second double (skip)",
        "prompt": "Choose",
        "target": "target {t}",
        "this_hand": "This hand",
        "luck": "{name} wins {w}, penalties {p}",
        "along": "along",
        "no_choice": "There is no choice {key}.",
        "nothing": "Nothing was typed.",
        "not_held": "You do not hold {tile}.",
        "fits_nowhere": "{tile} fits no open place now.",
        "fits_several": "{tile} fits more than one place: type its number ({keys}).",
        "not_a_choice": "“{text}” is not a choice.",
        "type": "Type {keys}",
        "or_tile": ", or a tile you can play, such as {tile}",
        "or": " or ",
        "waiting": "waiting for {name} ({n} s)",
    },
    "ru": {
        "line": "Линия",
        "table": "Стол",
        "end_total": "Сумма концов: {n}.",
        "closed": "Закрытые места: {places}.",
        "board_key": "стол словами",
        "empty": "(пусто: начните любой костью)",
        "yours": "Ваши кости",
        "tiles": "костей: {n}",
        "boneyard": "Базар: {n} (последние {r} не берут)",
        "scores": "Счёт",
        "turn_you": "Ваш ход.",
        "turn": "Ходит {name}.",
        "play": "положить {tile} к {where}",
        "places": "Места",
        "at_place": "место {n}",
        "lead": "начать с {tile}",
        "draw": "взять из базара",
        "luck_draw": "попытать счастья (взять; взято {n} из {limit})",
        "luck_drawn": "{name}: взято {n} из {limit} за этот ход",
        "pass": "пропустить ход",
        "skip": "без второго дубля (пропустить)",
        "prompt": "Выберите",
        "target": "до {t}",
        "this_hand": "В этой раздаче",
        "luck": "{name}: выигрыш {w}, штраф {p}",
        "along": "вдоль",
        "no_choice": "Варианта {key} нет.",
        "nothing": "Ничего не введено.",
        "not_held": "У вас нет {tile}.",
        "fits_nowhere": "{tile} сейчас некуда положить.",
        "fits_several": "{tile} подходит к нескольким местам: введите номер ({keys}).",
        "not_a_choice": "«{text}» — такого варианта нет.",
        "type": "Введите {keys}",
        "or_tile": " — или кость, которую можно положить, например {tile}",
        "or": " или ",
        "waiting": "ждём: {name} ({n} с)",
    },
}


def _w(lang: str) -> dict[str, str]:
    return _WORDS["ru" if lang == "ru" else "en"]


@dataclass(frozen=True)
class MenuItem:
    """One legal action, with the key the player types for it."""

    key: str
    action: Action
    label: str


def action_menu(view: SeatView, lang: str = "en") -> list[MenuItem]:
    """The legal actions: plays by tile, numbered from 1, then `s` to skip a second double, `d`
    to draw or `p` to pass."""
    w = _w(lang)
    items = []
    plays = sorted(
        view.legal_plays(),
        key=lambda p: (p.tile.index, p.place.sort_key() if p.place else ("", 0)),
    )
    numbers = place_numbers(view)
    for number, play in enumerate(plays, start=1):
        if play.place is None:
            label = w["lead"].format(tile=play.tile.text)
        else:
            where = f"{play.place.tile.text} ({side_name(play.place.side, lang)})"
            if play.place in numbers:  # a table shape: say which numbered place
                where += f", {w['at_place'].format(n=numbers[play.place])}"
            label = w["play"].format(tile=play.tile.text, where=where)
        if play.along:  # the players choose how each double lies: say which this one does
            label += f", {w['along']}"
        items.append(MenuItem(str(number), play, label))
    if view.can_skip():
        items.append(MenuItem("s", SKIP, w["skip"]))
    if view.can_draw():
        label = w["draw"]
        if view.rules.move_scoring is MoveScoring.LUCK:  # Threes for luck: draws are tries
            label = w["luck_draw"].format(n=draws_this_turn(view), limit=view.rules.draw_limit)
        items.append(MenuItem("d", DRAW, label))
    if view.can_pass():
        items.append(MenuItem("p", PASS, w["pass"]))
    return items


def draws_this_turn(view: SeatView) -> int:
    """How many tiles the seat whose turn it is has drawn in this turn (its last actions)."""
    count = 0
    for seat, action in reversed(view.history):
        if seat != view.turn or action is not DRAW:
            break
        count += 1
    return count


def place_numbers(view: SeatView) -> dict[Place, int]:
    """On a cross, a telephone or trains: every open place numbered from 1 in description
    order (what the table text lists and the menu refers to); nothing on a line."""
    board = view.line
    if not isinstance(board, Board) or not board.tiles:
        return {}
    return {place: n for n, place in enumerate(board.sorted_places(), start=1)}


def _places_text(view: SeatView, lang: str) -> str | None:
    numbers = place_numbers(view)
    if not numbers:
        return None
    listed = "; ".join(
        f"{n}) {p.tile.text} ({side_name(p.side, lang)}, {p.value})" for p, n in numbers.items()
    )
    return f"{_w(lang)['places']}: {listed}"


def parse_choice(text: str, menu: Sequence[MenuItem]) -> Action | None:
    """The action the player typed (a menu key, or a tile such as `1|4`), or None."""
    choice = text.strip().lower()
    for item in menu:
        if choice == item.key:
            return item.action
    plays = [i.action for i in menu if isinstance(i.action, Play)]
    matching = [
        p for p in plays if choice.strip("[]") in (p.tile.key, f"{p.tile.high}|{p.tile.low}")
    ]
    return matching[0] if len(matching) == 1 else None


def render_table(
    view: SeatView,
    names: Sequence[str],
    scores: Sequence[int],
    target: int,
    lang: str = "en",
) -> str:
    """The whole table as text: line, own tiles, others' counts, boneyard, scores, turn."""
    w = _w(lang)
    me = view.seat
    board = view.line
    shape = isinstance(board, Board) and (board.trains or board.centre is not None)
    line = compact_board(board, lang) if board.tiles else w["empty"]
    others = ", ".join(
        f"{names[s]}: {w['tiles'].format(n=count)}"
        for s, count in enumerate(view.tile_counts)
        if s != me
    )
    score_text = scores_text(scores, names)  # with partners: "Ann & Cid 12, Bob & Dan 40"
    turn = w["turn_you"] if view.turn == me else w["turn"].format(name=names[view.turn])
    places = _places_text(view, lang)
    lines = [f"{w['table' if shape else 'line']}: {line}"]
    if view.rules.reads_end_total and board.tiles:  # a rule reads it: always in sight
        lines.append(w["end_total"].format(n=board.end_total()))
    if board.closed:
        lines.append(w["closed"].format(places=closed_text(board, lang)))
    lines += [
        *([places] if places else []),
        f"{w['yours']}: {' '.join(t.text for t in view.hand)}",
        others,
        w["boneyard"].format(n=view.boneyard_size, r=min(view.rules.reserve, view.boneyard_size)),
        f"{w['scores']} ({w['target'].format(t=target)}): {score_text}",
    ]
    if view.rules.scores_during_play:  # points are scored as tiles are laid: say so
        if view.rules.move_scoring is MoveScoring.LUCK:
            tally = ", ".join(
                w["luck"].format(name=names[s], w=won, p=lost)
                for s, (won, lost) in enumerate(view.luck_tallies())
            )
        else:
            tally = ", ".join(f"{names[s]} +{p}" for s, p in enumerate(view.move_points()))
        lines.append(f"{w['this_hand']}: {tally}")
        drawn = draws_this_turn(view)
        if view.rules.move_scoring is MoveScoring.LUCK and drawn:
            limit = view.rules.draw_limit
            lines.append(w["luck_drawn"].format(name=names[view.turn], n=drawn, limit=limit))
    return "\n".join([*lines, turn])


def render_menu(menu: Sequence[MenuItem], lang: str = "en") -> str:
    """The legal actions, one a line with its key, then the key that says the board in words,
    then the prompt."""
    w = _w(lang)
    lines = [f"  {item.key}) {item.label}" for item in menu]
    lines.append(f"  {BOARD_KEY}) {w['board_key']}")
    return "\n".join([*lines, f"{w['prompt']}: "])


def board_sentence(view: SeatView, lang: str = "en") -> str:
    """The board as the screen-reader sentence (what the `b` key prints)."""
    if not view.line.tiles:
        return _w(lang)["empty"]
    return describe(view.line, lang, view.rules.reads_end_total)


def _keys_text(keys: Sequence[str], lang: str, ranged: bool = True) -> str:
    """ "1–3, d or p": the menu's numbers (1 to N) as a range, then its letters; not `ranged`:
    each key ("2 or 3")."""
    numbers = [k for k in keys if k.isdigit()]
    words = [k for k in keys if not k.isdigit()]
    if len(numbers) > 1 and ranged:
        words.insert(0, f"{numbers[0]}–{numbers[-1]}")
    else:
        words[:0] = numbers
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + _w(lang)["or"] + words[-1]


def choice_problem(
    text: str, menu: Sequence[MenuItem], hand: Sequence[Tile], lang: str = "en"
) -> str:
    """What was wrong with a typed line that names no legal action, and what to type instead:
    the menu's keys (and `b`), or a tile that can be played. `hand`: the player's tiles."""
    w = _w(lang)
    typed = text.strip()
    plays = [(item.key, item.action) for item in menu if isinstance(item.action, Play)]
    if not typed:
        why = w["nothing"]
    elif typed.isdigit() and len(typed) <= 6:
        why = w["no_choice"].format(key=typed)
    else:
        why = w["not_a_choice"].format(text=typed[:24])
        try:
            tile: Tile | None = parse_tile(typed)
        except InvalidRecord:
            tile = None
        if tile is not None:
            fitting = [key for key, play in plays if play.tile is tile]
            if len(fitting) > 1:  # a tile names one action only when it fits one way
                return w["fits_several"].format(
                    tile=tile.text, keys=_keys_text(fitting, lang, False)
                )
            if not fitting:
                why = w["fits_nowhere" if tile in hand else "not_held"].format(tile=tile.text)
    how = w["type"].format(keys=_keys_text([*(item.key for item in menu), BOARD_KEY], lang))
    if plays:
        how += w["or_tile"].format(tile=plays[0][1].tile.key)
    return f"{why} {how}."


def waiting_text(name: str, seconds: float, lang: str = "en") -> str:
    """ "waiting for Bob (35 s)": whom the table waits for, and how long so far."""
    return _w(lang)["waiting"].format(name=name, n=f"{seconds:.0f}")


# -- the host's lobby ---------------------------------------------------------------------------

_LOBBY_WORDS = {
    "en": {
        "asks": 'Request {n}: "{name}" asks for a seat — fingerprint {fp}, from {source}; '
        'their screen shows {short}. Type "y {n}" to seat them, "n {n}" to refuse.',
        "seats": "Seats ({taken} of {total}): {seats}",
        "bot": "bot",
        "you": "you",
        "remove_hint": 'Type "remove N" to take seat N back before the game begins.',
        "help": 'Answer with "y N" (seat request N), "n N" (refuse it), "remove N" (seat N) '
        'or "swap N M" (seats N and M).',
        "swap_hint": 'Partners sit opposite (seats 1+3 against 2+4): "swap N M" swaps two seats.',
        "nothing": "Nothing to do for that (no such request or seat now).",
    },
    "ru": {
        "asks": "Запрос {n}: «{name}» просит место — отпечаток {fp}, адрес {source}; "
        "на экране игрока — {short}. Введите «y {n}», чтобы посадить, «n {n}» — отказать.",
        "seats": "Места ({taken} из {total}): {seats}",
        "bot": "бот",
        "you": "вы",
        "remove_hint": "Введите «remove N», чтобы освободить место N до начала игры.",
        "help": "Ответ: «y N» (посадить запрос N), «n N» (отказать), «remove N» (место N) "
        "или «swap N M» (поменять места N и M).",
        "swap_hint": "Партнёры сидят друг напротив друга (места 1+3 против 2+4): "
        "«swap N M» меняет два места.",
        "nothing": "Этого сейчас нельзя (нет такого запроса или места).",
    },
}

_YES = frozenset({"y", "yes", "д", "да"})
_NO = frozenset({"n", "no", "н", "нет"})
_REMOVE = frozenset({"remove", "r", "убрать"})
_SWAP = frozenset({"swap", "s", "поменять"})


def lobby_words(lang: str) -> dict[str, str]:
    """The host lobby's texts in `lang` (English unless Russian)."""
    return _LOBBY_WORDS["ru" if lang == "ru" else "en"]


def render_request(request: Request, lang: str = "en") -> str:
    """The question the host's person answers for one pending request (name already cleaned)."""
    return lobby_words(lang)["asks"].format(
        n=request.number,
        name=request.name,
        fp=request.key.fingerprint,
        source=request.source,
        short=request.key.short_fingerprint,
    )


def render_seats(state: LobbyState, lang: str = "en") -> str:
    """The seats taken so far, numbered from 1 (the numbers `remove N` takes)."""
    w = lobby_words(lang)
    seats = ", ".join(
        f"{s.seat + 1} {s.name}"
        + (f" ({w['you']})" if s.seat == 0 else f" ({w['bot']})" if s.bot else "")
        for s in state.seats
    )
    line = w["seats"].format(taken=len(state.seats), total=state.players, seats=seats)
    if state.pairs and state.players == 4:
        line += "\n" + pairs_said({s.seat: s.name for s in state.seats}, lang)
    return line


@dataclass(frozen=True)
class LobbyAnswer:
    """What the host's person typed in the lobby: approve/refuse a request, or remove a seat."""

    verb: str
    """"approve", "refuse", "remove" or "swap"."""
    number: int
    other: int = 0
    """The second seat of a swap."""


def parse_lobby_answer(text: str, pending: Sequence[int]) -> LobbyAnswer | None:
    """`y N` / `n N` / `remove N` (a bare `y` or `n` when exactly one request waits), or None."""
    words = text.strip().lower().split()
    if (
        len(words) == 3
        and words[0] in _SWAP
        and all(w.isdigit() and len(w) <= 2 for w in words[1:])
    ):
        return LobbyAnswer("swap", int(words[1]), int(words[2]))
    if not words or len(words) > 2:
        return None
    verb = words[0]
    if len(words) == 1:
        if len(pending) != 1 or verb not in _YES | _NO:
            return None
        number = pending[0]
    elif words[1].isdigit() and len(words[1]) <= 6:
        number = int(words[1])
    else:
        return None
    if verb in _YES:
        return LobbyAnswer("approve", number)
    if verb in _NO:
        return LobbyAnswer("refuse", number)
    if verb in _REMOVE:
        return LobbyAnswer("remove", number)
    return None
