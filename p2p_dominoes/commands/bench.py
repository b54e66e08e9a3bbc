"""`p2p-dominoes bench engine|crypto|session|lan|bots`: print figures, never assert timings."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any, Final

from p2p_dominoes.benchmarks import SAMPLES, START_MOVE
from p2p_dominoes.bots import BOTS, Bot
from p2p_dominoes.commands.arguments import int_between, language_argument, seconds_between
from p2p_dominoes.commands.command_language import command_language
from p2p_dominoes.commands.rules_option import RULES_HELP
from p2p_dominoes.words import line, reason_in

if TYPE_CHECKING:
    from p2p_dominoes.engine import Rules

ALPHABETA: Final = "alphabeta"
"""`--against alphabeta`: the PyPI package `dominoes`'s player (benchmarks/alphabeta.py)."""
THINKING_LEVELS: Final = ("hard", "expert")
"""The bots whose seconds per decision `--think-ms` caps."""


def register(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser(
        "bench", help="measure the engine, the cryptography or whole sessions and print figures"
    )
    which = parser.add_subparsers(dest="bench", metavar="WHAT", required=True)

    engine = which.add_parser("engine", help="complete hands per second against `dominoes`")
    engine.add_argument(
        "--seconds",
        type=seconds_between(0, 3600),
        default=3.0,
        help="time per measurement (at most 3600)",
    )
    engine.add_argument("--json", action="store_true", help="print one JSON object")
    language_argument(engine)
    engine.set_defaults(run=_run_engine)

    crypto = which.add_parser("crypto", help="verified shuffle and deal against naive SRA")
    crypto.add_argument(
        "--players",
        type=int,
        action="append",
        choices=(2, 3, 4),
        help="seat count to measure (repeatable; default 2, 3 and 4)",
    )
    crypto.add_argument("--no-baseline", action="store_true", help="skip the slow SRA baseline")
    crypto.add_argument("--json", action="store_true", help="print one JSON object")
    language_argument(crypto)
    crypto.set_defaults(run=_run_crypto)

    session = which.add_parser(
        "session", help="CPU per hand through the full protocol, all peers in one process"
    )
    session.add_argument(
        "--players",
        type=int,
        action="append",
        choices=(2, 3, 4),
        help="seat count to measure (repeatable; default 2, 3 and 4)",
    )
    session.add_argument(
        "--hands",
        type=int_between(1, 1000),
        default=3,
        metavar="H",
        help="hands per seat count, 1–1000 (default 3)",
    )
    session.add_argument("--json", action="store_true", help="print one JSON object")
    language_argument(session)
    session.set_defaults(run=_run_session)

    lan = which.add_parser(
        "lan",
        help="action latency, hand time and start-up over TCP on 127.0.0.1, a process per peer",
    )
    lan.add_argument("--players", type=int, default=4, choices=(2, 3, 4), help="seats (default 4)")
    lan.add_argument(
        "--hands",
        type=int_between(1, 1000),
        default=3,
        metavar="H",
        help="hands to play, 1–1000 (default 3)",
    )
    lan.add_argument("--json", action="store_true", help="print one JSON object")
    language_argument(lan)
    lan.set_defaults(run=_run_lan)

    bots = which.add_parser(
        "bots", help="bot A against bot B over many hands: hands and matches won, 95 %% intervals"
    )
    bots.add_argument(
        "--rules", metavar="NAME|FILE", help=f"{RULES_HELP} (default draw; block with alphabeta)"
    )
    bots.add_argument(
        "--players", type=int, choices=(2, 3, 4), help="seats (default 2; 4 with alphabeta)"
    )
    bots.add_argument("--bot", default="greedy", choices=sorted(BOTS), help="bot A (one seat)")
    bots.add_argument(
        "--against",
        default="random",
        choices=[*sorted(BOTS), ALPHABETA],
        help="bot B (every other seat); alphabeta: the PyPI package dominoes's player, "
        "a pair against A's pair in 4-player block",
    )
    bots.add_argument(
        "--think-ms",
        type=int_between(1, 60_000),
        metavar="MS",
        help="stop bot A's search after about MS milliseconds a decision (hard and expert only)",
    )
    bots.add_argument(
        "--samples",
        type=int_between(1, 1000),
        metavar="N",
        help=f"alphabeta: deals it searches per decision (default {SAMPLES})",
    )
    bots.add_argument(
        "--start-move",
        type=int_between(0, 100),
        metavar="S",
        help=f"alphabeta: moves played before it searches (default {START_MOVE})",
    )
    bots.add_argument(
        "--hands",
        type=int_between(1, 1_000_000),
        default=2000,
        metavar="H",
        help="hands to play, 1–1,000,000 (default 2000)",
    )
    bots.add_argument(
        "--matches",
        type=int_between(1, 100_000),
        metavar="M",
        help="play M whole matches instead of --hands hands (seats alternating each match)",
    )
    bots.add_argument("--seed", type=int_between(0, 2**64 - 1), default=1, help="random seed")
    bots.add_argument("--json", action="store_true", help="print one JSON object")
    language_argument(bots)
    bots.set_defaults(run=_run_bots)


def _run_bots(args: argparse.Namespace) -> int:
    from p2p_dominoes.benchmarks.bots import run_bots_bench

    bot = _bot_a(args)
    settings: dict[str, object] = {} if args.think_ms is None else {"think_ms": args.think_ms}
    if args.against == ALPHABETA:
        return _run_alphabeta(args, bot, settings)
    _refuse_alphabeta_options(args)
    rules = _bench_rules(args.rules or "draw", args.players or 2)
    return run_bots_bench(
        rules,
        args.players or 2,
        bot,
        (args.against, BOTS[args.against]),
        args.hands,
        args.seed,
        as_json=args.json,
        settings=settings,
        matches=args.matches,
        lang=args.lang,
    )


def _bot_a(args: argparse.Namespace) -> tuple[str, Bot]:
    """Bot A by name, its seconds per decision replaced by `--think-ms` (hard, expert)."""
    from p2p_dominoes.bots.levels import LEVEL_BUDGETS, Budget, level_bot
    from p2p_dominoes.commands.exits import UsageError

    if args.think_ms is None:
        return (args.bot, BOTS[args.bot])
    if args.bot not in THINKING_LEVELS:
        raise UsageError(line("command.bench.think_ms", args.lang, bot=args.bot))
    samples = LEVEL_BUDGETS[args.bot].samples
    return (args.bot, level_bot(args.bot, Budget(samples, args.think_ms / 1000)))


def _refuse_alphabeta_options(args: argparse.Namespace) -> None:
    from p2p_dominoes.commands.exits import UsageError

    for option, value in (("--samples", args.samples), ("--start-move", args.start_move)):
        if value is not None:
            raise UsageError(line("command.bench.alphabeta_only", args.lang, option=option))


def _bench_rules(name: str, players: int) -> Rules:
    """The rules `--rules` names, checked for `players` seats (a usage error otherwise)."""
    import datetime

    from p2p_dominoes.commands.exits import UsageError
    from p2p_dominoes.commands.rules_option import RulesOptionError, load_rules
    from p2p_dominoes.engine import InvalidRecord
    from p2p_dominoes.store import data_dir

    try:
        rules = load_rules(name, datetime.date.today(), data_dir())
        rules.check_players(players)
    except (RulesOptionError, InvalidRecord) as exc:
        raise UsageError(reason_in(exc, command_language())) from None
    return rules


def _run_alphabeta(
    args: argparse.Namespace, bot: tuple[str, Bot], settings: dict[str, object]
) -> int:
    from p2p_dominoes.benchmarks.alphabeta import run_alphabeta_bench
    from p2p_dominoes.commands.exits import UsageError

    if args.players not in (None, 4):
        raise UsageError(line("command.bench.alphabeta_players", args.lang))
    if args.rules not in (None, "block"):
        raise UsageError(line("command.bench.alphabeta_rules", args.lang))
    if args.matches is not None:
        raise UsageError(line("command.bench.alphabeta_matches", args.lang))
    return run_alphabeta_bench(
        bot,
        args.hands,
        args.seed,
        SAMPLES if args.samples is None else args.samples,
        START_MOVE if args.start_move is None else args.start_move,
        as_json=args.json,
        settings=settings,
        lang=args.lang,
    )


def _run_engine(args: argparse.Namespace) -> int:
    from p2p_dominoes.benchmarks.engine import run_engine_bench

    return run_engine_bench(seconds=args.seconds, as_json=args.json, lang=args.lang)


def _run_crypto(args: argparse.Namespace) -> int:
    from p2p_dominoes.benchmarks.crypto import run_crypto_bench

    players = sorted(set(args.players)) if args.players else [2, 3, 4]
    return run_crypto_bench(
        players=players, baseline=not args.no_baseline, as_json=args.json, lang=args.lang
    )


def _run_session(args: argparse.Namespace) -> int:
    from p2p_dominoes.benchmarks.session import run_session_bench
    from p2p_dominoes.commands.exits import UsageError

    if args.hands < 1:
        raise UsageError(line("command.bench.hands_at_least_one", args.lang))
    players = sorted(set(args.players)) if args.players else [2, 3, 4]
    return run_session_bench(players=players, hands=args.hands, as_json=args.json, lang=args.lang)


def _run_lan(args: argparse.Namespace) -> int:
    from p2p_dominoes.benchmarks.lan import run_lan_bench
    from p2p_dominoes.commands.exits import UsageError

    if args.hands < 1:
        raise UsageError(line("command.bench.hands_at_least_one", args.lang))
    return run_lan_bench(players=args.players, hands=args.hands, as_json=args.json, lang=args.lang)
