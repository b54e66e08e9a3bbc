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
from p2p_dominoes.mental.errors import message_of
from p2p_dominoes.store._atomic import make_private_dirs, write_private_replace
from p2p_dominoes.words import phrase

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
        return phrase("store.why.rule_set_needs_name")
    if len(name) > MAX_NAME_CHARS:
        return phrase("store.why.rule_set_name_too_long", most=MAX_NAME_CHARS)
    if not _NAME.fullmatch(name) or not name.isprintable():
        return phrase("store.why.rule_set_name_letters")
    if name.casefold() in {preset.casefold() for preset in PRESETS}:
        return phrase("store.why.rule_set_name_is_preset", name=repr(name))
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
            "io",
            phrase("store.why.cannot_list_rule_sets", folder=rules_dir(data), system=exc.strerror),
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
        raise RuleSetError(
            "missing", phrase("store.why.there_no_saved_rule_set", name=repr(name))
        ) from None
    except OSError as exc:
        raise RuleSetError(
            "io", phrase("store.why.cannot_read", path=path, system=exc.strerror)
        ) from None
    if len(raw) > MAX_RULE_SET_BYTES:
        raise RuleSetError("invalid", phrase("store.why.too_large_rule_set", path=path))
    try:
        return json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise RuleSetError("invalid", phrase("store.why.not_json", path=path)) from None


def load_draft(data: str | os.PathLike[str], name: str) -> dict[str, Any]:
    """A saved set as a full draft (every field), shape-checked but not checked for conflicts,
    so the editor can open a hand-edited file and show what is wrong with it."""
    try:
        draft = draft_of(_read(data, name))
    except InvalidRecord as exc:
        raise RuleSetError(
            "invalid", phrase("store.why.rule_set", name=repr(name), reason=message_of(exc))
        ) from None
    draft["name"] = name
    return draft


def load_rule_set(data: str | os.PathLike[str], name: str) -> Rules:
    """A saved set as rules a table can play (its name is the set's name)."""
    draft = load_draft(data, name)
    try:
        return Rules.from_dict(draft)
    except InvalidRecord as exc:
        raise RuleSetError(
            "conflict", phrase("store.why.rule_set", name=repr(name), reason=message_of(exc))
        ) from None


def save_rule_set(data: str | os.PathLike[str], name: str, rules: object) -> Rules:
    """Save `rules` (any rules-file form) as the set `name`, replacing a set of that name.
    A set with a conflict is refused (RuleSetError "conflict"), and nothing is written."""
    path = _path(data, name)
    try:
        draft = draft_of(rules)
    except InvalidRecord as exc:
        raise RuleSetError("invalid", message_of(exc)) from None
    draft["name"] = name
    try:
        checked = Rules.from_dict(draft)
    except InvalidRecord as exc:
        raise RuleSetError("conflict", message_of(exc)) from None
    text = json.dumps(checked.to_dict(), ensure_ascii=False, indent=1) + "\n"
    try:
        make_private_dirs(path.parent)
        write_private_replace(path, text.encode("utf-8"))
    except OSError as exc:
        raise RuleSetError(
            "io", phrase("store.why.cannot_save", path=path, system=exc.strerror)
        ) from None
    return checked


def delete_rule_set(data: str | os.PathLike[str], name: str) -> None:
    """Remove the saved set `name` (RuleSetError "missing" when there is none)."""
    path = _path(data, name)
    try:
        path.unlink()
    except FileNotFoundError:
        raise RuleSetError(
            "missing", phrase("store.why.there_no_saved_rule_set", name=repr(name))
        ) from None
    except OSError as exc:
        raise RuleSetError(
            "io", phrase("store.why.cannot_delete", path=path, system=exc.strerror)
        ) from None


def table_rules(data: str | os.PathLike[str] | None, choice: str) -> Rules:
    """The rules a table is created with: a preset by its name, else the saved set `choice`."""
    if choice in PRESETS:
        return PRESETS[choice]
    if data is None:
        raise RuleSetError(
            "missing", phrase("store.why.there_no_preset_or_saved", choice=repr(choice))
        )
    return load_rule_set(data, choice)
