"""`verify`'s report in words, in English or Russian: the summary of a clean record, the first
message that fails and whose it is, the void hands, the seat changes, a torn log, the table code.

The session's verifier (session/verify.py) only finds these facts: it prints nothing and holds no
words (the map of imports, tests/test_layers.py). This module says them, each sentence one
catalogue entry (``verify.*``); `verify`, `export`, `replay`, `simulate --secure` and `demo`
use it. `verify --json` is for machines and keeps the English failure text.
"""

from __future__ import annotations

from collections.abc import Sequence

from p2p_dominoes.engine import hands_played_text, scores_text, seat_name
from p2p_dominoes.session.table_code import TableCode
from p2p_dominoes.session.verify import EQUIVOCATION, NO_GENESIS, Failure, VerifyReport
from p2p_dominoes.words import line, plural, reason_in


def failure_line(failure: Failure, names: Sequence[str] = (), lang: str = "en") -> str:
    """The first failure for a person: the message (or the file), its seat by name and
    one-based number, and the verifier's reason (the protocol's own words, PROTOCOL.md §9)."""
    where = (
        line("verify.failure_file", lang)
        if failure.index is None
        else line("verify.failure_message", lang, index=failure.index)
    )
    reason = reason_in(failure.reason, lang)  # a Phrase from the verifier reads in `lang`
    if failure.kind == NO_GENESIS:
        reason = line("verify.no_genesis", lang)
    if failure.seat is None:
        return line("verify.failure", lang, where=where, reason=reason)
    number = failure.seat + 1
    if failure.kind == EQUIVOCATION:
        reason = line("verify.equivocation", lang, seat=number)
    if seat_name(failure.seat, names, lang) == seat_name(failure.seat, (), lang):
        return line("verify.failure_seat", lang, where=where, seat=number, reason=reason)
    name = seat_name(failure.seat, names, lang)
    return line("verify.failure_named", lang, where=where, name=name, seat=number, reason=reason)


def failure_text(report: VerifyReport, lang: str = "en") -> str:
    """The report's first failure, naming the seat as the players knew it ("" when clean)."""
    return "" if report.failure is None else failure_line(report.failure, report.names, lang)


def clean_line(report: VerifyReport, lang: str = "en") -> str:
    """The summary of a clean record: messages, hands, the match, the scores, the head."""
    return line(
        "verify.clean",
        lang,
        messages=plural("verify.messages", report.messages, lang),
        hands=plural("verify.hands_audited", report.hands, lang),
        state=match_state(report, lang),
        scores=scores_text(report.scores, names_now(report, lang)),
        head=report.head.hex()[:16],
    )


def torn_line(dropped: int, lang: str = "en") -> str:
    """A table log whose last record was torn (a crash while writing): how much was left out."""
    return plural("verify.torn", dropped, lang)


def code_line(code: TableCode, lang: str = "en") -> str:
    """The code the players compared aloud, so an audit afterwards can confirm it."""
    return line("verify.table_code", lang, code=code.line(lang))


def names_now(report: VerifyReport, lang: str = "en") -> list[str]:
    """The seats' names at the record's end: a seat a continuation gave a new holder (v4) is
    shown under that holder's name, marked with whose seat it was (it kept that score)."""
    names = list(report.names)
    changes = [
        (n, seat, line("narration.holder", lang, name=name, before=before))
        for seat, before, name, n in report.seat_changes
    ]
    changes += [(n, seat, name) for seat, _, name, n in report.seats_back]  # §16.1: their own
    for _, seat, name in sorted(changes):
        names[seat] = name
    return names


def leaving_lines(report: VerifyReport, lang: str = "en") -> list[str]:
    """v4 (PROTOCOL.md §16): one line a void hand a goodbye ended, one a seat change."""
    lines = []
    for number, seat, reason in report.abandoned:
        name = seat_name(seat, report.names, lang)
        why = line("verify.reason_left" if reason == "left" else "verify.reason_stalled", lang)
        lines.append(line("verify.void_hand", lang, n=number, name=name, reason=why))
    for seat, before, name, number in report.seat_changes:
        lines.append(
            line("verify.seat_change", lang, seat=seat + 1, before=before, name=name, n=number)
        )
    for seat, before, name, number in report.seats_back:  # §16.1
        lines.append(
            line("verify.seat_back", lang, seat=seat + 1, before=before, name=name, n=number)
        )
    return lines


def match_state(report: VerifyReport, lang: str = "en") -> str:
    """Where the match stands, in words: won, drawn, finished after its hands, or unfinished."""
    outcome = report.outcome
    if report.complete and outcome is not None and outcome.over:
        if outcome.winner is None:
            return line("verify.drawn", lang)
        winner = seat_name(outcome.winner, report.names, lang)
        if outcome.pairs:  # Kozel: the pair that did not become the goat
            from p2p_dominoes.engine.kozel_text import pair_name

            winner = pair_name(outcome.winner, report.names, lang)
        return line("verify.won", lang, winner=winner)
    if report.limit_reached:
        assert report.max_hands is not None
        text = hands_played_text(report.hands, report.max_hands, lang)
        return text[0].lower() + text[1:]
    if report.max_hands is not None:
        return line("verify.unfinished_of", lang, hands=report.hands, max_hands=report.max_hands)
    return line("verify.unfinished", lang)
