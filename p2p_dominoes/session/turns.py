"""The validators of the turns: plays (v3: the tile with an OR-proof, §10.6), draws and the
other seats' shares of the drawn position, passes and skips; and laying a checked play.

Each takes one message and returns the state change it makes (see `checks`); every turn goes
through the engine's public turn machine, which says whose turn it is. Version 1/2 plays are in
`legacy`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from p2p_dominoes import mental
from p2p_dominoes.engine import DRAW, PASS, TILES, Play
from p2p_dominoes.engine.actions import SKIP
from p2p_dominoes.engine.legality import must_play_drawn
from p2p_dominoes.mental import DecryptionShare
from p2p_dominoes.mental.errors import message_of
from p2p_dominoes.session import opening, tile_proofs
from p2p_dominoes.session.checks import Effect, bad, field_bytes
from p2p_dominoes.session.envelope import FIRST_VERSION, Envelope
from p2p_dominoes.session.events import ActionTaken, Event
from p2p_dominoes.session.hand_in_play import HandInPlay
from p2p_dominoes.session.phases import Trigger
from p2p_dominoes.session.places import BadPlace, decode_place, encode_place
from p2p_dominoes.session.schema import Wire
from p2p_dominoes.words import phrase

if TYPE_CHECKING:
    from p2p_dominoes.engine import Tile
    from p2p_dominoes.session.table import TableSession


def play_of(session: TableSession, envelope: Envelope, tile: Tile) -> Play:
    """The play a `play` or `play3` message makes with `tile`: its place fields are read
    here for both versions, so a field added to the place reaches both."""
    try:
        place = decode_place(envelope.field("at"), envelope.field("side"))
    except BadPlace as exc:
        raise bad("bad-play", message_of(exc)) from None
    along = envelope.field("along")
    if along is not None and (session.version == FIRST_VERSION or along is not True):
        raise bad("bad-play", phrase("session.why.only_version_2_play_may"))
    return Play(tile, place, along is True)


def place_body(play: Play) -> tuple[Wire, ...]:
    """The place fields of a `play` or `play3` body (`at`, `side`, and `along` if true)."""
    at, side = encode_place(play.place)
    return (at, side, True) if play.along else (at, side)


def lay(
    session: TableSession, hand: HandInPlay, seat: int, play: Play, from_draw: bool
) -> list[Event]:
    """Apply a checked play of any version to the public hand (the turn's end included)."""
    assert hand.public is not None
    hand.public.play(seat, play, from_draw)
    hand.action_indices.append(len(session.transcript) - 1)
    if seat == session.seat:
        hand.pending = None
    if hand.public.over:
        session._move(Trigger.HAND_OVER)
    return [ActionTaken(seat, play)]


def play3(session: TableSession, hand: HandInPlay, envelope: Envelope, own: bool) -> Effect:
    """A v3 play: the tile, its place and a proof that it is at one of the seat's positions."""
    seat = envelope.seat
    public = hand.public
    assert public is not None and hand.joint is not None
    index = envelope.field("tile")
    assert isinstance(index, int)
    tile = TILES[index]
    if tile in hand.tiles_played:
        raise bad("already-played", phrase("session.why.was_played_before_hand", tile=tile.text))
    play = public.check_play(seat, play_of(session, envelope, tile))
    drawn = envelope.field("drawn")
    assert drawn is None or isinstance(drawn, bool)
    positions = tile_proofs.proof_set(session.rules, hand, seat, play, drawn)
    if not own:  # a seat's own proof was made here a moment ago (as with shuffles)
        mental.check_tile(
            hand.ctx,
            seat,
            tile_proofs.play_step(hand),
            index,
            field_bytes(envelope, "proof"),
            hand.joint,
            tile_proofs.branches(hand, seat, positions),
        )

    def apply() -> list[Event]:
        hand.tiles_played[tile] = seat
        return lay(session, hand, seat, play, drawn is True)

    return apply


def draw(session: TableSession, hand: HandInPlay, envelope: Envelope, own: bool) -> Effect:
    """A draw: the next position is the seat's once the others have shared it."""
    seat = envelope.seat
    assert hand.public is not None
    hand.public.check_draw(seat)

    def apply() -> list[Event]:
        assert hand.public is not None
        hand.forced_draw = hand.public.forced_due > 0
        hand.public.draw(seat)
        hand.action_indices.append(len(session.transcript) - 1)
        position = hand.next_position
        hand.next_position += 1
        hand.held[seat].append(position)
        hand.drawer = seat
        hand.draw_sharers = [s for s in range(session.players) if s != seat]
        session._move(Trigger.DREW)
        return []

    return apply


def draw_share(session: TableSession, hand: HandInPlay, envelope: Envelope, own: bool) -> Effect:
    """Another seat's decryption share of the drawn position; after the last one the drawer
    (if it is this peer) opens its tile."""
    share = DecryptionShare.from_bytes(field_bytes(envelope, "share"), envelope.seat)
    position = hand.next_position - 1
    if share.position != position:
        raise bad(
            "bad-share",
            phrase(
                "session.why.share_position_expected", position=share.position, position2=position
            ),
        )
    assert hand.joint is not None
    if not own:
        mental.check_share(hand.ctx, share, hand.joint, hand.deck)

    def apply() -> list[Event]:
        hand.shares.setdefault(position, []).append(share)
        hand.all_shares.append(share)
        hand.draw_sharers.pop(0)
        if hand.draw_sharers:
            return []
        drawer = hand.drawer
        assert drawer is not None
        hand.drawer = None
        session._move(Trigger.DRAW_OPENED)
        drawn = None
        if drawer == session.seat:
            (drawn,) = opening.open_own(hand, [position])
            public = hand.public
            assert public is not None
            if must_play_drawn(public, drawn, hand.forced_draw):
                hand.pending = drawn
        return [ActionTaken(drawer, DRAW, drawn)]

    return apply


def pass_turn(session: TableSession, hand: HandInPlay, envelope: Envelope, own: bool) -> Effect:
    """A pass."""
    seat = envelope.seat
    assert hand.public is not None
    hand.public.check_pass(seat)

    def apply() -> list[Event]:
        assert hand.public is not None
        hand.public.pass_turn(seat)
        hand.action_indices.append(len(session.transcript) - 1)
        if hand.public.over:
            session._move(Trigger.HAND_OVER)
        return [ActionTaken(seat, PASS)]

    return apply


def skip(session: TableSession, hand: HandInPlay, envelope: Envelope, own: bool) -> Effect:
    """A skip: declining to play a second double (not a message of protocol version 1)."""
    seat = envelope.seat
    if session.version == FIRST_VERSION:
        raise bad("unknown-type", phrase("session.why.skip_not_message_protocol_version"))
    assert hand.public is not None
    hand.public.check_skip(seat)

    def apply() -> list[Event]:
        assert hand.public is not None
        hand.public.skip(seat)
        hand.action_indices.append(len(session.transcript) - 1)
        if hand.public.over:
            session._move(Trigger.HAND_OVER)
        return [ActionTaken(seat, SKIP)]

    return apply
