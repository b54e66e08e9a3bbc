"""`p2p-dominoes replay FILE`: validate and replay a hand record, a transcript or a table log.

FILE is what `verify` reads (a transcript, a table.log, a table's folder), shown as it was
played with every message checked, or a plain JSON hand record (protocol/records.md, as
`export` writes it), replayed action by action. Exit 0 when it replays cleanly, 1 when the
record fails its check (a transcript that fails verification, a hand record with a move its
rules forbid), 2 when FILE cannot be read or is not a record.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from p2p_dominoes.bots.review import REVIEW_SAMPLES, review_hand
from p2p_dominoes.commands.arguments import int_between, language_argument
from p2p_dominoes.commands.command_language import command_language
from p2p_dominoes.commands.exits import EXIT_UNVERIFIED, UsageError
from p2p_dominoes.commands.verify import (
    WHAT_IS_READ,
    as_transcript,
    read_input,
    report_summary,
)
from p2p_dominoes.commands.verify_words import failure_text, match_state, torn_line
from p2p_dominoes.engine import (
    EngineError,
    HandRecord,
    Replay,
    action_text,
    actions_scored,
    describe,
    load_record,
    match_text,
    note_text,
    replay,
    result_text,
)
from p2p_dominoes.peer_text import peer_text
from p2p_dominoes.session.events import Event, SeatReplaced
from p2p_dominoes.session.verify import verify_transcript
from p2p_dominoes.ui import narrate
from p2p_dominoes.ui.narration import holder
from p2p_dominoes.ui.review_text import review_lines
from p2p_dominoes.words import line, reason_in


def register(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser(
        "replay",
        help="replay a hand record, a transcript or a table log, checking every step",
        description="Replay a plain JSON hand record (see protocol/records.md; `export` writes "
        "one), or show a transcript, a table.log or a table's folder as it was played, checking "
        "every message as `verify` does. Exit 0 when clean, 1 when the record fails its check "
        "(a transcript fails verification, a hand record breaks its rules), 2 when the file "
        "cannot be read or is not a record.",
    )
    parser.add_argument("file", type=Path, help=f"a JSON hand record, or {WHAT_IS_READ}")
    language_argument(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--review",
        type=int,
        metavar="SEAT",
        help="after a finished hand record: for each decision of SEAT (from 1), what expert "
        "would have played from that seat's view and what the choice cost; the costliest "
        "three marked",
    )
    parser.add_argument(
        "--samples",
        type=int_between(1, 5000),
        metavar="N",
        help=f"--review: samples a decision (default {REVIEW_SAMPLES})",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.samples is not None and args.review is None:
        raise UsageError(line("command.replay.samples_need_review", command_language()))
    source, data = read_input(args.file)
    record = as_transcript(source, data)
    if record is not None and args.review is not None:
        raise UsageError(
            line(
                "command.replay.review_needs_hand",
                command_language(),
                what=line("command.verify.what_is_read", command_language()),
            )
        )
    if record is not None:
        transcript, dropped = record
        if dropped and not args.json:
            print(f"{args.file}: {torn_line(dropped, args.lang)}")
        return _replay_transcript(args, transcript)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise UsageError(
            line(
                "command.replay.not_record",
                command_language(),
                path=args.file,
                what=line("command.verify.what_is_read", command_language()),
            )
        ) from None
    try:
        hand = load_record(text)
    except EngineError as exc:  # not a hand record at all
        lang = command_language()
        problem = reason_in(exc, lang)
        raise UsageError(
            line("command.where_problem", lang, where=args.file, problem=problem)
        ) from None
    try:
        outcome = replay(hand, args.lang)
    except EngineError as exc:  # a hand record whose play breaks its rules: it fails its check
        said = line(
            "command.where_problem", args.lang, where=args.file, problem=reason_in(exc, args.lang)
        )
        why = peer_text(said, 1000)
        print(f"p2p-dominoes replay: {why}", file=sys.stderr)
        return EXIT_UNVERIFIED
    if args.review is not None:
        return _review(args, hand, outcome)
    if args.json:
        print(json.dumps(replay_summary(outcome, args.lang), ensure_ascii=False))
    else:
        _print_replay(outcome, args.lang)
    return 0


def _review(args: argparse.Namespace, hand: HandRecord, outcome: Replay) -> int:
    """`--review SEAT`: the replay, then the review of that seat's decisions."""
    players = len(hand.hands)
    if not 1 <= args.review <= players:
        raise UsageError(
            line(
                "command.replay.review_seat",
                command_language(),
                players=players,
                review=args.review,
            )
        )
    if outcome.state.result is None:
        raise UsageError(line("command.replay.unfinished", command_language(), path=args.file))
    seat = args.review - 1
    samples = REVIEW_SAMPLES if args.samples is None else args.samples
    rows = review_hand(hand, seat, samples)
    names = hand.players
    if args.json:
        summary = replay_summary(outcome, args.lang)
        summary["review"] = {
            "seat": seat,
            "samples": samples,
            "rows": [
                {
                    "index": r.index,
                    "played": action_text(r.seat, r.played, None, args.lang, names),
                    "best": action_text(r.seat, r.best, None, args.lang, names),
                    "same": r.played == r.best,
                    "points": round(r.points, 3),
                    "chance": round(r.chance, 4),
                    "costly": r.costly,
                }
                for r in rows
            ],
        }
        print(json.dumps(summary, ensure_ascii=False))
        return 0
    _print_replay(outcome, args.lang)
    for text in review_lines(rows, seat, samples, args.lang, names):
        print(text)
    return 0


def _replay_transcript(args: argparse.Namespace, data: bytes) -> int:
    """Show a match transcript as it was played, checking every message on the way."""
    lines: list[str] = []
    names: list[str] = []

    def tell(event: Event) -> None:
        lines.extend(narrate(event, names, args.lang))
        if isinstance(event, SeatReplaced):  # v4: the seat goes on under its new holder's name
            names[event.seat] = holder(event, args.lang)

    report = verify_transcript(data, on_event=tell, on_names=names.extend)
    if args.json:
        print(json.dumps(report_summary(report), ensure_ascii=False))
    else:
        if report.code is not None:
            print(line("replay.table_code", args.lang, code=report.code.line(args.lang)))
        for said in lines:
            print(said)
        if report.ok:
            print(line("replay.verify_clean", args.lang, state=match_state(report, args.lang)))
        else:
            print(line("replay.verify_failed", args.lang, failure=failure_text(report, args.lang)))
    return 0 if report.ok else 1


def replay_summary(outcome: Replay, lang: str) -> dict[str, Any]:
    """The JSON form of a replay: board, result, scores and match state."""
    result = outcome.result
    match = outcome.match
    board = outcome.state.board
    shape: dict[str, Any] = {}
    if board is not None and board.trains:
        # Which trains any seat may feed at the end (RULES_V2 §3.6), besides the common one.
        shape["open_trains"] = sorted(board.markers)
    return {
        "rules": outcome.state.rules.name,
        "hand": outcome.record.hand,
        "players": list(outcome.record.players),
        "opener": outcome.state.opener,
        "actions": len(outcome.steps),
        "board": describe(outcome.state.line, lang, outcome.state.rules.reads_end_total),
        **shape,
        "result": {
            "end": result.end.value,
            "winner": result.winner,
            "points": list(result.points),
            "pips": list(result.pips),
            "ceremonies": list(result.ceremonies),
            "title": result.title,
            "move_points": list(result.move_points),
            "bonuses": list(result.bonuses),
            "tallies": [list(t) for t in result.tallies],
            "settlement": list(result.settlement),
        },
        "actions_scored": actions_scored(outcome.steps),
        "text": result_text(result, lang, outcome.record.players),
        "scores": list(outcome.scores),
        "match": {
            "over": bool(match and match.over),
            "winner": match.winner if match else None,
            "draw": bool(match and match.draw),
            "losers": list(match.losers) if match else [],
            "title": match.title if match else None,
        },
    }


def _print_replay(outcome: Replay, lang: str) -> None:
    names = outcome.record.players
    for step in outcome.steps:
        print(f"{step.index}: {action_text(step.seat, step.action, step.drawn, lang, names)}")
        if step.board is not None:
            print(f"   {step.board}")
        for note in step.notes:
            print(f"   {note_text(note, lang, names)}")
    print(result_text(outcome.result, lang, names))
    if outcome.match is not None:
        print(match_text(outcome.match, outcome.scores, lang, names))
