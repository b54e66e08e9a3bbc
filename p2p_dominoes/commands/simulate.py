"""`p2p-dominoes simulate`: bot games in one process, deterministic for a seed."""

from __future__ import annotations

import argparse
import datetime
import json
import secrets
import time
from typing import Any, Final

from p2p_dominoes.bots import Bot, bot_named, default_bot_name
from p2p_dominoes.commands.arguments import (
    SIMULATE_HANDS_LIMIT,
    int_between,
    language_argument,
    output_file,
)
from p2p_dominoes.commands.command_language import command_language
from p2p_dominoes.commands.exits import UsageError
from p2p_dominoes.commands.rules_option import RULES_HELP, RulesOptionError, load_rules
from p2p_dominoes.commands.verify_words import failure_text
from p2p_dominoes.engine import (
    Draw,
    EngineError,
    HandEnd,
    HandState,
    Match,
    Rules,
    action_text,
    add_hand,
    describe,
    match_outcome,
    match_text,
    note_text,
    result_text,
    seat_name,
)
from p2p_dominoes.session.events import CheatingDetected, Event
from p2p_dominoes.session.hand_messages import MAX_HANDS
from p2p_dominoes.session.local import LocalTable
from p2p_dominoes.session.verify import verify_transcript
from p2p_dominoes.simulation import SimulationReport, simulate
from p2p_dominoes.store import data_dir, save_transcript
from p2p_dominoes.ui import narrate
from p2p_dominoes.words import line, plural, reason_in

SECURE_HANDS_LIMIT: Final = MAX_HANDS
"""Most hands of `simulate --secure` (full peer sessions: about a second of CPU a hand)."""


def register(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser(
        "simulate",
        help="bots play each other in this process (no network)",
        description="Bots play each other in this process; the same seed gives the same games.",
    )
    parser.add_argument("--rules", default="draw", metavar="NAME|FILE", help=RULES_HELP)
    parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    count = parser.add_mutually_exclusive_group()
    count.add_argument(
        "--hands",
        type=int_between(1, SIMULATE_HANDS_LIMIT),
        metavar="H",
        help=f"play H hands, 1–{SIMULATE_HANDS_LIMIT:,} (default 100; with --secure "
        f"1–{SECURE_HANDS_LIMIT}, default 1)",
    )
    count.add_argument("--match", action="store_true", help="play one whole match, hand by hand")
    parser.add_argument(
        "--bot",
        action="append",
        metavar="NAME",
        help="strategy per seat (random, greedy); repeat for each seat, the last one fills up",
    )
    parser.add_argument(
        "--seed",
        type=int_between(0, 2**64 - 1),
        help="random seed, 0–2**64-1 (default: a fresh one, printed)",
    )
    language_argument(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object at the end")
    parser.add_argument("--verbose", action="store_true", help="every action and the board")
    parser.add_argument(
        "--secure",
        action="store_true",
        help="run one full peer session per seat (signed transcript, proven shuffles and deal)",
    )
    parser.add_argument(
        "--record",
        type=output_file,
        metavar="FILE",
        help="with --secure: write the transcript here",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.hands is not None and args.hands < 1:
        raise UsageError(line("command.hands_at_least_one", command_language()))
    if args.secure and args.hands is not None and args.hands > SECURE_HANDS_LIMIT:
        raise UsageError(
            plural("command.simulate.secure_limit", SECURE_HANDS_LIMIT, command_language())
        )
    if args.record is not None and not args.secure:
        raise UsageError(line("command.simulate.record_needs_secure", command_language()))
    try:
        rules = load_rules(args.rules, datetime.date.today(), data_dir())
    except RulesOptionError as exc:
        raise UsageError(reason_in(exc, command_language())) from None
    names = list(args.bot or [default_bot_name(rules)])
    if len(names) > args.players:
        raise UsageError(
            plural(
                "command.simulate.too_many_bots",
                len(names),
                command_language(),
                players=args.players,
            )
        )
    names += [names[-1]] * (args.players - len(names))
    try:
        bots = [bot_named(name) for name in names]
        rules.check_players(args.players)
    except EngineError as exc:
        raise UsageError(reason_in(exc, command_language())) from None
    seed = args.seed if args.seed is not None else secrets.randbelow(2**32)
    if args.secure:
        return run_secure(rules, names, bots, seed, None if args.match else (args.hands or 1), args)
    hands = None if args.match else (args.hands or 100)
    show_hands = (args.match or args.verbose) and not args.json
    observer = _HandPrinter(args.lang, args.verbose) if show_hands else None
    report = simulate(rules, args.players, bots, names, seed, hands, observer)
    if args.json:
        print(json.dumps(report.to_dict()))
    else:
        _print_report(report, args.lang)
    return 0


class _HandPrinter:
    """Prints each hand as it is played: the deal, the actions, the result and the scores."""

    def __init__(self, lang: str, verbose: bool) -> None:
        self.lang = lang
        self.verbose = verbose

    def __call__(self, match: Match, hand: HandState, seat: int, action: object) -> None:
        lang = self.lang
        if seat < 0:
            leader = seat_name(hand.opener, lang=lang)
            print(line("simulate.hand_leads", lang, hand=match.hand_number - 1, who=leader))
            for s in range(hand.players):
                tiles = " ".join(t.text for t in hand.hand_of(s))
                print(f"  {seat_name(s, lang=lang)}: {tiles}")
            kept = min(hand.rules.reserve, hand.boneyard_size)  # no boneyard, no reserve
            print(plural("simulate.boneyard", hand.boneyard_size, lang, kept=kept))
            return
        drawn = hand.drawn_tiles[-1] if isinstance(action, Draw) else None
        print(f"  {action_text(seat, action, drawn, lang)}")  # type: ignore[arg-type]
        for note in hand.notes if hand.history and hand.history[-1][1] is action else ():
            print(f"    {note_text(note, lang)}")
        if self.verbose and not isinstance(action, Draw) and hand.history[-1][1] is action:
            print(f"    {describe(hand.line, lang, hand.rules.reads_end_total)}")
        if hand.result is not None:
            void = hand.result.end is HandEnd.VOID
            scores = match.scores if void else add_hand(hand.rules, match.scores, hand.result)
            print(f"  {result_text(hand.result, lang)}")
            counted = match.counted_hands + (not void)
            outcome = match_outcome(hand.rules, scores, counted, hand.result)
            print(f"  {match_text(outcome, scores, lang)}")
            print()


def run_secure(
    rules: Rules,
    names: list[str],
    bots: list[Bot],
    seed: int,
    hands: int | None,
    args: argparse.Namespace,
) -> int:
    """Every seat a full peer session in this process, through the in-memory router."""
    lang = args.lang
    seat_names = [f"{name}-{seat}" for seat, name in enumerate(names)]
    printer = _SecureEventPrinter(lang, seat_names) if not args.json else None
    started = time.process_time()
    table = LocalTable.create(
        rules,
        seat_names,
        bots,
        seed=seed,
        max_hands=hands,
    )
    if printer is not None:
        table.on_event = printer
    table.run()
    cpu = time.process_time() - started
    transcript = table.sessions[0].transcript
    if args.record is not None:
        try:
            save_transcript(args.record, transcript)
        except OSError as exc:
            raise UsageError(
                line(
                    "command.cannot_write",
                    command_language(),
                    path=args.record,
                    error=exc.strerror or exc,
                )
            ) from None
    report = verify_transcript(transcript.to_bytes())
    heads = {s.transcript.head for s in table.sessions}
    blames = [str(b) for b in table.blames if b is not None]
    summary = {
        "rules": rules.name,
        "players": len(names),
        "seed": seed,
        "hands": report.hands,
        "messages": len(transcript),
        "scores": list(table.sessions[0].scores),
        "identical_transcripts": len(heads) == 1,
        "verify": "clean" if report.ok else failure_text(report),
        "blame": blames,
        "cpu_s": round(cpu, 3),
    }
    if args.json:
        print(json.dumps(summary))
    else:
        identical = line("simulate.yes" if len(heads) == 1 else "simulate.no", lang)
        checked = line("simulate.clean", lang) if report.ok else failure_text(report, lang)
        said = plural(
            "simulate.secure_summary",
            len(transcript),
            lang,
            identical=identical,
            verify=checked,
            cpu=_decimal(cpu, 2, lang),
        )
        print(said)
        if args.record is not None:
            print(line("simulate.record_written", lang, path=args.record))
    return 0 if report.ok and not blames and len(heads) == 1 else 1


class _SecureEventPrinter:
    """Prints the match as seat 0's peer sees it, and any cheating any peer detects."""

    def __init__(self, lang: str, names: list[str]) -> None:
        self.lang = lang
        self.names = names

    def __call__(self, seat: int, event: Event) -> None:
        if seat == 0 or isinstance(event, CheatingDetected):
            for said in narrate(event, self.names, self.lang, me=0):
                print(said)


def _print_report(report: SimulationReport, lang: str) -> None:
    """The simulation's figures in `lang`: the table, the hands, the matches, and each seat's
    (or, with partners, each pair's) wins and points."""
    bots = ", ".join(report.bots)
    print(
        plural(
            "simulate.report_head",
            report.players,
            lang,
            rules=report.rules,
            bots=bots,
            seed=report.seed,
        )
    )
    print(
        line(
            "simulate.report_hands",
            lang,
            hands=report.hands,
            blocks=report.blocks,
            actions=_decimal(report.actions_per_hand, 1, lang),
            speed=_grouped(report.hands_per_second, lang),
        )
    )
    if report.matches:
        print(
            line(
                "simulate.report_matches", lang, matches=report.matches, drawn=report.matches_drawn
            )
        )
    pairs = len(report.hands_won) != report.players  # partners: one line per pair
    for seat in range(len(report.hands_won)):
        who = (
            line("simulate.pair", lang, first=seat + 1, second=seat + 3)
            if pairs
            else seat_name(seat, lang=lang)
        )
        bots = f"{report.bots[seat]}, {report.bots[seat + 2]}" if pairs else report.bots[seat]
        values = {
            "who": who,
            "bots": bots,
            "won": report.hands_won[seat],
            "points": report.points[seat],
        }
        if report.matches:
            print(line("simulate.seat_matches", lang, matches=report.matches_won[seat], **values))
        else:
            print(line("simulate.seat", lang, **values))


def _decimal(value: float, places: int, lang: str) -> str:
    """A figure with `places` decimals: "26.5" in English, "26,5" in Russian."""
    text = f"{value:.{places}f}"
    return text.replace(".", ",") if lang == "ru" else text


def _grouped(value: float, lang: str) -> str:
    """A whole figure with its thousands grouped: "5,708" in English, "5 708" in Russian (where
    a comma is the decimal sign)."""
    text = f"{value:,.0f}"
    return text.replace(",", " ") if lang == "ru" else text
