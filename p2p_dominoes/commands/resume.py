"""`p2p-dominoes resume`: come back to an unfinished table from its crash-safe log (or say that
the table never started)."""

from __future__ import annotations

import argparse

from p2p_dominoes.commands.command_language import command_language
from p2p_dominoes.commands.exits import UsageError
from p2p_dominoes.commands.peer_args import peer_options
from p2p_dominoes.commands.peer_run import run_peer, unfinished, with_input
from p2p_dominoes.net import PeerOptions
from p2p_dominoes.peer_text import peer_text
from p2p_dominoes.words import line


def _never_started(options: PeerOptions, name: str | None) -> str | None:
    """The line for `resume` when the latest table (the one named) never started: a seat was
    lost while its genesis was signed, and the table was set up again (`net/setup_lost.py`)."""
    from p2p_dominoes.net.setup_lost import NEVER_STARTED_PREFIX, setup_said
    from p2p_dominoes.store import list_tables

    assert options.data_dir is not None
    try:
        tables = list_tables(options.data_dir)
    except OSError:
        return None
    if name:
        wanted = name.casefold()
        tables = [
            t for t in tables if t.name.casefold() == wanted or t.table_id.hex().startswith(wanted)
        ]
    latest = tables[0] if tables else None
    if latest is None or not (latest.finish_reason or "").startswith(NEVER_STARTED_PREFIX):
        return None
    label = peer_text(latest.name or latest.table_id.hex()[:8], 64)
    return setup_said("never_started", str(getattr(options.ui, "lang", "en")), table=label)


def run_resume(args: argparse.Namespace) -> int:
    """`resume`: the one unfinished table (or the one named) taken up again from its log."""
    from p2p_dominoes.net import resume_table

    options = peer_options(args)
    if options.data_dir is None:
        raise UsageError(line("command.resume.bot_data_dir", command_language()))
    tables = unfinished(options.data_dir)
    if args.table:
        wanted = args.table.casefold()
        tables = [
            t for t in tables if t.name.casefold() == wanted or t.table_id.hex().startswith(wanted)
        ]
    if not tables:
        never = _never_started(options, args.table)
        if never is not None:
            raise UsageError(never)
        if args.table:
            raise UsageError(
                line("command.resume.none_called", command_language(), name=repr(args.table))
            )
        raise UsageError(line("command.resume.none", command_language()))
    if len(tables) > 1:
        names = ", ".join(t.name or t.table_id.hex()[:8] for t in tables)
        raise UsageError(line("command.resume.several", command_language(), names=names))
    directory = tables[0].directory

    async def main() -> int:
        return await with_input(options, lambda: resume_table(options, directory))

    return run_peer(main, options)
