"""What every per-phase validator shares: its shape, how it refuses, and the tile-reveal check.

A validator takes the session, the hand in play, a message and whether this peer signed it; it
raises InvalidMessage (or a mental/engine error the dispatch turns into one) or returns the
`Effect`: the state change to make once the message has joined the transcript.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from p2p_dominoes import mental
from p2p_dominoes.engine import TILES, Tile
from p2p_dominoes.mental import TileReveal
from p2p_dominoes.session.envelope import Envelope
from p2p_dominoes.session.errors import InvalidMessage
from p2p_dominoes.session.events import Event
from p2p_dominoes.session.hand_in_play import HandInPlay
from p2p_dominoes.session.schema import Wire
from p2p_dominoes.words import phrase

if TYPE_CHECKING:
    from p2p_dominoes.session.table import TableSession

Effect = Callable[[], list[Event]]
"""The state change a validated message makes once it has joined the transcript."""

Validator = Callable[["TableSession", HandInPlay, Envelope, bool], Effect]
"""Checks one message of its type against the session and the hand (`own`: this peer signed
it, so the proofs it made a moment ago need no second check) and returns its `Effect`."""


def bad(code: str, reason: str) -> InvalidMessage:
    """The refusal of the message being checked (the dispatch adds its seat)."""
    return InvalidMessage(code, reason)


def field_bytes(envelope: Envelope, name: str) -> bytes:
    """A field the schema already typed as bytes."""
    value = envelope.field(name)
    assert isinstance(value, bytes)
    return value


def tile_text(tile: Tile | None) -> str:
    """A tile as the blame reasons write it ("nothing" for no tile)."""
    return phrase("session.why.nothing") if tile is None else tile.text


def check_reveal(
    hand: HandInPlay, envelope: Envelope, data: Wire, held: Sequence[int]
) -> tuple[TileReveal, Tile]:
    """A tile reveal of one of the `held` positions, checked against its shares: the reveal
    and the tile it shows."""
    assert isinstance(data, bytes) and hand.joint is not None
    reveal = TileReveal.from_bytes(data, envelope.seat)
    if reveal.position not in held:
        raise bad(
            "not-held",
            phrase("session.why.claims_tile_position_which_does", position=reveal.position),
        )
    index = mental.check_tile_reveal(
        hand.ctx,
        reveal,
        hand.joint,
        hand.deck,
        hand.shares_for(reveal.position),
        shares_checked=True,
    )
    return reveal, TILES[index]
