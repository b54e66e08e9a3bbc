"""The lobby protocol at the host: one joiner's connection, from its join message to its seat
(or a refusal with a code), held until the genesis goes out; and the lobby that wakes the
tasks waiting on it (`LiveLobby`) and sends the seat lists."""

from __future__ import annotations

import logging
from contextlib import suppress
from typing import Any

import trio

from p2p_dominoes.net.addresses import bare_host
from p2p_dominoes.net.admission import JOIN_DEADLINE, Refusal, Request
from p2p_dominoes.net.connection import Connection
from p2p_dominoes.net.errors import ConnectionClosed, NetError
from p2p_dominoes.net.framing import Data
from p2p_dominoes.net.host_lobby import HostLobby, Seated
from p2p_dominoes.net.lobby import BotLevels, Join, Refuse, encode_lobby
from p2p_dominoes.net.peer_options import ui_lang
from p2p_dominoes.net.said import said
from p2p_dominoes.net.seating import lobby_message
from p2p_dominoes.net.setup_lost import UNSTARTED_CODE, setup_said
from p2p_dominoes.peer_text import peer_text

log = logging.getLogger("p2p_dominoes.net")


class LiveLobby(HostLobby):
    """The host's lobby with its connections: it wakes the tasks that wait on it at each change
    (`changed`) and sends the seat lists."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.changed = trio.Event()

    def touch(self) -> None:
        """Something changed: wake the tasks that wait on the lobby and show the host's person."""
        self.changed.set()
        self.changed = trio.Event()
        super().touch()

    async def send_seats(self, seated: Seated) -> None:
        """Send `seated` the seat list, then which seats our bots hold and at what level (a
        message of its own, PROTOCOL.md §13.2, which older joiners drop unread)."""
        assert seated.connection is not None
        await seated.connection.send(encode_lobby(self.seats_for(seated)))
        bots = tuple(
            (s.key, self.bot_levels[s.key]) for s in self.seated if s.key in self.bot_levels
        )
        if bots:
            await seated.connection.send(encode_lobby(BotLevels(bots)))

    async def broadcast_seats(self) -> None:
        """Send every seated joiner the seat list (one gone is noticed by its own task)."""
        for seated in list(self.seated):
            if seated.connection is not None:
                with suppress(ConnectionClosed, NetError, trio.BrokenResourceError):
                    await self.send_seats(seated)
        self.touch()


async def serve_lobby_member(connection: Connection, lobby: LiveLobby, ready: trio.Event) -> None:
    """Seat a joiner (first message: join) once admitted; keep it until the genesis goes out."""
    address = connection.remote_address
    try:
        with trio.fail_after(JOIN_DEADLINE):
            first = await connection.receive()
    except trio.TooSlowError:
        lobby.strangers.warn(address, f"no join message within {JOIN_DEADLINE:g} s")
        await connection.aclose("no join message")
        return
    except ConnectionClosed:
        return
    message = lobby_message(first) if isinstance(first, Data) else None
    if not isinstance(message, Join) and connection.peer in lobby.abandoned:
        # Resuming a genesis we gave up before every seat signed it: it never started.
        await refuse(connection, Refusal(UNSTARTED_CODE, setup_said("back_to_lobby", "en")))
        return
    if not isinstance(message, Join):
        lobby.strangers.warn(address, "sent something other than a join message")
        await connection.aclose("expected a join message")
        return
    if ready.is_set():
        await refuse(connection, Refusal("playing", "the game has begun"))
        return
    back = welcome_back(lobby, connection, message)
    if back is not None:  # sent back to the lobby after another seat was lost: its seat kept
        await lobby.broadcast_seats()
        await _hold(connection, lobby, ready, back, peer_text(message.name, 64))
        return
    wanted = lobby.place_for(message.seat) if message.seat is not None else None
    if isinstance(wanted, Refusal):  # before the host's person is bothered
        lobby.strangers.warn(address, f"asked for a seat it cannot have: {wanted.reason}")
        await refuse(connection, wanted)
        return
    decision = lobby.admission.request(
        connection.peer,
        message.name,
        address,
        seats_free=lobby.players - len(lobby.seated),
        seated=any(s.key == connection.peer for s in lobby.seated),
        code=message.code,
    )
    name = peer_text(message.name, 64)
    if isinstance(decision, Refusal):
        log.info(
            "turned %s (%s) at %s away: %s",
            name,
            connection.peer.fingerprint,
            address,
            decision.code,
        )
        await refuse(connection, decision)
        return
    if isinstance(decision, Request):
        log.info(
            "%s (%s) at %s asks for a seat (request %d)",
            name,
            connection.peer.fingerprint,
            peer_text(address, 64),
            decision.number,
        )
        # A request waits up to ANSWER_TIMEOUT, longer than the transport lets a stranger stay:
        # admission's caps (MAX_PENDING, per source) bound pending requests instead. Held, not
        # trusted: until it is seated it keeps a stranger's small receive queue.
        connection.hold()
        lobby.touch()  # the host's person is asked (HostDesk.lobby)
        if not await _await_answer(connection, lobby, ready, decision):
            return
        if len(lobby.seated) >= lobby.players:
            await refuse(connection, Refusal("full", "the table is full"))
            return
    # A seat is free now (admission counted them; no wait since, or the check just above), but
    # the one asked for may have gone while the host's person looked.
    asked = lobby.place_for(message.seat)
    if isinstance(asked, Refusal):
        await refuse(connection, asked)
        return
    seated = Seated(
        message.name,
        connection.peer,
        bare_host(address),
        message.listen_port,
        message.host_address,
        connection,
        message.commitment,
        asked,
    )
    lobby.seat(seated)
    connection.trust()  # seated: out of the listener's stranger limits (transport)
    lobby.options.say(
        # No seat number: bots are put in their numbers' order as they arrive, so a number
        # said now could change; the seats line and "Seated at seat N" give the final ones.
        said(
            "took_seat",
            ui_lang(lobby.options),
            name=name,
            fingerprint=connection.peer.fingerprint,
            seated=len(lobby.seated),
            players=lobby.players,
        )
    )
    await lobby.broadcast_seats()
    await _hold(connection, lobby, ready, seated, name)


async def _hold(
    connection: Connection, lobby: LiveLobby, ready: trio.Event, seated: Seated, name: str
) -> None:
    """Keep a seated joiner's connection until the genesis goes out (or it leaves, or the host
    removes it)."""
    swaps = lobby.swaps
    # Hold the connection (and notice a joiner who leaves, or is removed) until the game begins.
    while not ready.is_set():
        changed = lobby.changed
        with trio.move_on_after(0.5):
            await changed.wait()
        if ready.is_set():
            return
        if swaps != lobby.swaps and seated in lobby.seated:  # the host swapped seats
            swaps = lobby.swaps
            with suppress(ConnectionClosed, NetError, trio.BrokenResourceError):
                await lobby.send_seats(seated)
        if seated not in lobby.seated:
            await refuse(connection, Refusal("removed", "the host removed you from the table"))
            await lobby.broadcast_seats()
            return
        if connection.closed:
            lobby.seated.remove(seated)
            lobby.options.say(said("left_lobby", ui_lang(lobby.options), name=name))
            await lobby.broadcast_seats()
            return


async def _await_answer(
    connection: Connection, lobby: LiveLobby, ready: trio.Event, request: Request
) -> bool:
    """Wait for the host's answer to `request`; False (the joiner told why) unless seated."""
    admission = lobby.admission
    while True:
        verdict = admission.verdict(request.number)
        if connection.closed:  # first: a "yes" to an asker already gone seats nobody
            if admission.withdraw(request.number) is not None:
                lobby.options.say(
                    said(
                        "stopped_asking",
                        ui_lang(lobby.options),
                        name=request.name,
                        number=request.number,
                    )
                )
                lobby.touch()
            return False
        if verdict is True:
            return True
        if verdict is False:
            await refuse(connection, Refusal("refused", "the host refused you a seat"))
            return False
        if ready.is_set() or len(lobby.seated) >= lobby.players:
            admission.withdraw(request.number)
            lobby.touch()
            await refuse(connection, Refusal("full", "the table is full"))
            return False
        if any(r.number == request.number for r in admission.expire()):
            lobby.options.say(
                said("unanswered", ui_lang(lobby.options), name=request.name, number=request.number)
            )
            lobby.touch()
            await refuse(connection, Refusal("unanswered", "the host did not answer"))
            return False
        changed = lobby.changed
        with trio.move_on_after(max(0.0, min(0.5, request.deadline - admission.now()))):
            await changed.wait()


async def refuse(connection: Connection, refusal: Refusal) -> None:
    """Tell a joiner why it has no seat (with a machine-readable code), then hang up."""
    with suppress(ConnectionClosed, NetError, trio.BrokenResourceError):
        await connection.send(encode_lobby(Refuse(refusal.code, refusal.reason)))
    await connection.aclose(refusal.code)


def welcome_back(lobby: LiveLobby, connection: Connection, join: Join) -> Seated | None:
    """The seat kept for this key, now taken again with its new commitment; None when this is
    not a player sent back to the lobby."""
    seated = next((s for s in lobby.seated if s.key == connection.peer), None)
    if seated is None or seated.returning is None:
        return None
    address = connection.remote_address
    host, _, _ = address.rpartition(":")
    seated.name = join.name
    seated.observed = host.strip("[]") or address
    seated.port = join.listen_port
    seated.host_address = join.host_address
    seated.connection = connection
    seated.commitment = join.commitment
    seated.returning = None
    connection.trust()
    name = peer_text(join.name, 64)
    lang = ui_lang(lobby.options)
    lobby.options.say(setup_said("returned", lang, name=name, seat=seated.place + 1))
    return seated
