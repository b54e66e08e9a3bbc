"""Saved rule sets: a player's named house rules, one plain JSON file each (DATA/rules/NAME.json).

A file holds a rules object in the rules-file format (a preset name, a full object, or
{"base": PRESET, …overrides}); this module writes full objects, so a saved set keeps its meaning
whatever later versions do to the presets. Nothing in them is secret. A set with a conflict is
refused on save (the same check as everywhere: `Rules.from_dict`), and a hand-edited file that
has one is refused on load with the conflict's words.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any, Final, Literal

from p2p_dominoes.engine import InvalidRecord, Rules
from p2p_dominoes.engine.rules import PRESETS, draft_of
from p2p_dominoes.store._atomic import make_private_dirs, write_private_replace

RULES_DIR_NAME: Final = "rules"
RULE_SET_SUFFIX: Final = ".json"
MAX_RULE_SET_BYTES: Final = 64 * 1024
MAX_NAME_CHARS: Final = 40
_NAME: Final = re.compile(r"[^\W_][\w-]*")

Problem = Literal["name", "missing", "invalid", "conflict", "io"]


class RuleSetError(Exception):
    """A saved rule set that cannot be named, found, read, or saved; `problem` says which."""

    def __init__(self, problem: Problem, message: str) -> None:
        super().__init__(message)
        self.problem: Problem = problem


def rules_dir(data: str | os.PathLike[str]) -> Path:
    """The directory of saved rule sets: ``DATA/rules``."""
    return Path(data) / RULES_DIR_NAME


def name_problem(name: object) -> str | None:
    """Why `name` cannot name a saved set (English), or None: letters, digits, '-' and '_',
    starting with a letter or digit, at most 40 characters, and not a preset's name."""
    if not isinstance(name, str) or not name:
        return "a rule set needs a name"
    if len(name) > MAX_NAME_CHARS:
        return f"a rule set's name has at most {MAX_NAME_CHARS} characters"
    if not _NAME.fullmatch(name) or not name.isprintable():
        return "a rule set's name is letters, digits, '-' and '_', starting with a letter or digit"
    if name.casefold() in {preset.casefold() for preset in PRESETS}:
        return f"{name!r} is a preset's name; choose another"
    return None


def _path(data: str | os.PathLike[str], name: object) -> Path:
    problem = name_problem(name)
    if problem is not None:
        raise RuleSetError("name", problem)
    return rules_dir(data) / f"{name}{RULE_SET_SUFFIX}"


def list_rule_sets(data: str | os.PathLike[str]) -> list[str]:
    """The names of the saved sets, sorted (files with names no set can have are left out)."""
    try:
        entries = os.listdir(rules_dir(data))
    except FileNotFoundError:
        return []
    except OSError as exc:
        raise RuleSetError(
            "io", f"{rules_dir(data)}: cannot list rule sets ({exc.strerror})"
        ) from None
    names = [
        entry[: -len(RULE_SET_SUFFIX)]
        for entry in entries
        if entry.endswith(RULE_SET_SUFFIX) and name_problem(entry[: -len(RULE_SET_SUFFIX)]) is None
    ]
    return sorted(names, key=lambda n: (n.casefold(), n))


def _read(data: str | os.PathLike[str], name: str) -> object:
    path = _path(data, name)
    try:
        with open(path, "rb") as file:
            raw = file.read(MAX_RULE_SET_BYTES + 1)
    except FileNotFoundError:
        raise RuleSetError("missing", f"there is no saved rule set {name!r}") from None
    except OSError as exc:
        raise RuleSetError("io", f"{path}: cannot read ({exc.strerror})") from None
    if len(raw) > MAX_RULE_SET_BYTES:
        raise RuleSetError("invalid", f"{path}: too large for a rule set")
    try:
        return json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise RuleSetError("invalid", f"{path}: not JSON") from None


def load_draft(data: str | os.PathLike[str], name: str) -> dict[str, Any]:
    """A saved set as a full draft (every field), shape-checked but not checked for conflicts,
    so the editor can open a hand-edited file and show what is wrong with it."""
    try:
        draft = draft_of(_read(data, name))
    except InvalidRecord as exc:
        raise RuleSetError("invalid", f"rule set {name!r}: {exc}") from None
    draft["name"] = name
    return draft


def load_rule_set(data: str | os.PathLike[str], name: str) -> Rules:
    """A saved set as rules a table can play (its name is the set's name)."""
    draft = load_draft(data, name)
    try:
        return Rules.from_dict(draft)
    except InvalidRecord as exc:
        raise RuleSetError("conflict", f"rule set {name!r}: {exc}") from None


def save_rule_set(data: str | os.PathLike[str], name: str, rules: object) -> Rules:
    """Save `rules` (any rules-file form) as the set `name`, replacing a set of that name.
    A set with a conflict is refused (RuleSetError "conflict"), and nothing is written."""
    path = _path(data, name)
    try:
        draft = draft_of(rules)
    except InvalidRecord as exc:
        raise RuleSetError("invalid", str(exc)) from None
    draft["name"] = name
    try:
        checked = Rules.from_dict(draft)
    except InvalidRecord as exc:
        raise RuleSetError("conflict", str(exc)) from None
    text = json.dumps(checked.to_dict(), ensure_ascii=False, indent=1) + "\n"
    try:
        make_private_dirs(path.parent)
        write_private_replace(path, text.encode("utf-8"))
    except OSError as exc:
        raise RuleSetError("io", f"{path}: cannot save ({exc.strerror})") from None
    return checked


def delete_rule_set(data: str | os.PathLike[str], name: str) -> None:
    """Remove the saved set `name` (RuleSetError "missing" when there is none)."""
    path = _path(data, name)
    try:
        path.unlink()
    except FileNotFoundError:
        raise RuleSetError("missing", f"there is no saved rule set {name!r}") from None
    except OSError as exc:
        raise RuleSetError("io", f"{path}: cannot delete ({exc.strerror})") from None


def table_rules(data: str | os.PathLike[str] | None, choice: str) -> Rules:
    """The rules a table is created with: a preset by its name, else the saved set `choice`."""
    if choice in PRESETS:
        return PRESETS[choice]
    if data is None:
        raise RuleSetError("missing", f"there is no preset or saved rule set {choice!r}")
    return load_rule_set(data, choice)
