"""The catalogue of session message types: one place that lists every registered type.

Codes (PROTOCOL.md §4.3): 1–15 table setup, 16–127 reserved for the hand flow. The hand-flow
types (commit, reveal, shuffle, shares, play, draw, pass, end-of-hand reveals) are added here
when that layer lands.
"""

from __future__ import annotations

from typing import Final

from p2p_dominoes.session.envelope import MessageRegistry, MessageType
from p2p_dominoes.session.genesis import GENESIS, GENESIS_SIGN

SETUP_MESSAGES: Final[tuple[MessageType, ...]] = (GENESIS, GENESIS_SIGN)


def default_registry() -> MessageRegistry:
    """A fresh registry holding every message type this version of the protocol defines."""
    return MessageRegistry(SETUP_MESSAGES)
