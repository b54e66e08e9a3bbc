"""`p2p-dominoes rules list|show|check|page`: the presets, a rule set's switches, the editor's
check of a rules file, and the rules screen.

A rules file is JSON: a preset name, a full rules object, or {"base": PRESET, …overrides}
(docs/rules.md). `check` exits 0 when the set can be played (listing the switches that have no
effect), 1 with one line per conflict naming its switches, 2 when the file cannot be read or is
not a rules object (one line).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any, Final

from p2p_dominoes.commands.arguments import language_argument
from p2p_dominoes.commands.command_language import command_language
from p2p_dominoes.commands.exits import EXIT_OK, EXIT_UNVERIFIED, UsageError
from p2p_dominoes.engine.errors import InvalidRecord
from p2p_dominoes.engine.rules import FIELD, FIELDS, PRESETS, draft_of
from p2p_dominoes.engine.rules_check import Finding, check_rules, greyed_fields, players_text
from p2p_dominoes.engine.rules_page import render_text
from p2p_dominoes.engine.rules_text import (
    base_of,
    describe_rules,
    field_label,
    preset_label,
    value_text,
)
from p2p_dominoes.peer_text import peer_text
from p2p_dominoes.words import line, plural, reason_in

MAX_RULES_FILE: Final = 1024 * 1024
WHAT_IS_READ: Final = "a preset name or a rules file (JSON)"


def register(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser(
        "rules",
        help="the rules presets, a rule set's switches, the check of a rules file, the rules page",
        description="House rules: list the presets, show a rule set's switches, check a rules "
        "file (exit 0 playable, 1 a conflict, 2 unreadable), or print the rules page.",
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)

    listing = actions.add_parser("list", help="the presets")
    _lang(listing)
    listing.add_argument("--json", action="store_true", help="print one JSON object")
    listing.set_defaults(run=run_list)

    show = actions.add_parser(
        "show", help="every switch of a rule set, and why the greyed ones have no effect"
    )
    show.add_argument("rules", metavar="NAME|FILE", help=WHAT_IS_READ)
    show.add_argument("--json", action="store_true", help="print one JSON object")
    _lang(show)
    show.set_defaults(run=run_show)

    check = actions.add_parser(
        "check",
        help="check a rules file: exit 0 when it can be played, 1 naming each conflict",
    )
    check.add_argument("rules", metavar="FILE", help=WHAT_IS_READ)
    check.add_argument("--json", action="store_true", help="print one JSON object")
    _lang(check)
    check.set_defaults(run=run_check)

    page = actions.add_parser("page", help="the rules screen, with a rule set's choices")
    page.add_argument(
        "--rules",
        metavar="NAME|FILE",
        default="house",
        help="the rules whose choices the page shows (default: house, the page's own game)",
    )
    _lang(page)
    page.set_defaults(run=run_page)


def _lang(parser: argparse.ArgumentParser) -> None:
    """English unless told otherwise, as every command (the page too: its Russian is the
    seed's text word for word, `--lang ru`)."""
    language_argument(parser, "language (default en)")


def read_rules(source: str) -> dict[str, Any]:
    """A full rules draft from a preset name or a rules file (not checked for conflicts);
    UsageError with one line when the file cannot be read or is not a rules object."""
    if source in PRESETS:
        return draft_of(source)
    shown = peer_text(source, 200)
    try:
        path = Path(source).expanduser()
    except RuntimeError:  # ~someone who has no home here
        raise UsageError(line("command.no_home", command_language(), path=shown)) from None
    if not path.exists():
        raise UsageError(
            line(
                "command.rules.no_such",
                command_language(),
                path=shown,
                presets=", ".join(PRESETS),
                what=line("command.rules.what_is_read", command_language()),
            )
        )
    if path.is_dir():
        raise UsageError(
            line(
                "command.rules.folder",
                command_language(),
                path=shown,
                what=line("command.rules.what_is_read", command_language()),
            )
        )
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_RULES_FILE + 1)
    except OSError as exc:
        raise UsageError(
            line("command.cannot_read", command_language(), path=shown, error=exc.strerror or exc)
        ) from None
    if len(data) > MAX_RULES_FILE:
        raise UsageError(
            plural("command.rules.too_large", MAX_RULES_FILE, command_language(), path=shown)
        )
    try:
        parsed = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise UsageError(
            line(
                "command.rules.not_utf8",
                command_language(),
                path=shown,
                what=line("command.rules.what_is_read", command_language()),
            )
        ) from None
    except json.JSONDecodeError as exc:
        raise UsageError(
            line(
                "command.rules.not_json",
                command_language(),
                path=shown,
                row=exc.lineno,
                column=exc.colno,
                error=exc.msg,
            )
        ) from None
    except RecursionError:
        raise UsageError(line("command.rules.too_deep", command_language(), path=shown)) from None
    try:
        return draft_of(parsed)
    except InvalidRecord as exc:
        lang = command_language()
        problem = reason_in(exc, lang)
        raise UsageError(
            line("command.where_problem", lang, where=shown, problem=problem)
        ) from None


def _counts(draft: dict[str, Any]) -> list[int]:
    return [n for n, _ in draft["hand_sizes"]]


def _shown(finding: Finding) -> list[str]:
    """The finding's fields a player can see (fields this version does not play are hidden)."""
    return [name for name in finding.fields if FIELD[name].playable]


def _where(finding: Finding, lang: str) -> str:
    if not finding.players:
        return ""
    counts = players_text(finding.players, lang)
    return line("rules_command.with_players", lang, counts=counts)


def _finding_json(finding: Finding) -> dict[str, Any]:
    return {
        "kind": finding.kind,
        "code": finding.code,
        "fields": list(finding.fields),
        "players": list(finding.players),
        "text": dict(finding.text),
    }


def _conflict_line(finding: Finding, lang: str) -> str:
    names = " + ".join(finding.fields)
    word = line("rules_command.conflict", lang)
    return f"{word} {finding.code} ({names}): {finding.text[lang]}"


def run_list(args: argparse.Namespace) -> int:
    if args.json:
        rows = [
            {
                "name": name,
                "label": {"en": preset_label(name, "en"), "ru": preset_label(name, "ru")},
            }
            for name in PRESETS
        ]
        print(json.dumps({"presets": rows}, ensure_ascii=False))
        return EXIT_OK
    for name in PRESETS:
        print(f"{name}: {preset_label(name, args.lang)}")
    return EXIT_OK


def run_show(args: argparse.Namespace) -> int:
    draft = read_rules(args.rules)
    lang = args.lang
    found = check_rules(draft)
    counts = _counts(draft)
    grey = greyed_fields(found, counts)
    switches = []
    for spec in FIELDS:
        if not spec.playable or spec.name == "name":
            continue
        notes = [
            f
            for f in found
            if f.kind == "inert" and spec.name in f.fields and spec.name not in grey
        ]
        switches.append(
            {
                "field": spec.name,
                "switch": spec.switch,
                "label": field_label(spec.name, lang),
                "value": draft[spec.name],
                "text": value_text(spec.name, draft[spec.name], lang),
                "greyed": spec.name in grey,
                "reasons": [_where(f, lang) + f.text[lang] for f in grey.get(spec.name, [])],
                "notes": [{"players": list(f.players), "text": f.text[lang]} for f in notes],
            }
        )
    bad = [f for f in found if f.kind == "conflict"]
    if args.json:
        out = {
            "name": draft["name"],
            "base": base_of(draft),
            "description": describe_rules(draft, lang),
            "playable": not bad,
            "switches": switches,
            "conflicts": [_finding_json(f) for f in bad],
            "rules": draft,
        }
        print(json.dumps(out, ensure_ascii=False))
        return EXIT_UNVERIFIED if bad else EXIT_OK
    for described in describe_rules(draft, lang):
        print(peer_text(described, 400))
    for row in switches:
        where = f"{row['field']}{', ' + row['switch'] if row['switch'] else ''}"
        text = f"  {row['label']} ({where}): {row['text']}"
        if row["greyed"]:
            dead = line("rules_command.no_effect", lang)
            text += f" — {dead}: {' / '.join(row['reasons'])}"
        print(peer_text(text, 1000))
        for note in row["notes"]:
            counts_text = players_text(note["players"], lang)
            head = line("rules_command.no_effect_with", lang, counts=counts_text)
            print(f"      {head}: {note['text']}")
    for finding in bad:
        print(_conflict_line(finding, lang))
    return EXIT_UNVERIFIED if bad else EXIT_OK


def run_check(args: argparse.Namespace) -> int:
    draft = read_rules(args.rules)
    lang = args.lang
    found = check_rules(draft)
    bad = [f for f in found if f.kind == "conflict"]
    inert = [f for f in found if f.kind == "inert" and _shown(f)]
    source = peer_text(args.rules, 200)
    if args.json:
        out = {
            "playable": not bad,
            "conflicts": [_finding_json(f) for f in bad],
            "inert": [_finding_json(f) for f in inert],
        }
        print(json.dumps(out, ensure_ascii=False))
    elif bad:
        for finding in bad:
            print(f"{source}: {_conflict_line(finding, lang)}")
    else:
        ok = line("rules_command.playable", lang)
        print(f"{source}: {ok}")
        for finding in inert:
            dead = line("rules_command.no_effect", lang)
            print(
                f"  {dead} {finding.code} ({', '.join(_shown(finding))}): "
                f"{_where(finding, lang)}{finding.text[lang]}"
            )
    return EXIT_UNVERIFIED if bad else EXIT_OK


def run_page(args: argparse.Namespace) -> int:
    draft = read_rules(args.rules)
    bad = [f for f in check_rules(draft) if f.kind == "conflict"]
    if bad:
        lang = command_language()
        raise UsageError(
            line(
                "command.rules.cannot_play",
                lang,
                rules=peer_text(args.rules, 200),
                why=bad[0].text.get(lang, bad[0].text["en"]),
            )
        )
    print(render_text(draft, args.lang))
    return EXIT_OK
