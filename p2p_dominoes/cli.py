"""The `p2p-dominoes` command line: one subcommand per job, each in its own module."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from p2p_dominoes import __version__


class UsageError(Exception):
    """Bad input from the user: printed as one line, exit status 2."""


def _build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="p2p-dominoes",
        description="Draw dominoes with friends on a local network.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    from p2p_dominoes.commands import bench, export, lan, play, replay, simulate, verify

    for module in (play, lan, simulate, replay, verify, export, bench):
        module.register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one subcommand and return its exit status; user errors never show a traceback."""
    parser = _build_parser()
    args = parser.parse_args(argv)
    try:
        status: int = args.run(args)
    except UsageError as exc:
        print(f"p2p-dominoes {args.command}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    return status
