"""Errors of the rules engine: each names what broke which rule."""

from __future__ import annotations


class EngineError(Exception):
    """Base class of the engine's errors."""


class InvalidRecord(EngineError):
    """A record, deal or rules object is malformed (unknown tile, wrong sizes, bad JSON …)."""


class IllegalAction(EngineError):
    """An action that the rules forbid; names the seat, the action and the rule it breaks."""

    def __init__(self, seat: int, action: str, rule: str) -> None:
        super().__init__(f"seat {seat} cannot {action}: {rule}")
        self.seat = seat
        self.action = action
        self.rule = rule
