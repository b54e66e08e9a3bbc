"""The `p2p-dominoes` command line: one subcommand per job, each in its own module.

Exit status (also in the README): 0 done; 1 a record that fails verification (or a demo whose
table did not end cleanly); 2 bad usage or input, or something on this machine in the way (a
busy port, a missing folder), always with one line saying what to do; 3 a table stopped by
another peer (blame); 4 this machine's libsodium lets points outside the prime-order group
through (CVE-2025-69277), so no table is played or verified on it; 130 interrupted with Ctrl+C.
No command ends in a traceback: an error we did not foresee is one line too (exit 70, a bug;
``P2P_DOMINOES_TRACEBACK=1`` shows it).
"""

from __future__ import annotations

import argparse
import os
import sys
import traceback
from collections.abc import Sequence
from typing import Final, NoReturn

from p2p_dominoes import __version__
from p2p_dominoes.commands.argparse_words import language_of, speaking, usage_error
from p2p_dominoes.commands.command_language import command_language, speaking_in
from p2p_dominoes.commands.exits import (
    EXIT_BLAMED,
    EXIT_BUG,
    EXIT_CODES,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_UNSAFE_LIBRARY,
    EXIT_UNVERIFIED,
    EXIT_USAGE,
    Interrupted,
    UsageError,
    os_error_text,
    unexpected_text,
)
from p2p_dominoes.words import line


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line naming the command and pointing to --help, in
    the language the command line asks for (commands/argparse_words.py)."""

    def error(self, message: str) -> NoReturn:
        from p2p_dominoes.peer_text import peer_text

        # argparse repeats what was typed: no control characters or line breaks reach the
        # terminal from it.
        said = peer_text(message, 400)
        self.exit(EXIT_USAGE, usage_error(self.prog, said) + "\n")


def _build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="p2p-dominoes",
        description="Draw dominoes with friends on a local network.",
        epilog="Exit status: 0 done, 1 a record fails verification, 2 bad usage or input, "
        "3 a table stopped by another peer, 4 an unsafe libsodium, 130 interrupted (Ctrl+C).",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    from p2p_dominoes.commands import (
        bench,
        export,
        lan,
        play,
        replay,
        rules,
        simulate,
        verify,
    )

    for module in (play, lan, simulate, replay, verify, export, rules, bench):
        module.register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one subcommand and return its exit status; user errors never show a traceback."""
    words = sys.argv[1:] if argv is None else argv
    with speaking_in(language_of(words)):  # the CLI's own lines: commands/command_language.py
        return _main(argv)


def _main(argv: Sequence[str] | None) -> int:
    """`main` in the command line's language."""
    try:
        parser = _build_parser()
        with speaking(language_of(sys.argv[1:] if argv is None else argv)):
            args = parser.parse_args(argv)
    except (SystemExit, GeneratorExit):
        raise
    except BaseException as exc:  # while the command line is read: the same one line
        return _report(_label_of(sys.argv[1:] if argv is None else argv), exc, reading=True)
    label = f"p2p-dominoes {args.command}"
    try:
        if _needs_sound_group(args) and not _group_is_sound():
            print(f"{label}: {UNSAFE_LIBRARY_LINE}", file=sys.stderr)
            return EXIT_UNSAFE_LIBRARY
        status: int = args.run(args)
    except (SystemExit, GeneratorExit):
        raise
    except BaseException as exc:  # nurseries wrap errors in exception groups
        return _report(label, exc)
    return status


_CRYPTO_COMMANDS: Final = frozenset(
    {"play", "host", "join", "resume", "demo", "verify", "replay", "export"}
)
"""Commands that play or check a table: they rely on libsodium refusing every point outside the
prime-order group (`simulate` only with --secure)."""

UNSAFE_LIBRARY_LINE: Final = (
    "refusing to play: this machine's libsodium accepts points outside the prime-order group "
    "(CVE-2025-69277), so a tile could be tracked through the shuffles; install PyNaCl 1.6.2 "
    "or later (pip install -U pynacl)"
)


def _group_is_sound() -> bool:
    """The libsodium check; a library that cannot even run it counts as unsafe."""
    from p2p_dominoes.mental.group import subgroup_check_is_sound

    try:
        return subgroup_check_is_sound()
    except Exception:
        return False


def _needs_sound_group(args: argparse.Namespace) -> bool:
    """Whether this command plays, hosts, joins or verifies a secure table."""
    if args.command == "simulate":
        return bool(getattr(args, "secure", False))
    return args.command in _CRYPTO_COMMANDS


def _line(text: str) -> str:
    """One line of error text: what the user typed or a peer said may hold control characters
    and line breaks, which never reach the terminal."""
    from p2p_dominoes.peer_text import peer_text

    return peer_text(text, 1000)


def _label_of(argv: Sequence[str]) -> str:
    """`p2p-dominoes COMMAND` for the one line of an error met while the command line is read
    (argparse has accepted the command by then: the first word that is not an option)."""
    command = next((word for word in argv if not word.startswith("-")), "")
    return f"p2p-dominoes {_line(command)}".strip()


def _leaves(exc: BaseException) -> list[BaseException]:
    if isinstance(exc, BaseExceptionGroup):
        return [leaf for inner in exc.exceptions for leaf in _leaves(inner)]
    return [exc]


def _report(label: str, exc: BaseException, *, reading: bool = False) -> int:
    """Print the one line for an error that reached the top, and return its exit status.

    `reading`: raised while the command line was read, where a ValueError is a value the user
    typed that something refused (bad input, exit 2), not a bug."""
    leaves = _leaves(exc)
    kinds: tuple[type[BaseException], ...] = (
        UsageError,
        Interrupted,
        KeyboardInterrupt,
        BrokenPipeError,
        OSError,
    )
    if reading:
        kinds += (ValueError,)
    for kind in kinds:
        found = next((leaf for leaf in leaves if isinstance(leaf, kind)), None)
        if found is None:
            continue
        if isinstance(found, UsageError | ValueError):
            print(f"{label}: {_line(str(found))}", file=sys.stderr)
            return EXIT_USAGE
        if isinstance(found, Interrupted | KeyboardInterrupt):
            said = str(found) or line("command.peer.interrupted", command_language())
            print(f"\n{label}: {_line(said)}", file=sys.stderr)
            return EXIT_INTERRUPTED
        if isinstance(found, BrokenPipeError):
            return EXIT_OK
        assert isinstance(found, OSError)
        print(f"{label}: {_line(os_error_text(found))}", file=sys.stderr)
        return EXIT_USAGE
    if os.environ.get("P2P_DOMINOES_TRACEBACK"):
        traceback.print_exception(exc)
    first = leaves[0]
    print(f"{label}: {_line(unexpected_text(first))}", file=sys.stderr)
    return EXIT_BUG


__all__ = [
    "EXIT_BLAMED",
    "EXIT_BUG",
    "EXIT_CODES",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_UNSAFE_LIBRARY",
    "EXIT_UNVERIFIED",
    "EXIT_USAGE",
    "Interrupted",
    "UsageError",
    "main",
    "os_error_text",
]
