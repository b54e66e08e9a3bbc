"""`p2p-dominoes verify FILE`: audit a saved transcript, or any peer's table log, offline.

FILE is a transcript file (``--record``), a table log (``table.log``) or a table directory of
the data directory. A log is read as after a crash: a torn last record is dropped and said so.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from p2p_dominoes.cli import UsageError
from p2p_dominoes.session import TableCode
from p2p_dominoes.session.verify import VerifyReport, verify_transcript
from p2p_dominoes.store.table_log import LOG_MAGIC, TableLogError, log_path, parse_log

MAX_FILE_SIZE = 256 * 1024 * 1024


def register(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser(
        "verify",
        help="audit a saved transcript: signatures, chain, proofs, rules, scores",
        description="Audit a saved transcript or a peer's table log offline. Exit 0 when it is "
        "clean, 1 when a message fails (named on one line), 2 when the file cannot be read.",
    )
    parser.add_argument(
        "file",
        type=Path,
        help="a transcript (as written by --record), a table.log, or a table's directory",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(run=run)


def read_file(path: Path) -> bytes:
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_FILE_SIZE + 1)
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror or exc}") from None
    if len(data) > MAX_FILE_SIZE:
        raise UsageError(f"{path} is larger than {MAX_FILE_SIZE} bytes")
    return data


def read_record(path: Path) -> tuple[bytes, int]:
    """Transcript-file bytes from a transcript, a table log or a table directory.

    Also returns how many bytes of a torn last log record were left out (0 for a transcript).
    """
    if path.is_dir():
        path = log_path(path)
    data = read_file(path)
    if not data.startswith(LOG_MAGIC):
        return data, 0
    try:
        contents = parse_log(data)
    except TableLogError as exc:
        raise UsageError(f"{path}: {exc}") from None
    return contents.transcript_bytes(), contents.dropped_bytes


def run(args: argparse.Namespace) -> int:
    data, dropped = read_record(args.file)
    report = verify_transcript(data)
    if dropped and not args.json:
        print(f"{args.file}: a torn last record ({dropped} bytes) was left out")
    if args.json:
        summary = report_summary(report)
        summary["torn_bytes"] = dropped
        print(json.dumps(summary))
    elif report.failure is not None:
        print(f"{args.file}: {report.failure}")
    else:
        state = "match complete" if report.complete else "match unfinished"
        print(
            f"{args.file}: clean — {report.messages} messages, "
            f"{report.hands} hand{'s' if report.hands != 1 else ''} audited, "
            f"{state}, scores {', '.join(map(str, report.scores))}, head {report.head.hex()[:16]}"
        )
    if report.ok and report.code is not None and not args.json:
        # The code the players compared aloud, so an audit afterwards can confirm it.
        print(f"{args.file}: table code {report.code.line()}")
    return 0 if report.ok else 1


def report_summary(report: VerifyReport) -> dict[str, Any]:
    failure = report.failure
    outcome = report.outcome
    return {
        "ok": report.ok,
        "messages": report.messages,
        "hands": report.hands,
        "players": list(report.names),
        "scores": list(report.scores),
        "complete": report.complete,
        "match": None
        if outcome is None
        else {"over": outcome.over, "winner": outcome.winner, "draw": outcome.draw},
        "head": report.head.hex(),
        "table_code": None if report.code is None else code_summary(report.code),
        "failure": None
        if failure is None
        else {"index": failure.index, "seat": failure.seat, "reason": failure.reason},
    }


def code_summary(code: TableCode) -> dict[str, str]:
    """The table code in every form a screen shows it (words per language, digits)."""
    return {"en": code.text("en"), "ru": code.text("ru"), "digits": code.digits}
