"""Seeded games of every preset with every bot, one digest line each: what the test of the
compiled build (tests/test_compiled_build.py) runs under the source and under the compiled
modules, and requires to print the same.

Each line digests a game's report, every action in order and, once per hand, the reason the
engine gives for refusing a pass while a tile fits: the steps, the scores and the words."""

from __future__ import annotations

import hashlib
import json
import sys

from p2p_dominoes.bots import BOTS
from p2p_dominoes.bots.levels import LEVEL_FUNCTIONS, Budget, level_bot
from p2p_dominoes.engine import PASS, PRESETS, HandState, IllegalAction, Match
from p2p_dominoes.engine import hand as hand_module
from p2p_dominoes.simulation import simulate

SEARCH_BUDGET = Budget(6)
"""The levels that search get a number of samples and no clock: the same games every run."""


def _game(rules_name: str, bot_name: str) -> str:
    """One seeded game's line: preset, bot, hands, steps and the digest of it all."""
    rules = PRESETS[rules_name]
    players = max(dict(rules.hand_sizes))
    searching = bot_name in LEVEL_FUNCTIONS and bot_name not in ("easy", "medium")
    bot = level_bot(bot_name, SEARCH_BUDGET) if searching else BOTS[bot_name]
    steps: list[str] = []

    def observe(match: Match, hand: HandState, seat: int, action: object) -> None:
        steps.append(repr(action))
        if seat == -1:
            try:  # the opener holds tiles that fit an empty table: a pass is refused
                hand.copy().apply(hand.turn, PASS)
            except IllegalAction as refused:
                steps.append(str(refused))

    report = simulate(
        rules,
        players,
        [bot] * players,
        [bot_name] * players,
        seed=20261207,
        hands=2 if searching else 12,
        observer=observe,
    )
    facts = report.to_dict()
    facts.pop("hands_per_second")
    text = json.dumps(facts, sort_keys=True) + "\n".join(steps)
    digest = hashlib.sha256(text.encode()).hexdigest()
    return f"{rules_name} {bot_name} {report.hands} {len(steps)} {digest}"


def _games() -> None:
    print("engine.hand", hand_module.__file__)
    for rules_name in sorted(PRESETS):
        for bot_name in sorted(BOTS):
            print(_game(rules_name, bot_name))


if __name__ == "__main__":
    _games()
    sys.exit(0)
