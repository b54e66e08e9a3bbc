"""What every peer command (`host`, `join`, `resume`, `play`) takes on its command line, and the
peer's options made from it: name, identity, port, UI, data folder, rules."""

from __future__ import annotations

import argparse
import datetime
import os
import sys
from pathlib import Path

import trio

from p2p_dominoes.bots import BOTS, bot_named
from p2p_dominoes.commands.arguments import (
    NAME_HELP,
    PortBusy,
    data_folder,
    fitted_name,
    interface_address,
    language_argument,
    listening_port,
    output_file,
    player_name,
    port,
)
from p2p_dominoes.commands.command_language import command_language
from p2p_dominoes.commands.exits import UsageError
from p2p_dominoes.commands.peer_run import PENDING_INPUT
from p2p_dominoes.commands.rules_option import RulesOptionError, load_rules
from p2p_dominoes.engine import Rules
from p2p_dominoes.net import PeerOptions, split_host_port
from p2p_dominoes.net.join_code import JoinCodeError, parse_join_code
from p2p_dominoes.net.timing import Timing
from p2p_dominoes.session import Identity
from p2p_dominoes.store import IdentityFileError, data_dir, load_or_create_identity
from p2p_dominoes.ui.text import TextUI
from p2p_dominoes.words import line, reason_in

DEFAULT_PORT = 47800


def peer_arguments(parser: argparse.ArgumentParser) -> None:
    """What every peer command takes: name, port, interface, bot, UI, language, record, data
    folder, mDNS, timing."""
    parser.add_argument("--name", type=player_name, default=None, help=NAME_HELP)
    parser.add_argument(
        "--port",
        type=port,
        default=None,
        help=f"TCP port to listen on (default {DEFAULT_PORT}, or a free one when it is taken; "
        "a port given here must be free; 0: any free port)",
    )
    parser.add_argument(
        "--interface", type=interface_address, metavar="ADDR", help="use only this local address"
    )
    parser.add_argument(
        "--bot", metavar="STRATEGY", choices=sorted(BOTS), help="let a bot play this seat"
    )
    parser.add_argument("--ui", choices=("text", "none"), default="text")
    language_argument(parser)
    parser.add_argument(
        "--record", type=output_file, metavar="FILE", help="write the transcript here"
    )
    parser.add_argument(
        "--data-dir",
        type=data_folder,
        metavar="DIR",
        help="where your identity key and table logs are kept (a second peer on this machine "
        "needs its own)",
    )
    parser.add_argument("--no-mdns", action="store_true", help="do not use multicast discovery")
    parser.add_argument(
        "--identity-stdin", action="store_true", help=argparse.SUPPRESS
    )  # a bot started by a host: its key (hex) is the first line of standard input
    timing_argument(parser)


def timing_argument(parser: argparse.ArgumentParser) -> None:
    """`--timing FILE`: benchmark timestamps of this peer (and of the bots it starts)."""
    parser.add_argument(
        "--timing",
        type=output_file,
        metavar="FILE",
        help="for benchmarks: write timestamps of this peer's steps to FILE as JSON lines "
        "(bots started here write FILE.<bot name>)",
    )


def join_code(text: str) -> bytes:
    """`--code WORDS` → the code's bytes; a clear usage error otherwise."""
    try:
        return parse_join_code(text)
    except JoinCodeError as exc:
        raise argparse.ArgumentTypeError(
            line(
                "command.arg.not_join_code", command_language(), reason=exc.said(command_language())
            )
        ) from None


def host_and_port(text: str) -> tuple[str, int]:
    """`--connect HOST:PORT` → (host, port); a usage error with an example otherwise."""
    try:
        return split_host_port(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            line("command.arg.not_host_port", command_language(), typed=repr(text))
        ) from None


def data_dir_of(args: argparse.Namespace) -> Path:
    """The data folder: `--data-dir`, else the platform's default."""
    return data_dir(args.data_dir)


def _port(args: argparse.Namespace) -> int:
    """The port to listen on: an explicit --port must be free; the default falls back."""
    if args.command == "resume" or args.identity_stdin:
        return DEFAULT_PORT if args.port is None else int(args.port)
    try:
        return listening_port(args.port, DEFAULT_PORT, args.interface, "--port", print)
    except PortBusy as exc:
        raise UsageError(reason_in(exc, command_language())) from None


def peer_options(args: argparse.Namespace) -> PeerOptions:
    """The peer's options from its command line: identity (kept, given on stdin, or new for a
    throwaway bot), name, port, text UI, data folder, record, timing."""
    timing = None
    if args.timing is not None:
        try:
            timing = Timing(args.timing)
        except OSError as exc:
            raise UsageError(
                line(
                    "command.cannot_write",
                    command_language(),
                    path=args.timing,
                    error=exc.strerror or exc,
                )
            ) from None
        timing.mark("main")
    if args.identity_stdin:
        identity = _identity_from_stdin()
    elif args.bot is not None and args.data_dir is None:
        identity = Identity.generate()  # a bot needs no lasting identity
    else:
        try:
            identity = load_or_create_identity(data_dir_of(args))
        except (IdentityFileError, OSError) as exc:
            raise UsageError(reason_in(exc, command_language())) from None
    name = args.name or fitted_name(
        f"{args.bot}-bot" if args.bot else os.environ.get("USER", "player")
    )
    listen_port = _port(args)
    lines = None
    if args.bot is None or asks(args):
        send, lines = trio.open_memory_channel[str](16)
        PENDING_INPUT.append(send)
    ui = TextUI(args.lang, progress_only=args.ui == "none", lines=lines)
    keeps_records = args.bot is None or args.data_dir is not None
    return PeerOptions(
        name=name,
        identity=identity,
        ui=ui,
        data_dir=data_dir_of(args) if keeps_records else None,
        interface=args.interface,
        port=listen_port,
        bot=bot_named(args.bot) if args.bot else None,
        record=args.record,
        mdns=not args.no_mdns,
        timing=timing,
        leave_on_interrupt=args.bot is None and args.ui == "text",
        ask_go_on=ui.ask_go_on if args.bot is None and args.ui == "text" else None,
    )


def asks(args: argparse.Namespace) -> bool:
    """Whether `host` asks its person before seating a joiner (`--ask`/`--no-ask`; by default
    when a person plays at a terminal: `--ui text`, no `--bot`, standard input a terminal)."""
    ask = getattr(args, "ask", False)
    if ask is None:
        return args.ui == "text" and args.bot is None and _stdin_is_a_terminal()
    return bool(ask)


def _stdin_is_a_terminal() -> bool:
    try:
        return sys.stdin is not None and sys.stdin.isatty()
    except (OSError, ValueError):
        return False


def _identity_from_stdin() -> Identity:
    """The identity a host made for a bot it started (hex on the first line of stdin)."""
    text = sys.stdin.readline().strip()
    try:
        return Identity.from_private_bytes(bytes.fromhex(text))
    except ValueError:
        raise UsageError(line("command.peer.no_identity", command_language())) from None


def rules_of(args: argparse.Namespace) -> Rules:
    """The table's rules from --rules (a preset, a file, or a set saved on the rules page in
    the data folder); the host's calendar fills a weekday opener's day."""
    try:
        folder = data_dir(getattr(args, "data_dir", None))  # demo has no --data-dir
        return load_rules(args.rules, datetime.date.today(), folder)
    except RulesOptionError as exc:
        raise UsageError(reason_in(exc, command_language())) from None


def seat_number(text: str) -> int:
    """`--seat N` as people count (2–4) → the 0-based seat the lobby message carries."""
    if not text.isdigit() or not 2 <= int(text) <= 4:
        raise argparse.ArgumentTypeError(
            line("command.arg.not_seat", command_language(), typed=repr(text))
        )
    return int(text) - 1
