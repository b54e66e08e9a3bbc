"""`p2p-dominoes host | join | tables | resume | demo`: play on the local network (the parsers;
`host`, `join` and `tables` here, `resume` and `demo` in their own modules)."""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from typing import Any, Final

from p2p_dominoes.bots import default_bot_name
from p2p_dominoes.commands.arguments import (
    fitted_name,
    int_between,
    interface_address,
    language_argument,
    output_file,
    player_name,
    seconds_between,
)
from p2p_dominoes.commands.command_language import command_language
from p2p_dominoes.commands.demo import run_demo
from p2p_dominoes.commands.exits import UsageError
from p2p_dominoes.commands.peer_args import (
    asks,
    host_and_port,
    join_code,
    peer_arguments,
    peer_options,
    rules_of,
    seat_number,
    timing_argument,
)
from p2p_dominoes.commands.peer_run import mention_unfinished, run_peer, with_input
from p2p_dominoes.commands.resume import run_resume
from p2p_dominoes.commands.rules_option import RULES_HELP, rules_argument
from p2p_dominoes.engine import FIELD
from p2p_dominoes.net import (
    DIAL_PATIENCE,
    DiscoveryError,
    PeerFailure,
    PeerOptions,
    Target,
    find_table,
    host_table,
    join_table,
)
from p2p_dominoes.net.join_code import new_join_code
from p2p_dominoes.peer_text import quoted
from p2p_dominoes.session.hand_messages import MAX_HANDS
from p2p_dominoes.ui.text import TextUI
from p2p_dominoes.words import line, phrase, plural, reason_in

STALL_BOUNDS: Final = FIELD["stall_timeout_s"].bounds
"""The stall timeout's bounds: its switch record's (the same for files, the wire and the page)."""


def register(commands: Any) -> None:
    """The `host`, `join`, `tables`, `resume` and `demo` commands, in this order."""
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
        type=join_code,
        metavar="WORDS",
        help="the join code joiners must give (3 words of the table-code list, or 3 numbers); "
        "by default a host that asks (--ask) makes one up and shows it",
    )
    coded.add_argument(
        "--no-code",
        action="store_true",
        help="ask no join code (a home network: only the people there can join)",
    )
    peer_arguments(host)
    host.set_defaults(run=run_host)

    join = commands.add_parser(
        "join",
        help="join a table on the local network and play",
        description="Join a table found on the local network, or at HOST:PORT.",
    )
    join.add_argument("table", nargs="?", help="table name (default: the only open table)")
    join.add_argument(
        "--connect",
        type=host_and_port,
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
        type=seat_number,
        default=None,
        metavar="N",
        help="ask for seat N (2–4; the host holds seat 1; default: any free seat). At a Kozel "
        "table seats 1+3 and 2+4 are partners",
    )
    join.add_argument(
        "--code",
        type=join_code,
        metavar="WORDS",
        help="the join code shown beside the host's table (3 words, English or Russian, or "
        "its 3 numbers)",
    )
    join.add_argument(
        "--take-seat", action="store_true", help=argparse.SUPPRESS
    )  # v4: a bot a peer started for a seat someone left (a handover on stdin: net/handover.py)
    peer_arguments(join)
    join.set_defaults(run=run_join)

    tables = commands.add_parser("tables", help="list the tables on the local network")
    tables.add_argument(
        "--timeout", type=seconds_between(0, 600), default=3.0, help="seconds to listen (≤ 600)"
    )
    tables.add_argument(
        "--interface", type=interface_address, metavar="ADDR", help="use only this local address"
    )
    tables.add_argument("--json", action="store_true")
    language_argument(tables)
    tables.set_defaults(run=run_tables)

    resume = commands.add_parser(
        "resume",
        help="come back to an unfinished table after a crash or a lost connection",
        description="Rebuild your seat at an unfinished table from its crash-safe log, find the "
        "other players again and catch up.",
    )
    resume.add_argument("table", nargs="?", help="table name or id prefix (default: the only one)")
    peer_arguments(resume)
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
    language_argument(demo)
    timing_argument(demo)
    demo.set_defaults(run=run_demo)


def run_host(args: argparse.Namespace) -> int:
    """`host`: open a table with the rules asked for, seat players and bots, play."""
    if args.hands is not None and not 1 <= args.hands <= MAX_HANDS:
        raise UsageError(line("command.hands_range", command_language(), most=MAX_HANDS))
    if not 0 <= args.bots <= args.players - 1:
        raise UsageError(
            line(
                "command.lan.bots_range",
                command_language(),
                most=args.players - 1,
                players=args.players,
            )
        )
    rules = rules_of(args)
    if args.stall_timeout is not None:
        low, high = STALL_BOUNDS
        if not low <= args.stall_timeout <= high:
            raise UsageError(
                line("command.lan.stall_range", command_language(), low=low, high=high)
            )
        rules = dataclasses.replace(rules, stall_timeout_s=args.stall_timeout)
    options = peer_options(args)
    mention_unfinished(options)
    table = args.table or fitted_name(f"{options.name}'s table")
    bot = args.bot or default_bot_name(rules)
    desk = options.ui if asks(args) and isinstance(options.ui, TextUI) else None
    # A person at the host: a join code unless turned off; no person: only one given.
    code = args.code or (new_join_code() if desk is not None and not args.no_code else None)

    async def main() -> int:
        return await with_input(
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

    return run_peer(main, options)


def run_join(args: argparse.Namespace) -> int:
    """`join`: find the table (by name over mDNS, or `--connect`), take a seat, play."""
    if args.connect and args.table:
        raise UsageError(line("command.lan.name_or_connect", command_language()))
    options = peer_options(args)
    if args.take_seat:
        return _take_seat(options)
    mention_unfinished(options)

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
        return await with_input(options, lambda: join_table(options, target))

    return run_peer(main, options)


def _take_seat(options: PeerOptions) -> int:
    """`join --take-seat`: the handover after the identity on standard input (`--bot` only)."""
    from p2p_dominoes.net.handover import Handover
    from p2p_dominoes.net.take_seat import take_seat_table

    if options.bot is None:
        raise UsageError(line("command.lan.take_seat_bot", command_language()))
    try:
        handover = Handover.decode(sys.stdin.readline())
    except ValueError as exc:
        lang = command_language()
        problem = reason_in(exc, lang)
        raise UsageError(
            line("command.where_problem", lang, where="--take-seat", problem=problem)
        ) from None

    async def main() -> int:
        return await take_seat_table(options, handover)

    return run_peer(main, options)


_OWN_TABLE: Final = (
    "that table is hosted with your own identity: a second peer on this machine shares the "
    "first one's data folder. Give it its own: --data-dir DIR (any empty folder)"
)


def run_tables(args: argparse.Namespace) -> int:
    """`tables`: list the tables advertised on the local network (or as JSON)."""
    from p2p_dominoes.net.discovery import MAX_TABLES_LISTED, browse_tables
    from p2p_dominoes.peer_text import peer_text

    if not 0 < args.timeout <= 600:
        raise UsageError(line("command.lan.timeout_range", command_language()))

    async def main() -> int:
        try:
            found = await browse_tables(args.timeout, interface=args.interface)
        except DiscoveryError as exc:
            raise PeerFailure(phrase("net.cannot_browse", reason=exc)) from None
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
            print(line("tables.none_found", command_language()))
        for row in rows if not args.json else []:
            print(_table_line(row, command_language()))
        if len(rows) >= MAX_TABLES_LISTED and not args.json:
            print(plural("tables.showing", MAX_TABLES_LISTED, command_language()))
        return 0

    return run_peer(main)


def _table_line(row: dict[str, object], lang: str) -> str:
    """One table of `tables` in `lang`: the names its host chose are quoted (its words, not
    ours: a name cannot pose as a fingerprint or another row), the rest is what the signed ad
    says (its rules and phase as the ad names them)."""
    addresses = row["addresses"]
    assert isinstance(addresses, list)
    return line(
        "tables.row",
        lang,
        table=quoted(row["table"], 64),
        host=quoted(row["host"], 64),
        fingerprint=row["fingerprint"],
        seats=row["seats"],
        rules=row["rules"],
        phase=row["phase"],
        id=str(row["table_id"])[:8],
        address=f"{', '.join(str(a) for a in addresses)}:{row['port']}",
    )
