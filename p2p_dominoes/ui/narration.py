"""Session events told as lines of text (English or Russian), for terminals and logs."""

from __future__ import annotations

from collections.abc import Sequence

from p2p_dominoes.engine import action_text, match_text, result_text
from p2p_dominoes.session.events import (
    ActionTaken,
    CheatingDetected,
    Event,
    HandEnded,
    HandStarted,
    MatchEnded,
    OpenerChosen,
    ShuffleVerified,
    TableReady,
    TilesDealt,
)

_WORDS = {
    "en": {
        "ready": "Every seat signed the table's genesis.",
        "hand": "Hand {n}: keys committed and revealed, shuffling",
        "shuffle": "  {name}'s shuffle verified, {done} of {total}",
        "holds": "  you hold {tiles}",
        "leads": "  {name} leads",
        "must": " and must lead {tile}",
        "shows": "  {name} shows {tiles}",
        "audit": "  Audit clean: shuffles, shares, draws and passes checked.",
        "scores": "  Scores: {scores}.",
        "cheat": "CHEATING: {name} — {reason}",
        "stall": "STOPPED: {name} is not responding — {reason}",
        "none": "nothing",
    },
    "ru": {
        "ready": "Все места подписали генезис стола.",
        "hand": "Сдача {n}: ключи зафиксированы и раскрыты, перемешивание",
        "shuffle": "  перемешивание игрока {name} проверено, {done} из {total}",
        "holds": "  у вас {tiles}",
        "leads": "  начинает {name}",
        "must": " и обязан начать с {tile}",
        "shows": "  {name} раскрывает {tiles}",
        "audit": "  Проверка чистая: перемешивания, доли, добор и пропуски проверены.",
        "scores": "  Счёт: {scores}.",
        "cheat": "ЖУЛЬНИЧЕСТВО: {name} — {reason}",
        "stall": "ОСТАНОВКА: {name} не отвечает — {reason}",
        "none": "ничего",
    },
}


def narrate(
    event: Event, names: Sequence[str], lang: str = "en", me: int | None = None
) -> list[str]:
    """Lines that tell `event`; `names` are the seats' names, `me` the seat of this peer."""
    w = _WORDS["ru" if lang == "ru" else "en"]

    def name(seat: int) -> str:
        return names[seat] if 0 <= seat < len(names) else f"seat {seat}"

    if isinstance(event, TableReady):
        return [w["ready"]]
    if isinstance(event, HandStarted):
        return [w["hand"].format(n=event.number)]
    if isinstance(event, ShuffleVerified):
        return [w["shuffle"].format(name=name(event.seat), done=event.done, total=event.total)]
    if isinstance(event, TilesDealt):
        return [w["holds"].format(tiles=" ".join(t.text for t in event.tiles))]
    if isinstance(event, OpenerChosen):
        line = w["leads"].format(name=name(event.seat))
        if event.must_lead is not None:
            line += w["must"].format(tile=event.must_lead.text)
        return [line]
    if isinstance(event, ActionTaken):
        drawn = event.drawn if event.seat == me else None
        text = action_text(event.seat, event.action, drawn, lang)
        return ["  " + text.replace(_seat_word(event.seat, lang), name(event.seat), 1)]
    if isinstance(event, HandEnded):
        lines = [
            w["shows"].format(name=name(s), tiles=" ".join(t.text for t in tiles) or w["none"])
            for s, tiles in enumerate(event.hands)
        ]
        lines += [
            w["audit"],
            "  " + result_text(event.result, lang),
            w["scores"].format(scores=", ".join(map(str, event.scores))),
        ]
        return lines
    if isinstance(event, MatchEnded):
        return [match_text(event.outcome, event.scores, lang)] if event.outcome.over else []
    if isinstance(event, CheatingDetected):
        kind = "stall" if event.blame.code == "stall" else "cheat"  # a crash is not a cheat
        return [w[kind].format(name=name(event.blame.seat), reason=event.blame.reason)]
    return []


def _seat_word(seat: int, lang: str) -> str:
    return f"место {seat}" if lang == "ru" else f"seat {seat}"
