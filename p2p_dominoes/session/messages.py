"""The catalogue of session message types: one place that lists every registered type.

Codes (PROTOCOL.md §4.3): 1–15 table setup, 16–127 the hand flow (30–32: leaving, §16).
"""

from __future__ import annotations

from typing import Final

from p2p_dominoes.session.envelope import MessageRegistry, MessageType
from p2p_dominoes.session.genesis import GENESIS, GENESIS_SIGN
from p2p_dominoes.session.hand_messages import HAND_MESSAGES
from p2p_dominoes.session.leave_messages import LEAVE_MESSAGES

SETUP_MESSAGES: Final[tuple[MessageType, ...]] = (GENESIS, GENESIS_SIGN)


def default_registry() -> MessageRegistry:
    """A fresh registry holding every message type this version of the protocol defines."""
    return MessageRegistry((*SETUP_MESSAGES, *HAND_MESSAGES, *LEAVE_MESSAGES))
