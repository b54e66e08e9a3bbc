"""Computer players: functions of a seat's view and a random source, never of the full state."""

from p2p_dominoes.bots.partner import partner_bot
from p2p_dominoes.bots.roster import BOTS, bot_named, default_bot_name
from p2p_dominoes.bots.search import snapshot
from p2p_dominoes.bots.strategies import Bot, greedy_bot, random_bot

__all__ = [
    "BOTS",
    "Bot",
    "bot_named",
    "default_bot_name",
    "greedy_bot",
    "partner_bot",
    "random_bot",
    "snapshot",
]
