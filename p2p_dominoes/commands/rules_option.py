"""The `--rules NAME|FILE` option: a preset, a JSON rules file (PROTOCOL.md §7.1), or a rule set
saved on the rules page (DATA/rules/NAME.json).

A rules file holds one rules object: a preset name, a full object, or `{"base": PRESET, …}`
with the switches that differ. A set with a conflict is refused with the checker's reason. When
the opening follows the day of the week and the file leaves `weekday` unset, the command fills
it from the calendar it is given (the host's), so every seat then plays the same double.
"""

from __future__ import annotations

import argparse
import datetime
import json
from pathlib import Path

from p2p_dominoes.commands.command_language import command_language
from p2p_dominoes.engine import PRESETS, InvalidRecord, Rules
from p2p_dominoes.engine.rules import Opener, draft_of
from p2p_dominoes.store.rule_sets import (
    RULE_SET_SUFFIX,
    RuleSetError,
    load_draft,
    name_problem,
    rules_dir,
)
from p2p_dominoes.words import line, reason_in

_PRESET_NAMES = ", ".join(sorted(PRESETS))
RULES_HELP = (
    f"a rules preset ({_PRESET_NAMES}), a JSON rules file, or a rule set saved on the rules page"
)


class RulesOptionError(ValueError):
    """The option names neither a preset nor a readable, playable rules file (one line)."""


def load_rules(text: str, today: datetime.date | None = None, data: Path | None = None) -> Rules:
    """The rules `--rules text` names: a preset, a rules file, or a set saved on the rules page
    in the data directory `data`; `today` fills an unset weekday for a weekday opener."""
    if text in PRESETS:
        data_object: object = text
    else:
        path = Path(text)
        if not path.is_file():
            if data is not None and name_problem(text) is None:
                saved = rules_dir(data) / f"{text}{RULE_SET_SUFFIX}"
                if saved.is_file():
                    return _saved(data, text, today)
            raise RulesOptionError(
                line(
                    "command.rules_option.not_found",
                    command_language(),
                    typed=repr(text),
                    presets=_PRESET_NAMES,
                )
            )
        try:
            data_object = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            raise RulesOptionError(
                line(
                    "command.rules_option.cannot_read",
                    command_language(),
                    path=text,
                    error=_line(exc),
                )
            ) from None
    try:
        draft = draft_of(data_object)
        if today is not None and _weekday_unset(draft):
            draft["weekday"] = today.isoweekday()
        return Rules.from_dict(draft)
    except InvalidRecord as exc:
        raise RulesOptionError(_where(f"--rules {text}", exc)) from None


def _saved(data: Path, name: str, today: datetime.date | None) -> Rules:
    try:
        draft = load_draft(data, name)
        if today is not None and _weekday_unset(draft):
            draft["weekday"] = today.isoweekday()
        return Rules.from_dict(draft)
    except (RuleSetError, InvalidRecord) as exc:
        raise RulesOptionError(_where(f"--rules {name}", exc)) from None


def rules_argument(text: str) -> str:
    """The option as given, for passing on (a file is made absolute for child processes)."""
    if text in PRESETS:
        return text
    try:
        return str(Path(text).resolve()) if Path(text).is_file() else text
    except OSError as exc:  # a name too long to look up, a folder we may not enter
        from p2p_dominoes.commands.exits import os_error_text

        raise argparse.ArgumentTypeError(os_error_text(exc)) from None


def _weekday_unset(draft: dict[str, object]) -> bool:
    rule = Opener.WEEKDAY_DOUBLE.value
    opens = draft["first_opener"] == rule or draft["next_opener"] == rule
    return opens and draft["weekday"] == 0


def _where(where: str, exc: Exception) -> str:
    """`where: the error`, in the command line's language."""
    return line("command.where_problem", command_language(), where=where, problem=_line(exc))


def _line(exc: Exception) -> str:
    """The error on one line, in the command line's language (a `Phrase` reads in it)."""
    return " ".join(reason_in(exc, command_language()).split())
