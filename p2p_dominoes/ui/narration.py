"""Session events told as lines of text (English or Russian), for terminals and logs."""

from __future__ import annotations

from collections.abc import Sequence

from p2p_dominoes.engine import (
    action_text,
    match_length_text,
    match_text,
    result_text,
    scores_text,
    seat_name,
)
from p2p_dominoes.net.verdict import task_words
from p2p_dominoes.session.events import (
    ActionTaken,
    CheatingDetected,
    Event,
    HandEnded,
    HandRedealt,
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
        "forwarded": " (evidence forwarded by {name}, checked here)",
        "none": "nothing",
        "redeal": "  Nobody holds a tile that opens this hand: it is void and dealt again.",
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
        "forwarded": " (доказательство переслал(а) {name}, проверено здесь)",
        "none": "ничего",
        "redeal": "  Ни у кого нет кости, с которой начинают: сдача не в счёт, пересдача.",
    },
}


def narrate(
    event: Event, names: Sequence[str], lang: str = "en", me: int | None = None
) -> list[str]:
    """Lines that tell `event`; `names` are the seats' names, `me` the seat of this peer.

    Every seat is named by its player's name (a one-based "seat 2" only if a name is missing)."""
    lang = "ru" if lang == "ru" else "en"
    w = _WORDS[lang]

    def name(seat: int) -> str:
        return seat_name(seat, names, lang)

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
        return ["  " + action_text(event.seat, event.action, drawn, lang, names)]
    if isinstance(event, HandEnded):
        lines = [
            w["shows"].format(name=name(s), tiles=" ".join(t.text for t in tiles) or w["none"])
            for s, tiles in enumerate(event.hands)
        ]
        lines += [
            w["audit"],
            "  " + result_text(event.result, lang, names),
            w["scores"].format(scores=scores_text(event.scores, names)),
        ]
        return lines
    if isinstance(event, HandRedealt):
        lines = [
            w["shows"].format(name=name(s), tiles=" ".join(t.text for t in tiles) or w["none"])
            for s, tiles in enumerate(event.hands)
        ]
        return [*lines, w["redeal"]]
    if isinstance(event, MatchEnded):
        if event.outcome.over:
            return [match_text(event.outcome, event.scores, lang, names)]
        if event.limit_reached:
            assert event.max_hands is not None
            return [match_length_text(event.hands, event.max_hands, event.scores, lang, names)]
        return []
    if isinstance(event, CheatingDetected):
        kind = "stall" if event.blame.code == "stall" else "cheat"  # a crash is not a cheat
        stalled = name(event.blame.seat)
        # A stall is said in players' words (what the seat had to do), never a message name.
        reason = (
            task_words(event.blame.expected, stalled, lang)
            if kind == "stall"
            else event.blame.reason
        )
        line = w[kind].format(name=stalled, reason=reason)
        if event.blame.via is not None:
            line += w["forwarded"].format(name=name(event.blame.via))
        return [line]
    return []
