"""`p2p-dominoes demo`: a host process with N−1 bot peers on 127.0.0.1 play over real TCP; the
record is verified at the end, and Ctrl+C stops the processes cleanly."""

from __future__ import annotations

import argparse
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Final

from p2p_dominoes.bots import default_bot_name
from p2p_dominoes.commands.command_language import command_language
from p2p_dominoes.commands.exits import Interrupted, UsageError
from p2p_dominoes.commands.peer_args import rules_of
from p2p_dominoes.engine import PRESETS, InvalidRecord, Rules
from p2p_dominoes.store import RuleSetError, discard_unfinished_writes, save_rule_set
from p2p_dominoes.words import line, plural, reason_in


def run_demo(args: argparse.Namespace) -> int:
    """A host process with N−1 bot peers (its own child processes) on 127.0.0.1, then verify.

    Every peer keeps its table log in a temporary data folder (the host's, its bots' under it),
    so a demo stopped by Ctrl-C or a kill comes back with the `resume` line printed then; the
    folder is removed once the record verifies. Nothing is written next to `--record FILE`.
    Without `--record` nothing is kept: the temporary folder goes however the demo ends.
    """
    rules = rules_of(args)
    try:
        rules.check_players(args.players)  # one clear line before any process
    except InvalidRecord as exc:
        raise UsageError(reason_in(exc, args.lang)) from None
    if args.record is not None:
        data = Path(tempfile.mkdtemp(prefix="p2p-dominoes-demo-data-"))
        return _demo(args, rules, args.record, data, kept=True)
    scratch = Path(tempfile.mkdtemp(prefix="p2p-dominoes-demo-"))
    try:
        return _demo(args, rules, scratch / "demo.p2pd", scratch / "data", kept=False)
    except Interrupted:
        nothing_kept = line("verify.demo_nothing_kept", args.lang)
        raise Interrupted(line("verify.demo_interrupted", args.lang, then=nothing_kept)) from None
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _demo(args: argparse.Namespace, rules: Rules, record: Path, data: Path, kept: bool) -> int:
    """Play and verify the demo's table: its transcript in `record`, its logs in `data`;
    `kept`: the user asked for the record (else both go when the demo ends)."""
    hands = None if args.match else (args.hands or 1)
    if args.rules not in PRESETS and not Path(args.rules).is_file():
        try:  # the host finds the saved set in its own folder
            save_rule_set(data, args.rules, rules.to_dict())
        except RuleSetError as exc:
            where = f"--rules {args.rules}"
            problem = reason_in(exc, args.lang)
            raise UsageError(
                line("command.where_problem", args.lang, where=where, problem=problem)
            ) from None
    command = [
        sys.executable,
        "-m",
        "p2p_dominoes",
        "host",
        "--name",
        "bot-0",
        "--bot",
        default_bot_name(rules),
        "--players",
        str(args.players),
        "--bots",
        str(args.players - 1),
        "--rules",
        args.rules,
        "--interface",
        "127.0.0.1",
        "--port",
        "0",
        "--no-mdns",
        "--record",
        str(record),
        "--lang",
        args.lang,
        "--data-dir",
        str(data),
    ]
    if hands is not None:
        command += ["--hands", str(hands)]
    if args.timing is not None:
        command += ["--timing", str(args.timing)]
    started = time.monotonic()
    lang = args.lang
    print(plural("verify.demo_starting", args.players, lang), flush=True)
    if kept:
        print(line("verify.demo_logs_kept", lang, data=data), flush=True)
    come_back = (
        line("verify.demo_come_back", lang, data=data, record=record)
        if kept
        else line("verify.demo_nothing_kept", lang)
    )
    status = _run_demo_host(command, record, data, come_back)
    if status != 0:
        print(line("verify.demo_stopped", lang, status=status, then=come_back), file=sys.stderr)
        return 1
    from p2p_dominoes.commands.verify import read_file
    from p2p_dominoes.commands.verify_words import failure_line, match_state
    from p2p_dominoes.engine import scores_text
    from p2p_dominoes.session.verify import verify_transcript

    report = verify_transcript(read_file(record))
    elapsed = time.monotonic() - started
    checked = f"verify {record}" if kept else "verify"  # a file that is not kept is not named
    if report.failure is not None:
        print(f"{checked}: {failure_line(report.failure, lang=args.lang)}")
        return 1
    shutil.rmtree(data, ignore_errors=True)
    summary = line(
        "verify.demo_summary",
        args.lang,
        checked=checked,
        messages=report.messages,
        hands=report.hands,
        state=match_state(report, args.lang),
        scores=scores_text(report.scores, report.names),
        seconds=f"{elapsed:.1f}",
    )
    print(summary)
    return 0


DEMO_STOP_WAIT: Final = 15.0
"""Seconds `demo` waits, after Ctrl+C, for its host process to stop by itself (it writes the
record), before it is asked again and then terminated."""


def _demo_finished(data: Path) -> bool:
    """The demo's table log says its table is over (and nothing in `data` is unfinished or
    damaged): not merely a record file there, which may be a previous game's."""
    from p2p_dominoes.store import list_tables

    try:
        tables = list_tables(data)
    except OSError:
        return False
    return bool(tables) and all(t.finished and t.problem is None for t in tables)


def _run_demo_host(command: list[str], record: Path, data: Path, come_back: str) -> int:
    """Run the demo's host process; on Ctrl+C let it (and its bots, which the terminal's Ctrl+C
    reaches too) stop cleanly, never killing it mid-write, so its table logs in `data` stay
    whole for `come_back` (said only if the table is unfinished); and leave no half-written
    record file beside `record`. The line Ctrl+C ends with is in the command line's language."""
    process = subprocess.Popen(command)  # noqa: S603 - our own interpreter and module
    try:
        return process.wait()
    except KeyboardInterrupt:
        for stop in (None, signal.SIGINT, signal.SIGTERM, signal.SIGKILL):
            if stop is not None:
                process.send_signal(stop)
            try:
                process.wait(timeout=DEMO_STOP_WAIT)
                break
            except subprocess.TimeoutExpired:
                continue
            except KeyboardInterrupt:  # pressed again: stop it now
                process.kill()
                process.wait()
                break
        discard_unfinished_writes(record)
        lang = command_language()  # this command line's --lang, as `come_back`'s
        if _demo_finished(data):
            shutil.rmtree(data, ignore_errors=True)
            raise Interrupted(
                line("verify.demo_interrupted_finished", lang, record=record)
            ) from None
        if record.is_file():
            said = line("verify.demo_interrupted_record", lang, record=record, then=come_back)
        else:
            said = line("verify.demo_interrupted", lang, then=come_back)
        raise Interrupted(said) from None
