"""What the lobby's create form needs to know about each rule set: the presets' names in every
language (the very words the rules editor shows, so the two lists never disagree and the page
keeps no second table of names), and which bot a table of those rules gets unless the host
chooses (`partner` where partners play, Kozel; a middle level elsewhere), with the bots listed
from the weakest to the strongest."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

from p2p_dominoes.bots import BOTS
from p2p_dominoes.engine import PRESETS, Rules
from p2p_dominoes.engine.rules_text import LANGUAGES, preset_label
from p2p_dominoes.store import RuleSetError, load_rule_set

# The bots as the page lists them: by strength, `partner` (pairs only) last.
BOTS_BY_STRENGTH: Final[tuple[str, ...]] = (
    "random",
    "greedy",
    "easy",
    "medium",
    "hard",
    "expert",
    "partner",
)
PAIRS_ONLY: Final[frozenset[str]] = frozenset({"partner"})
PAGE_BOT: Final = "medium"  # a fair opponent for someone who has not chosen


def page_bot(rules: Rules) -> str:
    """The bot the page offers first for a table of `rules`: `partner` when partners play."""
    return "partner" if rules.pairs else PAGE_BOT


def bot_strategies() -> list[str]:
    """Every strategy the program has, weakest first (any new one goes after the known)."""
    known = [name for name in BOTS_BY_STRENGTH if name in BOTS]
    return known + sorted(set(BOTS) - set(known))


def preset_words() -> dict[str, dict[str, str]]:
    """Each preset's name in every language (the editor's `preset_words`)."""
    return {name: {lang: preset_label(name, lang) for lang in LANGUAGES} for name in PRESETS}


def bot_defaults(data_dir: Path | None, saved: Sequence[str]) -> dict[str, str]:
    """For each preset and saved set: the bot the page chooses first (a set that cannot be
    read gets the middle level; the table refuses it anyway)."""
    chosen = {name: page_bot(rules) for name, rules in PRESETS.items()}
    for name in saved:
        try:
            chosen[name] = page_bot(load_rule_set(data_dir, name)) if data_dir else PAGE_BOT
        except RuleSetError:
            chosen[name] = PAGE_BOT
    return chosen


def lobby_rules(data_dir: Path | None, saved: Sequence[str]) -> dict[str, Any]:
    """The lobby snapshot's part about rules and bots (see the module's docstring)."""
    return {
        "presets": list(PRESETS),
        "preset_words": preset_words(),
        "bot_strategies": bot_strategies(),
        "bot_defaults": bot_defaults(data_dir, saved),
        "pairs_only_bots": sorted(PAIRS_ONLY),
    }
