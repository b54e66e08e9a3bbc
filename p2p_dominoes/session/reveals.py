"""The validators of a hand's last phases: each seat shows the tiles it has left, then reveals
its per-hand secret; the last secret starts the end-of-hand audit (`audit`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from p2p_dominoes import mental
from p2p_dominoes.engine import Tile
from p2p_dominoes.mental import SecretReveal, TileReveal
from p2p_dominoes.session import legacy
from p2p_dominoes.session.checks import Effect, bad, check_reveal, field_bytes
from p2p_dominoes.session.envelope import SECOND_VERSION, Envelope
from p2p_dominoes.session.events import Event
from p2p_dominoes.session.hand_in_play import HandInPlay
from p2p_dominoes.session.phases import Trigger
from p2p_dominoes.session.schema import Wire
from p2p_dominoes.words import phrase

if TYPE_CHECKING:
    from p2p_dominoes.session.table import TableSession


def hand_reveal(session: TableSession, hand: HandInPlay, envelope: Envelope, own: bool) -> Effect:
    """A seat shows every tile it has left (HAND_REVEAL)."""
    seat = envelope.seat
    raw = envelope.field("reveals")
    assert isinstance(raw, tuple)
    held = sorted(hand.held[seat])
    if session.version > SECOND_VERSION:
        checked = _check_v3_reveals(hand, envelope, raw, held)
    else:
        checked = legacy.check_hand_reveals(hand, envelope, raw, held)

    def apply() -> list[Event]:
        hand.tile_reveals.extend(r for r, _ in checked)
        hand.revealed[seat] = tuple(t for _, t in checked)
        if len(hand.revealed) == session.players:
            session._move(Trigger.HANDS_SHOWN)
        return []

    return apply


def _check_v3_reveals(
    hand: HandInPlay, envelope: Envelope, raw: Sequence[Wire], held: Sequence[int]
) -> list[tuple[TileReveal, Tile]]:
    """v3: the seat shows every tile it has left, at distinct positions it held, none of
    them a tile played: as its positions hold distinct tiles, they are exactly the rest."""
    seat = envelope.seat
    played = sum(1 for s in hand.tiles_played.values() if s == seat)
    if len(raw) != len(held) - played:
        raise bad(
            "bad-reveal",
            phrase(
                "session.why.reveals_tiles_but_holds", count=len(raw), count2=len(held) - played
            ),
        )
    checked = [check_reveal(hand, envelope, data, held) for data in raw]
    positions = [r.position for r, _ in checked]
    if positions != sorted(set(positions)):
        raise bad("bad-reveal", phrase("session.why.revealed_positions_repeat_or_out"))
    for _, tile in checked:
        if tile in hand.tiles_played:
            raise bad("bad-reveal", phrase("session.why.reveals_which_was_played", tile=tile.text))
    return checked


def secret_reveal(session: TableSession, hand: HandInPlay, envelope: Envelope, own: bool) -> Effect:
    """A seat's per-hand secret; after the last one the audit runs (SECRET_REVEAL)."""
    reveal = SecretReveal.from_bytes(field_bytes(envelope, "secret"), envelope.seat)
    assert hand.joint is not None
    mental.check_secret_reveal(reveal, hand.joint)

    def apply() -> list[Event]:
        hand.secrets.append(reveal)
        if len(hand.secrets) < session.players:
            return []
        return session._audit(hand)

    return apply
