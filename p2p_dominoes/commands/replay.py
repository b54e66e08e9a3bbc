"""`p2p-dominoes replay FILE`: validate and replay a hand record."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from p2p_dominoes.cli import UsageError
from p2p_dominoes.commands.verify import read_file, report_summary
from p2p_dominoes.engine import (
    LANGUAGES,
    EngineError,
    Replay,
    action_text,
    describe,
    load_record,
    match_text,
    replay,
    result_text,
)
from p2p_dominoes.session import TRANSCRIPT_MAGIC
from p2p_dominoes.session.events import Event
from p2p_dominoes.session.verify import verify_transcript
from p2p_dominoes.ui import narrate


def register(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser(
        "replay",
        help="validate and replay a hand record",
        description="Validate a hand record (see protocol/records.md) and replay it.",
    )
    parser.add_argument("file", type=Path, help="the record (JSON)")
    parser.add_argument("--lang", default="en", choices=LANGUAGES)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    data = read_file(args.file)
    if data.startswith(TRANSCRIPT_MAGIC):
        return _replay_transcript(args, data)
    try:
        text = data.decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(
            f"cannot read {args.file}: {getattr(exc, 'strerror', None) or exc}"
        ) from None
    try:
        outcome = replay(load_record(text), args.lang)
    except EngineError as exc:
        raise UsageError(f"{args.file}: {exc}") from None
    if args.json:
        print(json.dumps(replay_summary(outcome, args.lang), ensure_ascii=False))
    else:
        _print_replay(outcome, args.lang)
    return 0


def _replay_transcript(args: argparse.Namespace, data: bytes) -> int:
    """Show a match transcript as it was played, checking every message on the way."""
    lines: list[str] = []
    names: list[str] = []

    def tell(event: Event) -> None:
        lines.extend(narrate(event, names, args.lang))

    report = verify_transcript(data, on_event=tell, on_names=names.extend)
    if args.json:
        print(json.dumps(report_summary(report), ensure_ascii=False))
    else:
        if report.code is not None:
            print(f"table code: {report.code.line(args.lang)}")
        for line in lines:
            print(line)
        print(f"verify: {'clean' if report.ok else report.failure}")
    return 0 if report.ok else 1


def replay_summary(outcome: Replay, lang: str) -> dict[str, Any]:
    """The JSON form of a replay: board, result, scores and match state."""
    result = outcome.result
    match = outcome.match
    return {
        "rules": outcome.state.rules.name,
        "opener": outcome.state.opener,
        "actions": len(outcome.steps),
        "board": describe(outcome.state.line, lang),
        "result": {
            "end": result.end.value,
            "winner": result.winner,
            "points": list(result.points),
            "pips": list(result.pips),
        },
        "scores": list(outcome.scores),
        "match": {
            "over": bool(match and match.over),
            "winner": match.winner if match else None,
            "draw": bool(match and match.draw),
        },
    }


def _print_replay(outcome: Replay, lang: str) -> None:
    for step in outcome.steps:
        print(f"{step.index}: {action_text(step.seat, step.action, step.drawn, lang)}")
        if step.board is not None:
            print(f"   {step.board}")
    print(result_text(outcome.result, lang))
    if outcome.match is not None:
        print(match_text(outcome.match, outcome.scores, lang))
