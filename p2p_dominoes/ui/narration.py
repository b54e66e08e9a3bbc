"""Session events told as lines of text (English or Russian: the catalogues' ``narration.*``
lines, p2p_dominoes/words), for terminals and logs."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from p2p_dominoes.engine import (
    Tile,
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
    HandAbandoned,
    HandEnded,
    HandRedealt,
    HandStarted,
    MatchEnded,
    OpenerChosen,
    SeatReplaced,
    ShuffleVerified,
    TableReady,
    TilesDealt,
)
from p2p_dominoes.words import line, reason_in


def _shown(hands: Sequence[Sequence[Tile]], name: Callable[[int], str], lang: str) -> list[str]:
    """Each seat's tiles as it shows them at the end of a hand ("nothing" for an empty hand)."""
    nothing = line("narration.none", lang)
    return [
        line(
            "narration.shows",
            lang,
            name=name(seat),
            tiles=" ".join(t.text for t in tiles) or nothing,
        )
        for seat, tiles in enumerate(hands)
    ]


def narrate(
    event: Event, names: Sequence[str], lang: str = "en", me: int | None = None
) -> list[str]:
    """Lines that tell `event`; `names` are the seats' names, `me` the seat of this peer.

    Every seat is named by its player's name (a one-based "seat 2" only if a name is missing)."""
    lang = "ru" if lang == "ru" else "en"

    def name(seat: int) -> str:
        return seat_name(seat, names, lang)

    if isinstance(event, TableReady):
        return [line("narration.ready", lang)]
    if isinstance(event, HandStarted):
        return [line("narration.hand", lang, n=event.number)]
    if isinstance(event, ShuffleVerified):
        done, total = event.done, event.total
        return [line("narration.shuffle", lang, name=name(event.seat), done=done, total=total)]
    if isinstance(event, TilesDealt):
        return [line("narration.holds", lang, tiles=" ".join(t.text for t in event.tiles))]
    if isinstance(event, OpenerChosen):
        text = line("narration.leads", lang, name=name(event.seat))
        if event.must_lead is not None:
            text += line("narration.must", lang, tile=event.must_lead.text)
        return [text]
    if isinstance(event, ActionTaken):
        drawn = event.drawn if event.seat == me else None
        return ["  " + action_text(event.seat, event.action, drawn, lang, names)]
    if isinstance(event, HandEnded):
        lines = _shown(event.hands, name, lang)
        lines += [
            line("narration.audit", lang),
            "  " + result_text(event.result, lang, names),
            line("narration.scores", lang, scores=scores_text(event.scores, names)),
        ]
        return lines
    if isinstance(event, HandRedealt):
        lines = _shown(event.hands, name, lang)
        return [*lines, line("narration.redeal", lang)]
    if isinstance(event, HandAbandoned):  # v4: a goodbye voided the hand
        if event.reason == "left":
            return [line("narration.left", lang, n=event.number, name=name(event.seat))]
        by = name(event.by)
        return [line("narration.stalled_gone", lang, n=event.number, name=name(event.seat), by=by)]
    if isinstance(event, SeatReplaced) and event.back:  # §16.1: the leaver takes it back
        return [
            line(
                "narration.seat_back", lang, name=event.name, before=event.before, n=event.next_hand
            )
        ]
    if isinstance(event, SeatReplaced):  # v4: every remaining seat signed the continuation
        taken = line(
            "narration.seat_taken", lang, name=event.name, before=event.before, n=event.next_hand
        )
        return [taken]
    if isinstance(event, MatchEnded):
        if event.outcome.over:
            return [match_text(event.outcome, event.scores, lang, names)]
        if event.limit_reached:
            assert event.max_hands is not None
            return [match_length_text(event.hands, event.max_hands, event.scores, lang, names)]
        return []
    if isinstance(event, CheatingDetected):
        stall = event.blame.code == "stall"  # a crash is not a cheat
        stalled = name(event.blame.seat)
        # A stall is said in players' words (what the seat had to do), never a message name.
        reason = (
            task_words(event.blame.expected, stalled, lang)
            if stall
            else reason_in(event.blame.reason, lang)
        )
        key = "narration.stall" if stall else "narration.cheat"
        text = line(key, lang, name=stalled, reason=reason)
        if event.blame.via is not None:
            text += line("narration.forwarded", lang, name=name(event.blame.via))
        return [text]
    return []


def holder(event: SeatReplaced, lang: str = "en") -> str:
    """The seat's name from a continuation on: its new holder, marked with whose seat it was."""
    lang = "ru" if lang == "ru" else "en"
    if event.back:  # §16.1: the player who left has its own seat again
        return event.name
    return line("narration.holder", lang, name=event.name, before=event.before)
