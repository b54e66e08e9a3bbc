"""`p2p-dominoes verify FILE`: audit a saved transcript, or any peer's table log, offline.

FILE is a transcript file (``--record``), a table log (``table.log``) or a table directory of
the data directory. A log is read as after a crash: a torn last record is dropped and said so.
Exit 0 when clean, 1 when a message fails verification, 2 when FILE is missing, unreadable or
not a record at all (one line on standard error).
"""

from __future__ import annotations

import argparse
import json
import shlex
from pathlib import Path
from typing import Any, Final

from p2p_dominoes.commands.arguments import language_argument
from p2p_dominoes.commands.command_language import command_language
from p2p_dominoes.commands.exits import UsageError
from p2p_dominoes.commands.verify_words import (
    clean_line,
    code_line,
    failure_text,
    leaving_lines,
    torn_line,
)
from p2p_dominoes.session import TRANSCRIPT_MAGIC, TableCode
from p2p_dominoes.session.verify import VerifyReport, verify_transcript
from p2p_dominoes.store import LOG_FILE_NAME, LOG_MAGIC, TableLogError, log_path, parse_log
from p2p_dominoes.words import line, plural, reason_in

MAX_FILE_SIZE = 256 * 1024 * 1024
WHAT_IS_READ = "a transcript (as written by --record), a table.log, or a table's folder"


def register(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser(
        "verify",
        help="audit a saved transcript: signatures, chain, proofs, rules, scores",
        description="Audit a saved transcript or a peer's table log offline. Exit 0 when it is "
        "clean, 1 when a message fails (named on one line), 2 when the file cannot be read or "
        "is not a record.",
    )
    parser.add_argument("file", type=Path, help=WHAT_IS_READ)
    language_argument(parser)
    parser.add_argument(
        "--json", action="store_true", help="print one JSON object (English, whatever --lang)"
    )
    parser.set_defaults(run=run)


def read_file(path: Path) -> bytes:
    """The bytes of ``path`` (at most MAX_FILE_SIZE); UsageError with one line otherwise."""
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_FILE_SIZE + 1)
    except OSError as exc:
        raise UsageError(
            line("command.cannot_read", command_language(), path=path, error=exc.strerror or exc)
        ) from None
    if len(data) > MAX_FILE_SIZE:
        raise UsageError(plural("command.too_large", MAX_FILE_SIZE, command_language(), path=path))
    return data


def read_input(path: Path) -> tuple[Path, bytes]:
    """The file to read for ``path`` (a table folder's log) and its bytes."""
    if path.is_dir():
        log = log_path(path)
        if not log.is_file():
            raise UsageError(
                line(
                    "command.verify.folder_no_log",
                    command_language(),
                    path=path,
                    log=LOG_FILE_NAME,
                    what=line("command.verify.what_is_read", command_language()),
                )
            )
        path = log
    data = read_file(path)
    if not data:
        raise UsageError(
            line(
                "command.verify.empty",
                command_language(),
                path=path,
                what=line("command.verify.what_is_read", command_language()),
            )
        )
    return path, data


def as_transcript(path: Path, data: bytes) -> tuple[bytes, int] | None:
    """Transcript-file bytes from a transcript's or a table log's bytes, and how many bytes of a
    torn last log record were left out (0 for a transcript); None for anything else."""
    if data.startswith(TRANSCRIPT_MAGIC):
        return data, 0
    if not data.startswith(LOG_MAGIC):
        return None
    try:
        contents = parse_log(data)
    except TableLogError as exc:
        lang = command_language()
        problem = reason_in(exc, lang)
        raise UsageError(line("command.where_problem", lang, where=path, problem=problem)) from None
    return contents.transcript_bytes(), contents.dropped_bytes


def read_record(path: Path) -> tuple[bytes, int]:
    """Transcript-file bytes from a transcript, a table log or a table directory.

    Also returns how many bytes of a torn last log record were left out (0 for a transcript).
    Anything else (missing, unreadable, a folder without a log, other bytes) is a UsageError.
    """
    source, data = read_input(path)
    record = as_transcript(source, data)
    if record is None:
        if is_hand_record(data):
            raise UsageError(
                line(
                    "command.verify.hand_record",
                    command_language(),
                    path=path,
                    quoted=shlex.quote(str(path)),
                )
            )
        raise UsageError(
            line(
                "command.verify.not_record",
                command_language(),
                path=path,
                what=line("command.verify.what_is_read", command_language()),
            )
        )
    return record


HAND_RECORD_KEYS: Final = frozenset({"rules", "opener", "hands", "boneyard", "actions"})
"""The fields every hand record has (protocol/records.md)."""


def is_hand_record(data: bytes) -> bool:
    """Whether `data` is meant as a plain JSON hand record: an object with a hand record's
    fields (whether it replays is `replay`'s to say)."""
    try:
        parsed = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return False
    return isinstance(parsed, dict) and parsed.keys() >= HAND_RECORD_KEYS


def run(args: argparse.Namespace) -> int:
    lang = args.lang
    data, dropped = read_record(args.file)
    report = verify_transcript(data)
    if args.json:  # for machines: English, whatever --lang says
        summary = report_summary(report)
        summary["torn_bytes"] = dropped
        print(json.dumps(summary, ensure_ascii=False))
        return 0 if report.ok else 1
    if dropped:
        print(f"{args.file}: {torn_line(dropped, lang)}")
    if report.failure is not None:
        print(f"{args.file}: {failure_text(report, lang)}")
    else:
        print(f"{args.file}: {clean_line(report, lang)}")
    for text in leaving_lines(report, lang):
        print(f"{args.file}: {text}")
    if report.ok and report.code is not None:
        # The code the players compared aloud, so an audit afterwards can confirm it.
        print(f"{args.file}: {code_line(report.code, lang)}")
    return 0 if report.ok else 1


def report_summary(report: VerifyReport) -> dict[str, Any]:
    failure = report.failure
    outcome = report.outcome
    return {
        "ok": report.ok,
        "messages": report.messages,
        "hands": report.hands,
        "max_hands": report.max_hands,
        "players": list(report.names),
        "scores": list(report.scores),
        "complete": report.complete,
        "match": None
        if outcome is None
        else {
            "over": outcome.over,
            "winner": outcome.winner,
            "draw": outcome.draw,
            "limit_reached": report.limit_reached,
            "losers": list(outcome.losers),
            "title": outcome.title,
        },
        "head": report.head.hex(),
        "void_hands": [
            {"hand": number, "seat": seat, "reason": reason}
            for number, seat, reason in report.abandoned
        ],
        "seat_changes": [
            {"seat": seat, "before": before, "name": name, "from_hand": number}
            for seat, before, name, number in report.seat_changes
        ],
        "seats_back": [
            {"seat": seat, "before": before, "name": name, "from_hand": number}
            for seat, before, name, number in report.seats_back
        ],
        "table_code": None if report.code is None else code_summary(report.code),
        "failure": None
        if failure is None
        else {
            "index": failure.index,
            "seat": failure.seat,
            "reason": failure.reason,
            "text": failure_text(report),
        },
    }


def code_summary(code: TableCode) -> dict[str, str]:
    """The table code in every form a screen shows it (words per language, digits)."""
    return {"en": code.text("en"), "ru": code.text("ru"), "digits": code.digits}
