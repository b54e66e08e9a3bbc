"""Every strategy by name: the plain ones, `partner`, and the difficulty levels."""

from __future__ import annotations

from typing import Final

from p2p_dominoes.bots.levels import LEVELS
from p2p_dominoes.bots.partner import partner_bot
from p2p_dominoes.bots.strategies import Bot, greedy_bot, random_bot
from p2p_dominoes.engine import InvalidRecord
from p2p_dominoes.engine.rules import Rules
from p2p_dominoes.words import phrase

BOTS: Final[dict[str, Bot]] = {
    "random": random_bot,
    "greedy": greedy_bot,
    "partner": partner_bot,
    **LEVELS,
}


def default_bot_name(rules: Rules) -> str:
    """The strategy a table's bots play unless told: `partner` when partners play (Kozel)."""
    return "partner" if rules.pairs else "random"


def bot_named(name: str) -> Bot:
    """The strategy called `name`, or a clear error listing them."""
    try:
        return BOTS[name]
    except KeyError:
        known = ", ".join(BOTS)
        raise InvalidRecord(phrase("bots.why.unknown", name=repr(name), bots=known)) from None
