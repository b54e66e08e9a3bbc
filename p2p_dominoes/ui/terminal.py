"""The terminal UI's pure parts: the table drawn as text, and a menu of the legal actions."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from p2p_dominoes.engine import DRAW, PASS, Action, Play, SeatView, describe, side_name

_WORDS = {
    "en": {
        "line": "Line",
        "empty": "(empty: lead any tile)",
        "yours": "Your tiles",
        "tiles": "{n} tiles",
        "boneyard": "Boneyard: {n} tiles ({r} never drawn)",
        "scores": "Scores",
        "turn_you": "Your turn.",
        "turn": "{name}'s turn.",
        "play": "play {tile} on {where}",
        "lead": "lead {tile}",
        "draw": "draw a tile",
        "pass": "pass",
        "prompt": "Choose",
        "target": "target {t}",
    },
    "ru": {
        "line": "Линия",
        "empty": "(пусто: начните любой костью)",
        "yours": "Ваши кости",
        "tiles": "костей: {n}",
        "boneyard": "Базар: {n} (последние {r} не берут)",
        "scores": "Счёт",
        "turn_you": "Ваш ход.",
        "turn": "Ходит {name}.",
        "play": "положить {tile} к {where}",
        "lead": "начать с {tile}",
        "draw": "взять из базара",
        "pass": "пропустить ход",
        "prompt": "Выберите",
        "target": "до {t}",
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
    """The legal actions: plays by tile, numbered from 1, then `d` to draw or `p` to pass."""
    w = _w(lang)
    items = []
    plays = sorted(
        view.legal_plays(),
        key=lambda p: (p.tile.index, p.place.sort_key() if p.place else ("", 0)),
    )
    for number, play in enumerate(plays, start=1):
        if play.place is None:
            label = w["lead"].format(tile=play.tile.text)
        else:
            where = f"{play.place.tile.text} ({side_name(play.place.side, lang)})"
            label = w["play"].format(tile=play.tile.text, where=where)
        items.append(MenuItem(str(number), play, label))
    if view.can_draw():
        items.append(MenuItem("d", DRAW, w["draw"]))
    if view.can_pass():
        items.append(MenuItem("p", PASS, w["pass"]))
    return items


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
    line = describe(view.line, lang) if view.line.tiles else w["empty"]
    others = ", ".join(
        f"{names[s]}: {w['tiles'].format(n=count)}"
        for s, count in enumerate(view.tile_counts)
        if s != me
    )
    score_text = ", ".join(f"{names[s]} {score}" for s, score in enumerate(scores))
    turn = w["turn_you"] if view.turn == me else w["turn"].format(name=names[view.turn])
    return "\n".join(
        [
            f"{w['line']}: {line}",
            f"{w['yours']}: {' '.join(t.text for t in view.hand)}",
            others,
            w["boneyard"].format(n=view.boneyard_size, r=view.rules.reserve),
            f"{w['scores']} ({w['target'].format(t=target)}): {score_text}",
            turn,
        ]
    )


def render_menu(menu: Sequence[MenuItem], lang: str = "en") -> str:
    w = _w(lang)
    lines = [f"  {item.key}) {item.label}" for item in menu]
    return "\n".join([*lines, f"{w['prompt']}: "])
