"""The table's rules in words, for the lobby and the mDNS ad: the name advertised, the lines
that describe the rules, how long a match lasts."""

from __future__ import annotations

import dataclasses

from p2p_dominoes.engine import PRESETS, Rules
from p2p_dominoes.engine.rules_text import describe_rules, preset_label
from p2p_dominoes.net.said import said


def advertised_rules(rules: Rules) -> str:
    """The rules as the mDNS TXT record names them: the preset's name, or `custom` (TXT size)."""
    known = PRESETS.get(rules.name)
    if known is not None and same_rules(rules, known):
        return rules.name
    return "custom"


def same_rules(rules: Rules, other: Rules) -> bool:
    """Equal but for the stall timeout (each host may choose its own)."""
    return dataclasses.replace(rules, stall_timeout_s=other.stall_timeout_s) == other


def rules_lines(rules: Rules, lang: str = "en") -> list[str]:
    """The table's rules in plain words (en or ru): the preset they start from, then every
    switch that differs from it."""
    return describe_rules(rules.to_dict(), lang)


def match_length(max_hands: int | None, lang: str = "en") -> str:
    """How long a match lasts, in words: "2 hands", "1 hand" or "a whole match"."""
    if max_hands is None:
        return said("whole_match", lang)
    return said("one_hand", lang) if max_hands == 1 else said("hands", lang, n=max_hands)


def rules_name(name: str, lang: str) -> str:
    """A rule set's name for the lobby lines: a preset's own words in Russian, else the name."""
    return preset_label(name, lang) if lang == "ru" else name
