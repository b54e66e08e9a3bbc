"""Computer players: functions of a seat's view and a random source, never of the full state."""

from p2p_dominoes.bots.strategies import BOTS, Bot, bot_named, greedy_bot, random_bot

__all__ = ["BOTS", "Bot", "bot_named", "greedy_bot", "random_bot"]
