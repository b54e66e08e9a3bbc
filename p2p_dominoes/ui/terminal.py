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
from p2p_dominoes.words import LANGUAGES, line

BOARD_KEY: Final = "b"
"""The key that prints the board as the screen-reader sentence (`engine.describe`)."""


@dataclass(frozen=True)
class MenuItem:
    """One legal action, with the key the player types for it."""

    key: str
    action: Action
    label: str


def action_menu(view: SeatView, lang: str = "en") -> list[MenuItem]:
    """The legal actions: plays by tile, numbered from 1, then `s` to skip a second double, `d`
    to draw or `p` to pass."""
    items = []
    plays = sorted(
        view.legal_plays(),
        key=lambda p: (p.tile.index, p.place.sort_key() if p.place else ("", 0)),
    )
    numbers = place_numbers(view)
    for number, play in enumerate(plays, start=1):
        if play.place is None:
            label = line("terminal.lead", lang, tile=play.tile.text)
        else:
            where = f"{play.place.tile.text} ({side_name(play.place.side, lang)})"
            if play.place in numbers:  # a table shape: say which numbered place
                where += ", " + line("terminal.at_place", lang, n=numbers[play.place])
            label = line("terminal.play", lang, tile=play.tile.text, where=where)
        if play.along:  # the players choose how each double lies: say which this one does
            label += ", " + line("terminal.along", lang)
        items.append(MenuItem(str(number), play, label))
    if view.can_skip():
        items.append(MenuItem("s", SKIP, line("terminal.skip", lang)))
    if view.can_draw():
        label = line("terminal.draw", lang)
        if view.rules.move_scoring is MoveScoring.LUCK:  # Threes for luck: draws are tries
            drawn, limit = draws_this_turn(view), view.rules.draw_limit
            label = line("terminal.luck_draw", lang, n=drawn, limit=limit)
        items.append(MenuItem("d", DRAW, label))
    if view.can_pass():
        items.append(MenuItem("p", PASS, line("terminal.pass", lang)))
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
    return line("terminal.places", lang) + ": " + listed


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
    me = view.seat
    board = view.line
    shape = isinstance(board, Board) and (board.trains or board.centre is not None)
    drawn_line = compact_board(board, lang) if board.tiles else line("terminal.empty", lang)
    others = ", ".join(
        names[s] + ": " + line("terminal.tiles", lang, n=count)
        for s, count in enumerate(view.tile_counts)
        if s != me
    )
    score_text = scores_text(scores, names)  # with partners: "Ann & Cid 12, Bob & Dan 40"
    if view.turn == me:
        turn = line("terminal.turn_you", lang)
    else:
        turn = line("terminal.turn", lang, name=names[view.turn])
    places = _places_text(view, lang)
    reserve = min(view.rules.reserve, view.boneyard_size)
    scores_word = line("terminal.scores", lang)
    target_words = line("terminal.target", lang, t=target)
    title = line("terminal.table" if shape else "terminal.line", lang)
    lines = [f"{title}: {drawn_line}"]
    if view.rules.reads_end_total and board.tiles:  # a rule reads it: always in sight
        lines.append(line("terminal.end_total", lang, n=board.end_total()))
    if board.closed:
        lines.append(line("terminal.closed", lang, places=closed_text(board, lang)))
    lines += [
        *([places] if places else []),
        line("terminal.yours", lang) + ": " + " ".join(t.text for t in view.hand),
        others,
        line("terminal.boneyard", lang, n=view.boneyard_size, r=reserve),
        f"{scores_word} ({target_words}): {score_text}",
    ]
    if view.rules.scores_during_play:  # points are scored as tiles are laid: say so
        if view.rules.move_scoring is MoveScoring.LUCK:
            tally = ", ".join(
                line("terminal.luck", lang, name=names[s], w=won, p=lost)
                for s, (won, lost) in enumerate(view.luck_tallies())
            )
        else:
            tally = ", ".join(f"{names[s]} +{p}" for s, p in enumerate(view.move_points()))
        lines.append(line("terminal.this_hand", lang) + ": " + tally)
        drawn = draws_this_turn(view)
        if view.rules.move_scoring is MoveScoring.LUCK and drawn:
            limit = view.rules.draw_limit
            luck = line("terminal.luck_drawn", lang, name=names[view.turn], n=drawn, limit=limit)
            lines.append(luck)
    return "\n".join([*lines, turn])


def render_menu(menu: Sequence[MenuItem], lang: str = "en") -> str:
    """The legal actions, one a line with its key, then the key that says the board in words,
    then the prompt."""
    lines = [f"  {item.key}) {item.label}" for item in menu]
    lines.append(f"  {BOARD_KEY}) " + line("terminal.board_key", lang))
    return "\n".join([*lines, line("terminal.prompt", lang) + ": "])


def board_sentence(view: SeatView, lang: str = "en") -> str:
    """The board as the screen-reader sentence (what the `b` key prints)."""
    if not view.line.tiles:
        return line("terminal.empty", lang)
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
    return ", ".join(words[:-1]) + line("terminal.or", lang) + words[-1]


def choice_problem(
    text: str, menu: Sequence[MenuItem], hand: Sequence[Tile], lang: str = "en"
) -> str:
    """What was wrong with a typed line that names no legal action, and what to type instead:
    the menu's keys (and `b`), or a tile that can be played. `hand`: the player's tiles."""
    typed = text.strip()
    plays = [(item.key, item.action) for item in menu if isinstance(item.action, Play)]
    if not typed:
        why = line("terminal.nothing", lang)
    elif typed.isdigit() and len(typed) <= 6:
        why = line("terminal.no_choice", lang, key=typed)
    else:
        why = line("terminal.not_a_choice", lang, text=typed[:24])
        try:
            tile: Tile | None = parse_tile(typed)
        except InvalidRecord:
            tile = None
        if tile is not None:
            fitting = [key for key, play in plays if play.tile is tile]
            if len(fitting) > 1:  # a tile names one action only when it fits one way
                return line(
                    "terminal.fits_several",
                    lang,
                    tile=tile.text,
                    keys=_keys_text(fitting, lang, False),
                )
            if not fitting:
                key = "terminal.fits_nowhere" if tile in hand else "terminal.not_held"
                why = line(key, lang, tile=tile.text)
    keys = _keys_text([*(item.key for item in menu), BOARD_KEY], lang)
    how = line("terminal.type", lang, keys=keys)
    if plays:
        how += line("terminal.or_tile", lang, tile=plays[0][1].tile.key)
    return f"{why} {how}."


def waiting_text(name: str, seconds: float, lang: str = "en") -> str:
    """ "waiting for Bob (35 s)": whom the table waits for, and how long so far."""
    return line("terminal.waiting", lang, name=name, n=f"{seconds:.0f}")


# -- the host's lobby ---------------------------------------------------------------------------


def _answers(key: str) -> frozenset[str]:
    """The words the host may type for one answer (`key`'s words in every language)."""
    return frozenset(word for lang in LANGUAGES for word in line(key, lang).split())


def go_on_answer(text: str) -> bool | None:
    """v4: the person's answer to "go on with a bot in the seat that left?" (yes/no in either
    language, as in the lobby), or None when the line is neither."""
    word = text.strip().lower()
    if word in _answers("lobby.answer_yes"):
        return True
    if word in _answers("lobby.answer_no"):
        return False
    return None


def render_request(request: Request, lang: str = "en") -> str:
    """The question the host's person answers for one pending request (name already cleaned)."""
    return line(
        "lobby.asks",
        lang,
        n=request.number,
        name=request.name,
        fp=request.key.fingerprint,
        source=request.source,
        short=request.key.short_fingerprint,
    )


def render_seats(state: LobbyState, lang: str = "en") -> str:
    """The seats taken so far, numbered from 1 (the numbers `remove N` takes)."""
    you, bot = line("lobby.you", lang), line("lobby.bot", lang)
    seats = ", ".join(
        f"{s.seat + 1} {s.name}" + (f" ({you})" if s.seat == 0 else f" ({bot})" if s.bot else "")
        for s in state.seats
    )
    text = line("lobby.seats", lang, taken=len(state.seats), total=state.players, seats=seats)
    if state.pairs and state.players == 4:
        text += "\n" + pairs_said({s.seat: s.name for s in state.seats}, lang)
    return text


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
        and words[0] in _answers("lobby.answer_swap")
        and all(w.isdigit() and len(w) <= 2 for w in words[1:])
    ):
        return LobbyAnswer("swap", int(words[1]), int(words[2]))
    if not words or len(words) > 2:
        return None
    verb = words[0]
    if len(words) == 1:
        if len(pending) != 1 or verb not in _answers("lobby.answer_yes") | _answers(
            "lobby.answer_no"
        ):
            return None
        number = pending[0]
    elif words[1].isdigit() and len(words[1]) <= 6:
        number = int(words[1])
    else:
        return None
    if verb in _answers("lobby.answer_yes"):
        return LobbyAnswer("approve", number)
    if verb in _answers("lobby.answer_no"):
        return LobbyAnswer("refuse", number)
    if verb in _answers("lobby.answer_remove"):
        return LobbyAnswer("remove", number)
    return None
