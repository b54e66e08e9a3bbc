"""`p2p-dominoes export TRANSCRIPT --hand N`: the plain JSON record of one audited hand.

The transcript (or table log, or table folder) is verified first, as `verify` does; hand N must
have passed its end-of-hand audit. The record (protocol/records.md) names the players and is
what `replay` reads. Exit 0 when written, 1 when the transcript fails verification, 2 for bad
usage or input (one line on standard error).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
from pathlib import Path
from typing import Any

from p2p_dominoes.commands.arguments import language_argument, output_file
from p2p_dominoes.commands.command_language import command_language
from p2p_dominoes.commands.exits import UsageError
from p2p_dominoes.commands.verify import WHAT_IS_READ, read_record
from p2p_dominoes.commands.verify_words import failure_text
from p2p_dominoes.engine import HandRecord
from p2p_dominoes.session.events import Event, HandEnded
from p2p_dominoes.session.hand_messages import MAX_HANDS
from p2p_dominoes.session.verify import verify_transcript
from p2p_dominoes.words import line, plural


def register(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser(
        "export",
        help="write the plain JSON record of one audited hand (for replay)",
        description="Verify a transcript and write the plain JSON record (protocol/records.md) "
        "of one hand that passed its audit: the deal, the opener, every action, the players. "
        "`replay` reads it. Exit 0 when written, 1 when the transcript fails verification, 2 "
        "for bad usage or input.",
    )
    parser.add_argument("file", type=Path, help=WHAT_IS_READ)
    parser.add_argument("--hand", type=int, required=True, metavar="N", help="the hand, from 1")
    parser.add_argument(
        "--output", type=output_file, metavar="FILE", help="write FILE instead of standard output"
    )
    language_argument(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    lang = args.lang
    if not 1 <= args.hand <= MAX_HANDS:
        raise UsageError(line("command.export.hand_range", command_language(), most=MAX_HANDS))
    output: Path | None = args.output  # checked by output_file: a file in a folder that exists
    data, _ = read_record(args.file)
    ended: list[HandEnded] = []

    def keep(event: Event) -> None:
        if isinstance(event, HandEnded):
            ended.append(event)

    report = verify_transcript(data, on_event=keep)
    if not report.ok:
        failed = line("export.failed", lang, failure=failure_text(report, lang))
        print(f"{args.file}: {failed}", file=sys.stderr)
        return 1
    wanted = [e for e in ended if e.number == args.hand]
    if not wanted:
        audited = len(ended)
        raise UsageError(
            line(
                "command.export.no_hand",
                lang,
                path=args.file,
                hand=args.hand,
                holds=plural("export.audited_hands", audited, lang),
            )
        )
    text = record_json(wanted[0].record, report.names)
    if output is None:
        sys.stdout.write(text)
        return 0
    _write(output, text)
    print(
        line("export.written", lang, hand=args.hand, path=args.file, output=output),
        file=sys.stderr,
    )
    return 0


def record_json(record: HandRecord, names: tuple[str, ...]) -> str:
    """The record's JSON text (one object, players named), as protocol/records.md describes:
    one field a line, one action a line, so that a person can read and edit it."""
    fields = dataclasses.replace(record, players=names).to_dict()
    lines = []
    for key, value in fields.items():
        if key == "actions" and value:
            listed = ",\n".join(f"  {_compact(action)}" for action in value)
            lines.append(f' "{key}": [\n{listed}\n ]')
        else:
            lines.append(f" {_compact(key)}: {_compact(value)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def _compact(value: object) -> str:
    """One JSON value on one line (names as they are, not escaped)."""
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def _write(path: Path, text: str) -> None:
    """Write ``path`` whole or not at all: a temp file beside it, then a rename."""
    temporary = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        temporary.write_text(text, encoding="utf-8")
        temporary.replace(path)
    except OSError as exc:
        temporary.unlink(missing_ok=True)
        raise UsageError(
            line("command.cannot_write", command_language(), path=path, error=exc.strerror or exc)
        ) from None
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
