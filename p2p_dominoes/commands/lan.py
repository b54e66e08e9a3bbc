"""`p2p-dominoes host | join | tables | demo`: play on the local network."""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, Final, TypeVar

import trio

from p2p_dominoes.bots import BOTS, bot_named, default_bot_name
from p2p_dominoes.commands.arguments import (
    NAME_HELP,
    PortBusy,
    data_folder,
    fitted_name,
    int_between,
    interface_address,
    listening_port,
    output_file,
    player_name,
    port,
    seconds_between,
)
from p2p_dominoes.commands.exits import Interrupted, UsageError
from p2p_dominoes.commands.rules_option import (
    RULES_HELP,
    RulesOptionError,
    load_rules,
    rules_argument,
)
from p2p_dominoes.engine import FIELD, LANGUAGES, PRESETS, InvalidRecord, Rules
from p2p_dominoes.net.discovery import DiscoveryError
from p2p_dominoes.net.finding import find_table
from p2p_dominoes.net.join_code import JoinCodeError, new_join_code, parse_join_code
from p2p_dominoes.net.runtime import PeerFailure, PeerOptions
from p2p_dominoes.net.tables import (
    DIAL_PATIENCE,
    Target,
    host_table,
    join_table,
    split_host_port,
)
from p2p_dominoes.net.task_dump import with_task_dump
from p2p_dominoes.net.timing import Timing
from p2p_dominoes.peer_text import peer_text, quoted
from p2p_dominoes.session import Identity
from p2p_dominoes.session.hand_messages import MAX_HANDS
from p2p_dominoes.store import (
    IdentityFileError,
    RuleSetError,
    data_dir,
    discard_unfinished_writes,
    load_or_create_identity,
    save_rule_set,
)
from p2p_dominoes.ui.text import PlayerGone, TextUI

DEFAULT_PORT = 47800


def register(commands: Any) -> None:
    host = commands.add_parser(
        "host",
        help="open a table on the local network and play",
        description="Open a table, wait for players (and start bots for empty seats), play.",
    )
    host.add_argument(
        "--table", type=player_name, default=None, help="table name (default: NAME's table)"
    )
    host.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    host.add_argument(
        "--bots",
        type=int_between(0, 3),
        default=0,
        metavar="K",
        help="fill K seats with bot peers (at most PLAYERS-1)",
    )
    host.add_argument(
        "--rules", default="draw", type=rules_argument, metavar="NAME|FILE", help=RULES_HELP
    )
    host.add_argument(
        "--hands",
        type=int_between(1, MAX_HANDS),
        metavar="H",
        help=f"stop after H hands (1–{MAX_HANDS}), or sooner when the match reaches its target",
    )
    host.add_argument(
        "--stall-timeout",
        type=int_between(*STALL_BOUNDS),
        metavar="S",
        help="seconds before a silent seat is named as stalling (part of the table's rules)",
    )
    asking = host.add_mutually_exclusive_group()
    asking.add_argument(
        "--ask",
        dest="ask",
        action="store_true",
        default=None,
        help="ask before seating each joiner (the default at a terminal with --ui text, no --bot)",
    )
    asking.add_argument(
        "--no-ask",
        dest="ask",
        action="store_false",
        help="seat joiners as they come (the default with --ui none, --bot, or no terminal)",
    )
    coded = host.add_mutually_exclusive_group()
    coded.add_argument(
        "--code",
        type=_join_code,
        metavar="WORDS",
        help="the join code joiners must give (3 words of the table-code list, or 3 numbers); "
        "by default a host that asks (--ask) makes one up and shows it",
    )
    coded.add_argument(
        "--no-code",
        action="store_true",
        help="ask no join code (a home network: only the people there can join)",
    )
    _peer_arguments(host)
    host.set_defaults(run=run_host)

    join = commands.add_parser(
        "join",
        help="join a table on the local network and play",
        description="Join a table found on the local network, or at HOST:PORT.",
    )
    join.add_argument("table", nargs="?", help="table name (default: the only open table)")
    join.add_argument(
        "--connect",
        type=_host_and_port,
        metavar="HOST:PORT",
        help="join by address (no discovery)",
    )
    join.add_argument(
        "--dial-timeout",
        type=seconds_between(0, 600),
        default=DIAL_PATIENCE,
        metavar="S",
        help=f"give up dialling the host after S seconds (at most 600; default {DIAL_PATIENCE:g})",
    )
    join.add_argument(
        "--seat",
        type=_seat_number,
        default=None,
        metavar="N",
        help="ask for seat N (2–4; the host holds seat 1; default: any free seat). At a Kozel "
        "table seats 1+3 and 2+4 are partners",
    )
    join.add_argument(
        "--code",
        type=_join_code,
        metavar="WORDS",
        help="the join code shown beside the host's table (3 words, English or Russian, or "
        "its 3 numbers)",
    )
    _peer_arguments(join)
    join.set_defaults(run=run_join)

    tables = commands.add_parser("tables", help="list the tables on the local network")
    tables.add_argument(
        "--timeout", type=seconds_between(0, 600), default=3.0, help="seconds to listen (≤ 600)"
    )
    tables.add_argument(
        "--interface", type=interface_address, metavar="ADDR", help="use only this local address"
    )
    tables.add_argument("--json", action="store_true")
    tables.set_defaults(run=run_tables)

    resume = commands.add_parser(
        "resume",
        help="come back to an unfinished table after a crash or a lost connection",
        description="Rebuild your seat at an unfinished table from its crash-safe log, find the "
        "other players again and catch up.",
    )
    resume.add_argument("table", nargs="?", help="table name or id prefix (default: the only one)")
    _peer_arguments(resume)
    resume.set_defaults(run=run_resume)

    demo = commands.add_parser(
        "demo",
        help="bot peers as separate processes on this machine play over real TCP",
        description="Start N bot peers as separate processes bound to 127.0.0.1; they play over "
        "real TCP, and the record is verified at the end.",
    )
    demo.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    count = demo.add_mutually_exclusive_group()
    count.add_argument(
        "--hands",
        type=int_between(1, MAX_HANDS),
        metavar="H",
        help=f"stop after H hands, 1–{MAX_HANDS} (default 1), or sooner at the target",
    )
    count.add_argument("--match", action="store_true", help="play a whole match")
    demo.add_argument(
        "--rules", default="draw", type=rules_argument, metavar="NAME|FILE", help=RULES_HELP
    )
    demo.add_argument("--record", type=output_file, metavar="FILE", help="keep the transcript here")
    demo.add_argument("--lang", default="en", choices=LANGUAGES)
    _timing_argument(demo)
    demo.set_defaults(run=run_demo)


def _peer_arguments(parser: argparse.ArgumentParser) -> None:
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
    parser.add_argument("--lang", default="en", choices=LANGUAGES)
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
    _timing_argument(parser)


def _timing_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--timing",
        type=output_file,
        metavar="FILE",
        help="for benchmarks: write timestamps of this peer's steps to FILE as JSON lines "
        "(bots started here write FILE.<bot name>)",
    )


def _join_code(text: str) -> bytes:
    """`--code WORDS` → the code's bytes; a clear usage error otherwise."""
    try:
        return parse_join_code(text)
    except JoinCodeError as exc:
        raise argparse.ArgumentTypeError(f"not a join code: {exc}") from None


def _host_and_port(text: str) -> tuple[str, int]:
    try:
        return split_host_port(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not HOST:PORT (for example 192.168.1.20:47800 or [fd00::1]:47800)"
        ) from None


def _data_dir(args: argparse.Namespace) -> Path:
    return data_dir(args.data_dir)


def _port(args: argparse.Namespace) -> int:
    """The port to listen on: an explicit --port must be free; the default falls back."""
    if args.command == "resume" or args.identity_stdin:
        return DEFAULT_PORT if args.port is None else int(args.port)
    try:
        return listening_port(args.port, DEFAULT_PORT, args.interface, "--port", print)
    except PortBusy as exc:
        raise UsageError(str(exc)) from None


def _options(args: argparse.Namespace) -> PeerOptions:
    timing = None
    if args.timing is not None:
        try:
            timing = Timing(args.timing)
        except OSError as exc:
            raise UsageError(f"cannot write {args.timing}: {exc.strerror or exc}") from None
        timing.mark("main")
    if args.identity_stdin:
        identity = _identity_from_stdin()
    elif args.bot is not None and args.data_dir is None:
        identity = Identity.generate()  # a bot needs no lasting identity
    else:
        try:
            identity = load_or_create_identity(_data_dir(args))
        except (IdentityFileError, OSError) as exc:
            raise UsageError(str(exc)) from None
    name = args.name or fitted_name(
        f"{args.bot}-bot" if args.bot else os.environ.get("USER", "player")
    )
    listen_port = _port(args)
    lines = None
    if args.bot is None or _asks(args):
        send, lines = trio.open_memory_channel[str](16)
        _PENDING_INPUT.append(send)
    ui = TextUI(args.lang, progress_only=args.ui == "none", lines=lines)
    keeps_records = args.bot is None or args.data_dir is not None
    return PeerOptions(
        name=name,
        identity=identity,
        ui=ui,
        data_dir=_data_dir(args) if keeps_records else None,
        interface=args.interface,
        port=listen_port,
        bot=bot_named(args.bot) if args.bot else None,
        record=args.record,
        mdns=not args.no_mdns,
        timing=timing,
    )


def _asks(args: argparse.Namespace) -> bool:
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
    line = sys.stdin.readline().strip()
    try:
        return Identity.from_private_bytes(bytes.fromhex(line))
    except ValueError:
        raise UsageError("--identity-stdin: standard input holds no identity key") from None


_PENDING_INPUT: list[trio.MemorySendChannel[str]] = []
"""Where the stdin reader puts the player's lines (one per process)."""


def _run_peer(main: Callable[[], Awaitable[int]], options: PeerOptions | None = None) -> int:
    """Run a peer; its PeerFailure becomes one line for the user, Ctrl+C one line saying how
    to come back (exit status 130)."""
    before = _unfinished_ids(options)
    try:
        # Ctrl+C reaches the main task at a checkpoint, never in the middle of some task's code,
        # where a handler of that task could take it for its own failure and carry on.
        return trio.run(with_task_dump(main), restrict_keyboard_interrupt_to_checkpoints=True)
    except BaseException as exc:  # nurseries wrap errors in exception groups
        failure = _first(exc, PeerFailure) or _first(exc, PlayerGone)
        if failure is not None:
            raise UsageError(peer_text(str(failure), 400)) from None
        discovery = _first(exc, DiscoveryError)
        if discovery is not None:
            raise UsageError(_discovery_text(discovery)) from None
        if _first(exc, KeyboardInterrupt) is not None:
            # A second Ctrl+C now (a person pressing twice) must not lose the line that says
            # how to come back: it takes a moment to read the table logs.
            previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
            try:
                if options is not None and options.record is not None:
                    discard_unfinished_writes(options.record)
                line = _come_back(options, before)
            finally:
                signal.signal(signal.SIGINT, previous)
            raise Interrupted(line) from None
        raise


def _discovery_text(exc: DiscoveryError) -> str:
    return (
        f"cannot look for tables on the local network: {exc}. Join by address instead: "
        "p2p-dominoes join --connect HOST:PORT (the host's screen shows it)"
    )


def _unfinished_ids(options: PeerOptions | None) -> set[bytes]:
    if options is None or options.data_dir is None:
        return set()
    return {t.table_id for t in _unfinished(options.data_dir)}


def _come_back(options: PeerOptions | None, before: set[bytes]) -> str:
    """The line after Ctrl+C: how to come back to the table, if it was kept."""
    if options is None:
        return "interrupted"
    if options.data_dir is None:
        return "interrupted; this bot kept no table log, so there is nothing to resume"
    tables = _unfinished(options.data_dir)
    if not tables:
        return "interrupted before the game began: nothing to resume"
    command = "p2p-dominoes resume"
    if options.data_dir != data_dir(None):
        command += f" --data-dir {_quoted(str(options.data_dir))}"
    new = [t for t in tables if t.table_id not in before] or tables
    if len(tables) > 1:
        table = new[-1]
        command += f" {_quoted(table.name or table.table_id.hex()[:8])}"
    return f"interrupted; your seat is kept: come back to the table with: {command}"


def _quoted(text: str) -> str:
    import shlex

    return shlex.quote(text)


_E = TypeVar("_E", bound=BaseException)


def _first(exc: BaseException, kind: type[_E]) -> _E | None:
    if isinstance(exc, kind):
        return exc
    if isinstance(exc, BaseExceptionGroup):
        for inner in exc.exceptions:
            found = _first(inner, kind)
            if found is not None:
                return found
    return None


async def _stdin_lines(send: trio.MemorySendChannel[str]) -> None:
    """Feed the player's typed lines to the game (the terminal UI reads from here)."""
    stream = trio.lowlevel.FdStream(os.dup(sys.stdin.fileno()))
    buffer = b""
    async with send, stream:
        while True:
            chunk = await stream.receive_some(4096)
            if not chunk:
                return
            buffer += chunk
            while b"\n" in buffer:
                line, buffer = buffer.split(b"\n", 1)
                await send.send(line.decode("utf-8", "replace"))


async def _with_input(options: PeerOptions, play: Callable[[], Awaitable[int]]) -> int:
    """Run `play`, feeding the player's typed lines to the text UI when a person plays."""
    if not _PENDING_INPUT:
        return await play()
    send = _PENDING_INPUT.pop()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(_stdin_lines, send)
        status = await play()
        nursery.cancel_scope.cancel()
    return status


def _unfinished(data: Path) -> list[Any]:
    from p2p_dominoes.store import list_tables

    try:
        return [t for t in list_tables(data) if not t.finished and t.problem is None]
    except OSError:
        return []


def _mention_unfinished(options: PeerOptions) -> None:
    if options.data_dir is None:
        return
    for table in _unfinished(options.data_dir)[:3]:
        label = table.name or table.table_id.hex()[:8]
        options.say(
            f"Unfinished table '{label}' (seat {table.seat + 1}): p2p-dominoes resume {label!r}"
        )


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
    from p2p_dominoes.net.tables import resume_table

    options = _options(args)
    if options.data_dir is None:
        raise UsageError("a bot resumes only with the --data-dir it played with")
    tables = _unfinished(options.data_dir)
    if args.table:
        wanted = args.table.casefold()
        tables = [
            t for t in tables if t.name.casefold() == wanted or t.table_id.hex().startswith(wanted)
        ]
    if not tables:
        never = _never_started(options, args.table)
        if never is not None:
            raise UsageError(never)
        raise UsageError(
            "no unfinished table to resume" + (f" called {args.table!r}" if args.table else "")
        )
    if len(tables) > 1:
        names = ", ".join(t.name or t.table_id.hex()[:8] for t in tables)
        raise UsageError(f"several unfinished tables ({names}): name one")
    directory = tables[0].directory

    async def main() -> int:
        return await _with_input(options, lambda: resume_table(options, directory))

    return _run_peer(main, options)


def _rules(args: argparse.Namespace) -> Rules:
    """The table's rules from --rules (a preset, a file, or a set saved on the rules page in
    the data folder); the host's calendar fills a weekday opener's day."""
    try:
        folder = data_dir(getattr(args, "data_dir", None))  # demo has no --data-dir
        return load_rules(args.rules, datetime.date.today(), folder)
    except RulesOptionError as exc:
        raise UsageError(str(exc)) from None


def run_host(args: argparse.Namespace) -> int:
    if args.hands is not None and not 1 <= args.hands <= MAX_HANDS:
        raise UsageError(f"--hands must be 1–{MAX_HANDS}")
    if not 0 <= args.bots <= args.players - 1:
        raise UsageError(f"--bots must be 0–{args.players - 1} for {args.players} players")
    rules = _rules(args)
    if args.stall_timeout is not None:
        low, high = STALL_BOUNDS
        if not low <= args.stall_timeout <= high:
            raise UsageError(f"--stall-timeout must be {low}–{high} seconds")
        rules = dataclasses.replace(rules, stall_timeout_s=args.stall_timeout)
    options = _options(args)
    _mention_unfinished(options)
    table = args.table or fitted_name(f"{options.name}'s table")
    bot = args.bot or default_bot_name(rules)
    desk = options.ui if _asks(args) and isinstance(options.ui, TextUI) else None
    # A person at the host: a join code unless turned off; no person: only one given.
    code = args.code or (new_join_code() if desk is not None and not args.no_code else None)

    async def main() -> int:
        return await _with_input(
            options,
            lambda: host_table(
                options,
                table_name=table,
                rules=rules,
                players=args.players,
                bots=args.bots,
                bot_strategy=bot,
                hands=args.hands,
                desk=desk,
                join_code=code,
            ),
        )

    return _run_peer(main, options)


def _seat_number(text: str) -> int:
    """`--seat N` as people count (2–4) → the 0-based seat the lobby message carries."""
    if not text.isdigit() or not 2 <= int(text) <= 4:
        raise argparse.ArgumentTypeError(f"a seat is 2, 3 or 4 (1 is the host's), not {text!r}")
    return int(text) - 1


def run_join(args: argparse.Namespace) -> int:
    if args.connect and args.table:
        raise UsageError("give a table name or --connect HOST:PORT, not both")
    options = _options(args)
    _mention_unfinished(options)

    async def main() -> int:
        if args.connect:
            host, port_number = args.connect
            target = Target(
                (host,), port_number, None, args.dial_timeout, seat=args.seat, code=args.code
            )
        else:
            found = await find_table(
                args.table, interface=args.interface, timeout=10.0, lang=args.lang
            )
            target = dataclasses.replace(
                found, patience=args.dial_timeout, seat=args.seat, code=args.code
            )
            if target.note:
                print(target.note, flush=True)
            if target.expect == options.identity.public.fingerprint:
                raise PeerFailure(_OWN_TABLE)
        return await _with_input(options, lambda: join_table(options, target))

    return _run_peer(main, options)


_OWN_TABLE: Final = (
    "that table is hosted with your own identity: a second peer on this machine shares the "
    "first one's data folder. Give it its own: --data-dir DIR (any empty folder)"
)


def run_tables(args: argparse.Namespace) -> int:
    from p2p_dominoes.net.discovery import MAX_TABLES_LISTED, browse_tables
    from p2p_dominoes.peer_text import peer_text

    if not 0 < args.timeout <= 600:
        raise UsageError("--timeout must be between 0 and 600 seconds")

    async def main() -> int:
        try:
            found = await browse_tables(args.timeout, interface=args.interface)
        except DiscoveryError as exc:
            raise PeerFailure(f"cannot look for tables on the local network: {exc}") from None
        rows = [
            {
                "table": peer_text(t.info.table_name, 64),
                "host": peer_text(t.info.player_name, 64),
                "fingerprint": t.info.fingerprint,
                "seats": f"{t.info.seats_taken}/{t.info.seats_total}",
                "rules": t.info.rules,
                "phase": t.info.phase,
                "addresses": list(t.addresses),
                "port": t.port,
                "table_id": t.info.table_id.hex(),
            }
            for t in found
        ]
        if args.json:
            print(json.dumps(rows))
        elif not rows:
            print(
                "No tables found. Are you on the same Wi-Fi? Guest networks and AP isolation hide "
                "peers; a firewall or VPN can too. Try: p2p-dominoes join --connect HOST:PORT"
            )
        for row in rows if not args.json else []:
            print(_table_line(row))
        if len(rows) >= MAX_TABLES_LISTED and not args.json:
            print(f"(showing {MAX_TABLES_LISTED}: join a table by its id or host fingerprint)")
        return 0

    return _run_peer(main)


def _table_line(row: dict[str, object]) -> str:
    """One table of `tables`: the names its host chose are quoted (its words, not ours: a name
    cannot pose as a fingerprint or another row), the rest is what the signed ad says."""
    addresses = row["addresses"]
    assert isinstance(addresses, list)
    return (
        f"{quoted(row['table'], 64)}  host {quoted(row['host'], 64)} ({row['fingerprint']})  "
        f"seats {row['seats']}  {row['rules']}  {row['phase']}  "
        f"id {str(row['table_id'])[:8]}  "
        f"{', '.join(str(a) for a in addresses)}:{row['port']}"
    )


def run_demo(args: argparse.Namespace) -> int:
    """A host process with N−1 bot peers (its own child processes) on 127.0.0.1, then verify.

    Every peer keeps its table log in a temporary data folder (the host's, its bots' under it),
    so a demo stopped by Ctrl-C or a kill comes back with the `resume` line printed then; the
    folder is removed once the record verifies. Nothing is written next to `--record FILE`.
    Without `--record` nothing is kept: the temporary folder goes however the demo ends.
    """
    rules = _rules(args)
    try:
        rules.check_players(args.players)  # one clear line before any process
    except InvalidRecord as exc:
        raise UsageError(str(exc)) from None
    if args.record is not None:
        data = Path(tempfile.mkdtemp(prefix="p2p-dominoes-demo-data-"))
        return _demo(args, rules, args.record, data, kept=True)
    scratch = Path(tempfile.mkdtemp(prefix="p2p-dominoes-demo-"))
    try:
        return _demo(args, rules, scratch / "demo.p2pd", scratch / "data", kept=False)
    except Interrupted:
        raise Interrupted(f"interrupted; {_NOTHING_KEPT}") from None
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


STALL_BOUNDS: Final = FIELD["stall_timeout_s"].bounds
"""The stall timeout's bounds: its switch record's (the same for files, the wire and the page)."""
_NOTHING_KEPT: Final = "a demo without --record keeps nothing (--record FILE keeps its transcript)"


def _demo(args: argparse.Namespace, rules: Rules, record: Path, data: Path, kept: bool) -> int:
    """Play and verify the demo's table: its transcript in `record`, its logs in `data`;
    `kept`: the user asked for the record (else both go when the demo ends)."""
    hands = None if args.match else (args.hands or 1)
    if args.rules not in PRESETS and not Path(args.rules).is_file():
        try:  # the host finds the saved set in its own folder
            save_rule_set(data, args.rules, rules.to_dict())
        except RuleSetError as exc:
            raise UsageError(f"--rules {args.rules}: {exc}") from None
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
    print(f"Starting {args.players} bot peers on 127.0.0.1 …", flush=True)
    if kept:
        print(f"(their table logs are kept in {data} until the record verifies)", flush=True)
    come_back = (
        f"to finish it: p2p-dominoes resume --data-dir {data} --bot random --ui none "
        f"--record {record}"
        if kept
        else _NOTHING_KEPT
    )
    status = _run_demo_host(command, record, data, come_back)
    if status != 0:
        print(f"the demo table stopped with status {status}; {come_back}", file=sys.stderr)
        return 1
    from p2p_dominoes.commands.verify import match_state, read_file
    from p2p_dominoes.engine import scores_text
    from p2p_dominoes.session.verify import verify_transcript

    report = verify_transcript(read_file(record))
    elapsed = time.monotonic() - started
    checked = f"verify {record}" if kept else "verify"  # a file that is not kept is not named
    if report.failure is not None:
        print(f"{checked}: {report.failure}")
        return 1
    shutil.rmtree(data, ignore_errors=True)
    print(
        f"{checked}: clean — {report.messages} messages, {report.hands} hand(s) audited, "
        f"{match_state(report)}, scores {scores_text(report.scores, report.names)} "
        f"({elapsed:.1f} s in all)"
    )
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
    record file beside `record`."""
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
        if _demo_finished(data):
            shutil.rmtree(data, ignore_errors=True)
            raise Interrupted(
                f"interrupted after the table had finished; the record is in {record} "
                f"(check it with: p2p-dominoes verify {record})"
            ) from None
        kept = f"; the record so far is in {record}" if record.is_file() else ""
        raise Interrupted(f"interrupted{kept}; {come_back}") from None
