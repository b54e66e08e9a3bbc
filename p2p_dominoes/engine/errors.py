"""Errors of the rules engine: each names what broke which rule.

Their messages are `Phrase`s (p2p_dominoes/words): English text to every caller, readable again
in a player's language (`words.reason_in`)."""

from __future__ import annotations

from p2p_dominoes.words import Phrase, phrase


class EngineError(Exception):
    """Base class of the engine's errors."""


class InvalidRecord(EngineError):
    """A record, deal or rules object is malformed (unknown tile, wrong sizes, bad JSON …)."""


class IllegalAction(EngineError):
    """An action that the rules forbid; names the seat, the action and the rule it breaks."""

    def __init__(self, seat: int, action: str, rule: str) -> None:
        """`action` and `rule` are `Phrase`s where the engine wrote them (plain text, such as
        an action's own notation, is shown as it is)."""
        message: Phrase = phrase("engine.cannot", seat=seat, action=action, rule=rule)
        super().__init__(message)
        self.seat = seat
        self.action = action
        self.rule = rule

    def __reduce__(self) -> tuple[type[IllegalAction], tuple[int, str, str]]:
        # Rebuilt from its parts (a pickle, a copy): `args` holds only the message.
        return IllegalAction, (self.seat, self.action, self.rule)
