"""Hosting and joining a table on the LAN: the lobby, the genesis, the mesh, then play.

The host listens (and advertises over mDNS), seats players clockwise in join order, fills empty
seats with bot peers that it starts as separate processes, and once every seat is taken signs
the genesis and sends it to all. Every peer then dials the seats below its own, and the game
runs over that full mesh (`runtime.play_table`).
"""

from __future__ import annotations

import dataclasses
import ipaddress
import logging
import secrets
import subprocess
import sys
from collections.abc import Callable, Collection, Mapping, Sequence
from contextlib import AsyncExitStack, suppress
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Final

import trio

from p2p_dominoes.bots import BOTS
from p2p_dominoes.engine import PRESETS, InvalidRecord, Rules
from p2p_dominoes.engine.rules_text import describe_rules, preset_label
from p2p_dominoes.net.admission import (
    JOIN_DEADLINE,
    Admission,
    HostDesk,
    LobbySeat,
    LobbyState,
    Refusal,
    Request,
)
from p2p_dominoes.net.backoff import Backoff
from p2p_dominoes.net.connection import Connection, connect
from p2p_dominoes.net.connection import Refusal as HandshakeRefusal
from p2p_dominoes.net.discovery import (
    Advertisement,
    DiscoveryError,
    TableInfo,
    open_discovery,
)
from p2p_dominoes.net.errors import ConnectionClosed, HandshakeError, IdentityMismatch, NetError
from p2p_dominoes.net.framing import Data
from p2p_dominoes.net.listener import Listener, open_listener
from p2p_dominoes.net.lobby import (
    RETRY_CODES,
    BotLevels,
    GenesisOffer,
    Join,
    Refuse,
    SeatAddress,
    Seats,
    encode_lobby,
)
from p2p_dominoes.net.lobby_lines import (
    closed_line,
    host_speaker,
    join_with_lines,
    own_fingerprint_line,
    refusal_line,
)
from p2p_dominoes.net.runtime import (
    Inbox,
    PeerFailure,
    PeerOptions,
    TableRun,
    accept_genesis,
    dialed,
    lobby_message,
    play_table,
    serve_link,
    sit_down,
)
from p2p_dominoes.net.said import pairs_said, said
from p2p_dominoes.net.setup_again import (
    back_to_lobby,
    link_bots,
    unseat,
    wait_until_seated,
    welcome_back,
)
from p2p_dominoes.net.setup_lost import (
    AGAIN_CODE,
    SETUP_RESUME_WAIT,
    SETUP_UNLINKED_GRACE,
    UNSTARTED_CODE,
    SetupLost,
    pause_before_signing,
    setup_said,
)
from p2p_dominoes.net.strangers import StrangerLog, StrangerTally
from p2p_dominoes.net.timing import bot_timing_path
from p2p_dominoes.peer_text import peer_text, quoted
from p2p_dominoes.session import (
    GENESIS_SIGN,
    PROTOCOL_VERSION,
    Envelope,
    Genesis,
    Identity,
    InvalidMessage,
    PublicIdentity,
    SeatInfo,
    default_registry,
    new_table_nonce,
    seat_commitment,
)
from p2p_dominoes.session.table import Phase, TableSession
from p2p_dominoes.session.transcript import Transcript
from p2p_dominoes.store import (
    BotSeat,
    BotSeatError,
    HandSecrets,
    NonceFileError,
    PeerAddress,
    TableLog,
    TableLogBusy,
    TableLogError,
    TableNonceFile,
    bot_seat_key,
    bot_seats,
    keep_bot_seat,
    read_log,
)

log = logging.getLogger("p2p_dominoes.net")

SEAT_WAIT: Final = 30.0
"""Seconds a peer waits for a seated peer's connection before it goes on without it."""


def split_host_port(text: str) -> tuple[str, int]:
    """`HOST:PORT` or `[V6]:PORT` → (host, port); ValueError with a clear message otherwise."""
    host, sep, port = text.rpartition(":")
    if not sep or not host or not port.isdigit() or not 1 <= int(port) <= 65535:
        raise ValueError(f"{text!r} is not HOST:PORT")
    return host.strip("[]"), int(port)


def _bare_host(address: str) -> str:
    """The host part of a `host:port` / `[v6]:port` remote address."""
    try:
        return split_host_port(address)[0]
    except ValueError:
        return address


def _is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host.split("%", 1)[0]).is_loopback
    except ValueError:
        return False


@dataclass
class _Seated:
    name: str
    key: PublicIdentity
    observed: str
    """The address the host saw the player connect from."""
    port: int
    host_address: str
    """The address the player used to reach the host."""
    connection: Connection | None
    commitment: bytes
    """The player's table-nonce commitment, for its genesis seat (table code)."""
    place: int = 0
    """The seat this player holds (0-based; the host's is 0). At the start it is the genesis
    seat, so at a Kozel table it fixes the pairs (0+2 against 1+3)."""
    returning: float | None = None
    """Since when (trio clock) this seat is kept for its player, sent back to the lobby after
    another seat was lost during the setup (`setup_again.py`); None: the player is here."""


class _HostLobby:
    """The host's seat list before the genesis, who asks for a seat, and the host's answers."""

    def __init__(
        self,
        options: PeerOptions,
        listener: Listener,
        players: int,
        table: str,
        rules: Rules,
        desk: HostDesk | None,
        commitment: bytes,
        max_hands: int | None = None,
        code: bytes | None = None,
    ) -> None:
        self.options = options
        self.max_hands = max_hands
        self.players = players
        self.table = table
        self.rules = rules
        self.desk = desk
        self.admission = Admission(ask=desk is not None, code=code)
        self.strangers = StrangerLog(log)
        self.seated: list[_Seated] = [
            _Seated(options.name, options.identity.public, "", listener.port, "", None, commitment)
        ]
        """Kept in seat order (`place`); seats may be empty between them before the start."""
        self.started = False
        self.bot_numbers: dict[PublicIdentity, int] = {}
        """Our own bots' keys and numbers: they sit in number order, whoever came first."""
        self.bot_levels: dict[PublicIdentity, str] = {}
        """Our own bots' keys and levels, said to the joiners for their pages."""
        self.full = trio.Event()
        self.changed = trio.Event()
        self.swaps = 0
        """How many swaps the host made (each is sent to everyone seated)."""
        self.abandoned: set[PublicIdentity] = set()
        """Keys of seats lost while a genesis was signed: one that resumes it is told that
        table never started."""

    def seats_for(self, recipient: _Seated) -> Seats:
        """The seat list as `recipient` should dial it (bots beside the host via its address)."""
        seats = []
        for seated in self.seated:
            if seated.connection is None or _is_loopback(seated.observed):
                address = recipient.host_address or "127.0.0.1"
            else:
                address = seated.observed
            seats.append(SeatAddress(seated.name, seated.key, address, seated.port))
        places = tuple(s.place for s in self.seated)
        # Places go on the wire only when there is a gap (older joiners read 0, 1, 2, … then).
        shown = None if places == tuple(range(len(places))) else places
        return Seats(self.table, self.rules, self.players, tuple(seats), self.max_hands, shown)

    async def send_seats(self, seated: _Seated) -> None:
        """Send `seated` the seat list, then which seats our bots hold and at what level (a
        message of its own, PROTOCOL.md §13.2, which older joiners drop unread)."""
        assert seated.connection is not None
        await seated.connection.send(encode_lobby(self.seats_for(seated)))
        bots = tuple(
            (s.key, self.bot_levels[s.key]) for s in self.seated if s.key in self.bot_levels
        )
        if bots:
            await seated.connection.send(encode_lobby(BotLevels(bots)))

    def state(self) -> LobbyState:
        """The lobby as the host's person sees it (names cleaned)."""
        seats = tuple(
            LobbySeat(
                s.place, peer_text(s.name, 64), s.key.fingerprint, self.admission.trusts(s.key)
            )
            for s in self.seated
        )
        pairs = self.rules.pairs
        table = peer_text(self.table, 64)
        code = self.admission.code
        return LobbyState(table, self.players, seats, self.admission.pending, pairs, code)

    def holder(self, place: int) -> _Seated | None:
        """Who holds seat `place`, if anyone."""
        return next((s for s in self.seated if s.place == place), None)

    def place_for(self, asked: int | None) -> int | Refusal:
        """The seat a joiner asking for `asked` (None: any) gets now, or why not.

        A seat one of our own bots holds is free for a person (the bot moves to another).
        """
        if asked is None:
            return self._lowest_free()
        if not 0 <= asked < self.players:
            return Refusal(
                "seat",
                f"there is no seat {asked + 1} at this table (seats 2–{self.players} are "
                "for joiners)",
            )
        if asked == 0:
            return Refusal("seat", "seat 1 is the host's")
        holder = self.holder(asked)
        if holder is not None and not self.admission.trusts(holder.key):
            return Refusal("seat", f"seat {asked + 1} is taken")
        return asked

    def _lowest_free(self) -> int:
        taken = {s.place for s in self.seated}
        return next(p for p in range(1, self.players) if p not in taken)

    def seat(self, seated: _Seated) -> None:
        """Put `seated` at its place; a bot there moves to the lowest free seat."""
        holder = self.holder(seated.place)
        self.seated.append(seated)
        if holder is not None:
            holder.place = -1
            holder.place = self._lowest_free()
        self._sort()

    def _sort(self) -> None:
        self.seated.sort(key=lambda s: s.place)
        if not self.swaps:  # once the host swapped, every seat stays where the host put it
            _bots_in_order(self.seated, self.bot_numbers)

    def touch(self) -> None:
        """Something changed: wake the tasks that wait on the lobby and show the host's person."""
        self.changed.set()
        self.changed = trio.Event()
        if self.desk is not None and not self.started:
            self.desk.lobby(self.state())

    async def broadcast_seats(self) -> None:
        for seated in list(self.seated):
            if seated.connection is not None:
                with suppress(ConnectionClosed, NetError, trio.BrokenResourceError):
                    await self.send_seats(seated)
        self.touch()

    # -- the host's answers (LobbyControl) -------------------------------------------------------

    def approve(self, number: int) -> bool:
        if self.started or self.admission.answer(number, True) is None:
            return False
        self.touch()
        return True

    def refuse(self, number: int) -> bool:
        if self.started:
            return False
        request = self.admission.answer(number, False)
        if request is None:
            return False
        self.options.say(
            said(
                "refused_request",
                _lang(self.options),
                name=request.name,
                fingerprint=request.key.fingerprint,
            )
        )
        self.touch()
        return True

    def remove(self, seat: int) -> bool:
        """Take seat `seat` (not the host's) back before the start; its task tells the player."""
        removed = self.holder(seat) if not self.started and seat != 0 else None
        if removed is None:
            return False
        self.seated.remove(removed)
        if not self.rules.pairs:  # where one sits matters only to partners: close the gap
            for place, seated in enumerate(self.seated):
                seated.place = place
        self.admission.removed(removed.key)
        self.options.say(
            said("removed", _lang(self.options), name=peer_text(removed.name, 64), seat=seat + 1)
        )
        self.touch()
        return True

    def swap(self, first: int, second: int) -> bool:
        """Exchange seats `first` and `second` (either may be empty; not the host's) before the
        start: at a Kozel table this chooses who partners whom. Everyone is sent the new list."""
        places = range(1, self.players)
        if self.started or first == second or first not in places or second not in places:
            return False
        one, other = self.holder(first), self.holder(second)
        if one is None and other is None:
            return False
        if one is not None:
            one.place = second
        if other is not None:
            other.place = first
        # Only the order is sorted here: our bots keep the seats the host gave them.
        self.seated.sort(key=lambda s: s.place)
        self.options.say(said("swapped", _lang(self.options), first=first + 1, second=second + 1))
        self.swaps += 1
        self.touch()
        return True


async def host_table(
    options: PeerOptions,
    *,
    table_name: str,
    rules: Rules,
    players: int,
    bots: int,
    bot_strategy: str | Sequence[str],
    hands: int | None,
    desk: HostDesk | None = None,
    join_code: bytes | None = None,
) -> int:
    """Open a table, seat players and bots, then play; returns the exit status.

    With a `desk` (a person at the host) every joiner waits for the person's answer; without
    one joiners are seated as they come. With a `join_code` a joiner without it is refused
    before anyone is asked (`net/join_code.py`). Bots the host starts itself are always seated;
    `bot_strategy` is how they all play, or a list with each bot's own.
    """
    rules.check_players(players)
    if not 0 <= bots <= players - 1:
        raise PeerFailure(f"--bots must be between 0 and {players - 1}")
    strategies = [bot_strategy] * bots if isinstance(bot_strategy, str) else list(bot_strategy)
    if len(strategies) != bots:
        raise PeerFailure(f"one strategy for each of the {bots} bots, not {len(strategies)}")
    listener = await open_listener(interface=options.interface, port=options.port)
    if options.timing is not None:
        options.timing.mark("listening")
    table_id = first_table_id = secrets.token_bytes(16)
    nonce = new_table_nonce()  # table code: committed now, revealed in our genesis_sign
    commitment = seat_commitment(options.identity.public, nonce)
    lobby = _HostLobby(
        options, listener, players, table_name, rules, desk, commitment, hands, join_code
    )
    inbox = Inbox.new()
    session_box: list[TableSession] = []
    ready = trio.Event()
    say = options.say
    lang = _lang(options)
    port = listener.port
    named = _rules_name(rules.name, lang)
    say(said("open", lang, table=table_name, rules=named, players=players, port=port))
    for line in join_with_lines(f"{_dial_host(options)}:{port}", join_code, lang):
        say(line)
    say(said("your_fingerprint", lang, fingerprint=options.identity.public.fingerprint))

    async def handler(connection: Connection) -> None:
        if ready.is_set():
            await _serve_seated(connection, session_box[0], inbox)
            return
        await _lobby_member(connection, lobby, ready)
        if ready.is_set() and any(s.connection is connection for s in lobby.seated):
            seat = next(i for i, s in enumerate(lobby.seated) if s.connection is connection)
            await serve_link(inbox, seat, connection)

    # The stack (mDNS, whose nursery opens inside ours) closes first, then the bots finish,
    # then the listener: its port is free at once for the next table (a rematch reopens it).
    async with listener, trio.open_nursery() as bot_nursery, AsyncExitStack() as stack:
        advert = await _advertise(stack, options, table_id, table_name, rules, players, listener)
        async with trio.open_nursery() as nursery:
            await nursery.start(
                partial(listener.serve, authorize=_seated_only(session_box)),
                options.identity,
                handler,
            )
            for number in range(bots):
                bot_identity = Identity.generate()
                lobby.admission.trust(bot_identity.public)
                lobby.bot_numbers[bot_identity.public] = number
                bot_name = f"bot-{number + 1}"
                strategy = strategies[number]
                lobby.bot_levels[bot_identity.public] = strategy
                kept = _keep_bot(options, table_id, bot_name, strategy, bot_identity)
                bot_nursery.start_soon(
                    _run_bot,
                    options,
                    listener.port,
                    bot_name,
                    strategy,
                    bot_identity,
                    kept,
                )
            attending = trio.CancelScope()
            if desk is not None:
                nursery.start_soon(_attend, desk, lobby, attending)
                desk.lobby(lobby.state())
            while True:
                await wait_until_seated(lobby, advert)
                lobby.started = True
                attending.cancel()
                seats = lobby.seats_for(lobby.seated[0]).seats
                commitments = [s.commitment for s in lobby.seated]
                genesis = _genesis(table_id, rules, seats, commitments, hands)
                envelope = genesis.sign(options.identity, 0)
                offer = encode_lobby(GenesisOffer(envelope.encode()))
                transcript = Transcript(envelope, default_registry())
                peers = [PeerAddress(i, s.address, s.port) for i, s in enumerate(seats)]
                session, log = sit_down(options, transcript, 0, table_name, peers, nonce)
                link_bots(options, first_table_id, table_id)
                session_box.append(session)
                names = tuple(s.name for s in seats)
                run = TableRun(session, options, names, inbox=inbox, log=log)
                run.bot_levels = _levels_by_seat(seats, lobby.bot_levels)
                run.setup_watch = SETUP_UNLINKED_GRACE
                ready.set()
                lobby.touch()  # requests still waiting are refused by their tasks
                for seated in lobby.seated[1:]:
                    assert seated.connection is not None
                    try:
                        # The final seat list first: a broadcast of it may still be under way.
                        await lobby.send_seats(seated)
                        await seated.connection.send(offer)
                    except (ConnectionClosed, NetError):
                        say(said("left_before", lang, name=peer_text(seated.name, 64)))
                if advert is not None:
                    await advert.update(phase="playing", seats_taken=players)
                async with trio.open_nursery() as game:
                    status = await play_table(run, game)
                    game.cancel_scope.cancel()
                if run.abandoned is None:
                    break
                # A seat was lost before every seat signed: a fresh genesis (new table id, new
                # nonces) once the seats are full again; nothing of this one is reused.
                table_id, nonce = secrets.token_bytes(16), new_table_nonce()
                lobby.seated[0].commitment = seat_commitment(options.identity.public, nonce)
                session_box.clear()
                inbox = Inbox.new()
                ready = trio.Event()
                unseat(options)
                await back_to_lobby(lobby, run.abandoned.seat, lang)
                if advert is not None:
                    await advert.update(phase="lobby", seats_taken=len(lobby.seated))
                if desk is not None:
                    attending = trio.CancelScope()
                    nursery.start_soon(_attend, desk, lobby, attending)
            nursery.cancel_scope.cancel()
        _let_bots_finish(bot_nursery)
    return status


async def _attend(desk: HostDesk, lobby: _HostLobby, scope: trio.CancelScope) -> None:
    """Run the host's person's answers until the game begins."""
    with scope:
        await desk.attend(lobby)


async def _advertise(
    stack: AsyncExitStack,
    options: PeerOptions,
    table_id: bytes,
    table_name: str,
    rules: Rules,
    players: int,
    listener: Listener,
) -> Advertisement | None:
    """Advertise the table over mDNS (unless turned off); None when it cannot be."""
    if not options.mdns:
        return None
    try:
        disco = await stack.enter_async_context(
            open_discovery(interface=options.interface, browse=False)
        )
        info = TableInfo(
            table_id,
            table_name,
            options.name,
            options.identity.public.fingerprint,
            1,
            players,
            advertised_rules(rules),
            "lobby",
        )
        advert = await disco.advertise(info, listener.port, options.identity)
    except (DiscoveryError, OSError, ValueError) as exc:
        options.say(said("not_advertised", _lang(options), reason=exc))
        return None
    options.say(said("advertised", _lang(options)))
    return advert


def _dial_host(options: PeerOptions) -> str:
    if options.interface:
        return f"[{options.interface}]" if ":" in options.interface else options.interface
    from p2p_dominoes.net.discovery import lan_addresses

    addresses = lan_addresses()
    return addresses[0] if addresses else "127.0.0.1"


def _genesis(
    table_id: bytes,
    rules: Rules,
    seats: tuple[SeatAddress, ...],
    commitments: list[bytes],
    max_hands: int | None,
) -> Genesis:
    infos = (SeatInfo(s.name, s.key, c) for s, c in zip(seats, commitments, strict=True))
    return Genesis(table_id, rules.to_wire(), tuple(infos), max_hands=max_hands)


def _bots_in_order(seated: list[_Seated], numbers: dict[PublicIdentity, int]) -> None:
    """Put our own bots, among the seats they hold, in the order of their numbers (they start
    at once and arrive in any order; `bot-2` should not sit before `bot-1`). Other seats stay
    where they are."""
    places = [i for i, s in enumerate(seated) if s.key in numbers]
    seats = [seated[i].place for i in places]
    bots = sorted((seated[i] for i in places), key=lambda s: numbers[s.key])
    for index, bot, seat in zip(places, bots, seats, strict=True):
        seated[index] = bot
        bot.place = seat


async def _lobby_member(connection: Connection, lobby: _HostLobby, ready: trio.Event) -> None:
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
        await _refuse(connection, Refusal(UNSTARTED_CODE, setup_said("back_to_lobby", "en")))
        return
    if not isinstance(message, Join):
        lobby.strangers.warn(address, "sent something other than a join message")
        await connection.aclose("expected a join message")
        return
    if ready.is_set():
        await _refuse(connection, Refusal("playing", "the game has begun"))
        return
    back = welcome_back(lobby, connection, message)
    if back is not None:  # sent back to the lobby after another seat was lost: its seat kept
        await lobby.broadcast_seats()
        await _hold(connection, lobby, ready, back, peer_text(message.name, 64))
        return
    wanted = lobby.place_for(message.seat) if message.seat is not None else None
    if isinstance(wanted, Refusal):  # before the host's person is bothered
        lobby.strangers.warn(address, f"asked for a seat it cannot have: {wanted.reason}")
        await _refuse(connection, wanted)
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
        await _refuse(connection, decision)
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
            await _refuse(connection, Refusal("full", "the table is full"))
            return
    # A seat is free now (admission counted them; no wait since, or the check just above), but
    # the one asked for may have gone while the host's person looked.
    asked = lobby.place_for(message.seat)
    if isinstance(asked, Refusal):
        await _refuse(connection, asked)
        return
    seated = _Seated(
        message.name,
        connection.peer,
        _bare_host(address),
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
            _lang(lobby.options),
            name=name,
            fingerprint=connection.peer.fingerprint,
            seated=len(lobby.seated),
            players=lobby.players,
        )
    )
    await lobby.broadcast_seats()
    await _hold(connection, lobby, ready, seated, name)


async def _hold(
    connection: Connection, lobby: _HostLobby, ready: trio.Event, seated: _Seated, name: str
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
            await _refuse(connection, Refusal("removed", "the host removed you from the table"))
            await lobby.broadcast_seats()
            return
        if connection.closed:
            lobby.seated.remove(seated)
            lobby.options.say(said("left_lobby", _lang(lobby.options), name=name))
            await lobby.broadcast_seats()
            return


async def _await_answer(
    connection: Connection, lobby: _HostLobby, ready: trio.Event, request: Request
) -> bool:
    """Wait for the host's answer to `request`; False (the joiner told why) unless seated."""
    admission = lobby.admission
    while True:
        verdict = admission.verdict(request.number)
        if verdict is True:
            return True
        if verdict is False:
            await _refuse(connection, Refusal("refused", "the host refused you a seat"))
            return False
        if connection.closed:
            if admission.withdraw(request.number) is not None:
                lobby.options.say(
                    said(
                        "stopped_asking",
                        _lang(lobby.options),
                        name=request.name,
                        number=request.number,
                    )
                )
                lobby.touch()
            return False
        if ready.is_set() or len(lobby.seated) >= lobby.players:
            admission.withdraw(request.number)
            lobby.touch()
            await _refuse(connection, Refusal("full", "the table is full"))
            return False
        if any(r.number == request.number for r in admission.expire()):
            lobby.options.say(
                said("unanswered", _lang(lobby.options), name=request.name, number=request.number)
            )
            lobby.touch()
            await _refuse(connection, Refusal("unanswered", "the host did not answer"))
            return False
        changed = lobby.changed
        with trio.move_on_after(max(0.0, min(0.5, request.deadline - admission.now()))):
            await changed.wait()


async def _refuse(connection: Connection, refusal: Refusal) -> None:
    """Tell a joiner why it has no seat (with a machine-readable code), then hang up."""
    with suppress(ConnectionClosed, NetError, trio.BrokenResourceError):
        await connection.send(encode_lobby(Refuse(refusal.code, refusal.reason)))
    await connection.aclose(refusal.code)


def _seated_only(
    session_box: list[TableSession],
) -> Callable[[PublicIdentity], HandshakeRefusal | None]:
    """Once the genesis exists, refuse (at the handshake) every key it does not seat: the
    table is full, and the code says so to a joiner (`playing`)."""

    def authorize(peer: PublicIdentity) -> HandshakeRefusal | None:
        if not session_box:
            return None  # the lobby: anyone may ask for a seat
        seat = session_box[0].transcript.genesis.seat_of(peer)
        if seat is not None:
            return None
        return HandshakeRefusal(
            "not seated at this table (the table is full: its game has begun)", "playing"
        )

    return authorize


_NOT_SEATED: Final = StrangerTally(log, "refused: not seated at this table")
"""A resumed table's strangers: one line per source, a count after the first few."""


async def _serve_seated(connection: Connection, session: TableSession, inbox: Inbox) -> None:
    seat = session.transcript.genesis.seat_of(connection.peer)
    if seat is None or seat == session.seat:
        _NOT_SEATED.warn(connection.remote_address, connection.peer.fingerprint)
        await connection.aclose("not seated at this table")
        return
    connection.trust()
    await serve_link(inbox, seat, connection)


def _keep_bot(
    options: PeerOptions, table_id: bytes, name: str, strategy: str, identity: Identity
) -> BotSeat | None:
    """The bot's own data directory under our table's (None when we keep no data ourselves)."""
    if options.data_dir is None:
        return None
    try:
        return keep_bot_seat(options.data_dir, table_id, name, strategy, identity)
    except BotSeatError as exc:
        raise PeerFailure(str(exc)) from None


def _bot_command(options: PeerOptions, name: str, verb: list[str], strategy: str) -> list[str]:
    """The command line of a bot peer we start (`join …` or `resume`), without its identity."""
    command = [sys.executable, "-m", "p2p_dominoes", *verb, "--bot", strategy]
    command += ["--ui", "none", "--port", "0"]
    if options.interface:
        command += ["--interface", options.interface]
    if options.timing is not None:
        command += ["--timing", str(bot_timing_path(options.timing.path, name))]
    return command


async def _run_bot(
    options: PeerOptions,
    port: int,
    name: str,
    strategy: str,
    identity: Identity,
    kept: BotSeat | None,
) -> None:
    """A bot peer as a child process, with an identity the host made (and so seats unasked).

    With a data directory of its own (`kept`: its identity key is stored there, 0600) the bot
    keeps its table log and hand secrets, and comes back when we resume; without one its private
    key goes to it on its standard input, never on its command line (which other local users
    can read).
    """
    host = _dial_host(options) if options.interface else "127.0.0.1"
    verb = ["join", "--connect", f"{host}:{port}", "--name", name]
    command = _bot_command(options, name, verb, strategy)
    if kept is not None:
        command += ["--data-dir", str(kept.directory)]
        given = b""
    else:
        command += ["--identity-stdin"]
        given = identity.private_bytes().hex().encode() + b"\n"
    await trio.run_process(command, stdin=given, stdout=subprocess.DEVNULL, check=False)


BOTS_FINISH: Final = 20.0
"""Seconds our bots get, once our match is over, to log its end and exit on their own."""


def _let_bots_finish(bots: trio.Nursery) -> None:
    """Our table is over: the bots we started end on their own (their logs say "over"), and any
    still running after BOTS_FINISH seconds is stopped."""
    bots.cancel_scope.deadline = trio.current_time() + BOTS_FINISH


async def _resume_bot(options: PeerOptions, bot: BotSeat) -> None:
    """Resume a bot we started at this table, on its own data directory. One still running
    (we were killed, it was not) answers that its table is busy and keeps playing."""
    command = _bot_command(
        options, bot.name, ["resume", "--data-dir", str(bot.directory)], bot.strategy
    )
    done = await trio.run_process(
        command,
        stdin=b"",
        stdout=subprocess.DEVNULL,
        capture_stderr=True,
        check=False,
    )
    if done.returncode != 0:
        said = peer_text(done.stderr.decode("utf-8", "replace").strip(), 300)
        log.info("bot %s resumed with status %d: %s", bot.name, done.returncode, said)


# -- joining ------------------------------------------------------------------------------------


DIAL_PATIENCE: Final = 30.0
"""Seconds a joiner keeps dialling the host before it gives up (`join --dial-timeout`)."""


@dataclass(frozen=True)
class Target:
    """Where to find the host: addresses, port, and the key to expect (None: compare by eye)."""

    addresses: tuple[str, ...]
    port: int
    expect: PublicIdentity | str | None
    patience: float = DIAL_PATIENCE
    seat: int | None = None
    """The seat to ask the host for (0-based; None: any free seat)."""
    note: str = ""
    """What the user should know about how the table was chosen (several had its name)."""
    code: bytes | None = None
    """The host's join code, as the player gave it (None: none given)."""


BUSY_FIRST_WAIT: Final = 1.0
BUSY_LONGEST_WAIT: Final = 15.0
BUSY_PATIENCE: Final = 180.0
"""Seconds a joiner refused as `busy` keeps asking again (backoff, jittered, capped)."""


class _Again(Exception):
    """The host sends us back to its lobby: a seat was lost before the table started."""


class _TryAgain(Exception):
    """The host refused with a code that says: ask again later (or dropped us unanswered:
    `ours`, the reason is our own words, not the host's)."""

    def __init__(self, refusal: Refuse, *, ours: bool = False) -> None:
        super().__init__(refusal.reason)
        self.refusal = refusal
        self.reason = peer_text(refusal.reason, 200) if ours else quoted(refusal.reason, 200)


def busy_waits(patience: float = BUSY_PATIENCE) -> list[float]:
    """How long to wait before each new request after `busy` refusals: doubling from
    BUSY_FIRST_WAIT up to BUSY_LONGEST_WAIT, each cut by a random 0–50 % (so that joiners turned
    away together do not come back together), at most `patience` seconds in all."""
    jitter = secrets.SystemRandom()
    waits: list[float] = []
    delay = BUSY_FIRST_WAIT
    while sum(waits) + delay <= patience:
        waits.append(delay * jitter.uniform(0.5, 1.0))
        delay = min(delay * 2, BUSY_LONGEST_WAIT)
    return waits


def _announced_only(
    session_box: list[TableSession], announced: set[PublicIdentity]
) -> Callable[[PublicIdentity], str | None]:
    """A joiner's listener: before the genesis only the host and the keys of its latest seat
    list get past the handshake; after it, only the genesis's seats."""

    def authorize(peer: PublicIdentity) -> str | None:
        if session_box:
            seat = session_box[0].transcript.genesis.seat_of(peer)
            return "not seated at this table" if seat is None else None
        return None if peer in announced else "not seated at this table"

    return authorize


async def join_table(options: PeerOptions, target: Target) -> int:
    """Take a seat at a host's table, then play; returns the exit status."""
    say = options.say
    listener = await open_listener(interface=options.interface, port=options.port)
    if options.timing is not None:
        options.timing.mark("listening")
    inbox = Inbox.new()
    session_box: list[TableSession] = []
    announced: set[PublicIdentity] = set()
    ready = trio.Event()

    async def handler(connection: Connection) -> None:
        # Only an announced seat gets here before the genesis: hold it until we have the
        # genesis too (it dialled first), and let it go if the host's seat list drops it.
        deadline = trio.current_time() + SEAT_WAIT
        while not ready.is_set() and trio.current_time() < deadline:
            if connection.peer not in announced or connection.closed:
                return
            with trio.move_on_after(0.5):
                await ready.wait()
        if ready.is_set():
            await _serve_seated(connection, session_box[0], inbox)

    waits = busy_waits()
    async with listener, trio.open_nursery() as outer:
        await outer.start(
            partial(listener.serve, authorize=_announced_only(session_box, announced)),
            options.identity,
            handler,
        )
        lang = _lang(options)
        say(said("listening", lang, port=listener.port))
        # Table code: committed in our join (the same nonce on every retry), revealed once seated.
        nonce = new_table_nonce()
        while True:
            async with dialed(
                options.identity,
                target.addresses,
                target.port,
                target.expect,
                patience=target.patience,
                progress=say,
                lang=lang,
            ) as host:
                if target.expect is None:
                    where, fingerprint = host.remote_address, host.peer.fingerprint
                    say(said("connected_to", lang, address=where, fingerprint=fingerprint))
                    say(said("compare_host", lang))
                announced.clear()
                announced.add(host.peer)
                join = Join(
                    options.name,
                    listener.port,
                    _bare_host(host.remote_address),
                    seat_commitment(options.identity.public, nonce),
                    target.seat,
                    target.code,
                )
                await host.send(encode_lobby(join))
                say(said("asked", lang))
                say(own_fingerprint_line(options.name, options.identity.public, lang))
                try:
                    offer, addresses, lobby, bots = await _await_genesis(host, say, announced, lang)
                except _Again:
                    wait = 0.0  # back to the lobby at once, with a new commitment
                    nonce = new_table_nonce()
                    target = dataclasses.replace(target, expect=host.peer)
                except _TryAgain as busy:
                    if not waits:
                        raise PeerFailure(
                            f"the host is still busy after {BUSY_PATIENCE:g} s "
                            f"({busy.reason}); try again later"
                        ) from None
                    wait = waits.pop(0)
                    say(said("busy", lang, reason=busy.reason, seconds=f"{wait:.0f}"))
                else:
                    played = await _play_joined(
                        options,
                        target,
                        host,
                        offer,
                        addresses,
                        lobby,
                        bots,
                        inbox,
                        session_box,
                        ready,
                        nonce,
                    )
                    if not isinstance(played, SetupLost):
                        status = played
                        break
                    if not played.told:  # the host itself is gone: the table never started
                        name = peer_text(lobby.seats[0].name, 64)
                        say(setup_said("host_lost", lang, name=name))
                        unseat(options)
                        status = 3
                        break
                    # Another seat was lost: back to the lobby, with a new commitment.
                    say(setup_said("back_to_lobby", lang))
                    unseat(options)
                    wait = 0.0
                    nonce = new_table_nonce()
                    target = dataclasses.replace(target, expect=host.peer)
                    session_box.clear()
                    inbox = Inbox.new()
                    ready = trio.Event()
            await trio.sleep(wait)
        outer.cancel_scope.cancel()
    return status


def _levels_by_seat(
    seats: Sequence[SeatInfo | SeatAddress],
    levels: Mapping[PublicIdentity, str],
    skip: Collection[int] = (),
) -> dict[int, str]:
    """Each seat's bot level, found by the seat's key (seats in `skip` left out)."""
    return {i: levels[s.key] for i, s in enumerate(seats) if i not in skip and s.key in levels}


async def _play_joined(
    options: PeerOptions,
    target: Target,
    host: Connection,
    offer: GenesisOffer,
    addresses: dict[int, tuple[str, int]],
    lobby: Seats,
    bots: Mapping[PublicIdentity, str],
    inbox: Inbox,
    session_box: list[TableSession],
    ready: trio.Event,
    nonce: bytes,
) -> int | SetupLost:
    """Sign the host's genesis (after checking it against the lobby), then play the table; or
    why the table never started (a seat lost before every seat signed the genesis)."""
    table_name = lobby.table_name
    transcript, seat = accept_genesis(offer, options.identity, host.peer, nonce)
    _check_genesis_against_lobby(transcript, lobby)
    seats = transcript.genesis.seats
    peers = [PeerAddress(i, *address) for i, address in sorted(addresses.items())]
    session, log = sit_down(options, transcript, seat, table_name, peers, nonce)
    session_box.append(session)
    run = TableRun(session, options, tuple(s.name for s in seats), inbox=inbox, log=log)
    # The host's word, shown only on pages: never its own seat or ours, only levels we know.
    said_bots = {key: level for key, level in bots.items() if level in BOTS}
    run.bot_levels = _levels_by_seat(seats, said_bots, skip=(0, seat))
    run.setup_watch = SETUP_UNLINKED_GRACE
    pause = pause_before_signing()
    if pause:  # test hook only (setup_lost.PAUSE_BEFORE_SIGNING): unsigned, and no links yet
        options.say(f"test hook: pausing {pause:g} s before signing the genesis")
        await trio.sleep(pause)
    ready.set()
    async with trio.open_nursery() as nursery:
        host_address = (target.addresses[0], target.port)
        nursery.start_soon(_host_link, options, inbox, host, host_address, seats[0].key)
        assert session.seat is not None
        for seat in range(1, session.seat):
            address = addresses.get(seat)
            if address is not None:
                nursery.start_soon(_dial_seat, options, inbox, seat, address, seats[seat].key)
        status = await play_table(run, nursery)
        nursery.cancel_scope.cancel()
    return status if run.abandoned is None else run.abandoned


async def _host_link(
    options: PeerOptions,
    inbox: Inbox,
    host: Connection,
    address: tuple[str, int],
    key: PublicIdentity,
) -> None:
    """The lobby connection carries the game; when it drops, dial the host again."""
    await serve_link(inbox, 0, host)
    await trio.sleep(0.5)
    await _dial_seat(options, inbox, 0, address, key)


def advertised_rules(rules: Rules) -> str:
    """The rules as the mDNS TXT record names them: the preset's name, or `custom` (TXT size)."""
    known = PRESETS.get(rules.name)
    if known is not None and _same_rules(rules, known):
        return rules.name
    return "custom"


def _same_rules(rules: Rules, other: Rules) -> bool:
    """Equal but for the stall timeout (each host may choose its own)."""
    return dataclasses.replace(rules, stall_timeout_s=other.stall_timeout_s) == other


def rules_lines(rules: Rules, lang: str = "en") -> list[str]:
    """The table's rules in plain words (en or ru): the preset they start from, then every
    switch that differs from it."""
    return describe_rules(rules.to_dict(), lang)


def _check_genesis_against_lobby(transcript: Transcript, lobby: Seats) -> None:
    """The genesis we are about to sign must be the table we were shown in the lobby."""
    genesis = transcript.genesis
    if genesis.protocol_version != PROTOCOL_VERSION:
        raise PeerFailure(
            f"the host's table uses protocol version {genesis.protocol_version}; "
            f"this program creates and joins only version {PROTOCOL_VERSION} tables"
        )
    try:
        rules = Rules.from_wire(genesis.rules)
    except InvalidRecord as exc:
        raise PeerFailure(f"the host's rules are not the ones it showed: {exc}") from None
    if not _same_rules(rules, lobby.rules):
        changed = ", ".join(n for n in rules.differences(lobby.rules) if n != "stall_timeout_s")
        raise PeerFailure(f"the host's genesis changes the rules it showed ({changed})")
    seated = [(s.name, s.key) for s in genesis.seats]
    if len(seated) != lobby.seats_total or seated != [(s.name, s.key) for s in lobby.seats]:
        raise PeerFailure("the host's genesis seats other players than the lobby showed")
    if genesis.max_hands != lobby.max_hands:
        raise PeerFailure(
            f"the host's genesis plays {_match_length(genesis.max_hands)}, "
            f"not {_match_length(lobby.max_hands)} as the lobby showed"
        )


def _match_length(max_hands: int | None, lang: str = "en") -> str:
    """How long a match lasts, in words: "2 hands", "1 hand" or "a whole match"."""
    if max_hands is None:
        return said("whole_match", lang)
    return said("one_hand", lang) if max_hands == 1 else said("hands", lang, n=max_hands)


def _rules_name(name: str, lang: str) -> str:
    """A rule set's name for the lobby lines: a preset's own words in Russian, else the name."""
    return preset_label(name, lang) if lang == "ru" else name


def _lang(options: PeerOptions) -> str:
    """The language the player's UI speaks (the terminal's and the page's have one)."""
    return str(getattr(options.ui, "lang", "en"))


async def _await_genesis(
    host: Connection,
    say: Callable[[str], None],
    announced: set[PublicIdentity],
    lang: str = "en",
) -> tuple[GenesisOffer, dict[int, tuple[str, int]], Seats, dict[PublicIdentity, str]]:
    """Follow the lobby (seat list updates) until the host sends the genesis.

    Returns the genesis offer, where each seat listens, the last seat list, and the levels of
    the host's bots as the host last said them (by key). `announced` follows the last seat
    list (and the host): the keys our listener lets in before the genesis. A `busy` refusal
    raises _TryAgain; any other is final.
    """
    shown: tuple[str, ...] = ()
    rules_shown: Rules | None = None
    addresses: dict[int, tuple[str, int]] = {}
    lobby: Seats | None = None
    bots: dict[PublicIdentity, str] = {}
    while True:
        try:
            message = lobby_message(await host.receive())
        except ConnectionClosed as exc:
            if lobby is None and not str(exc).startswith("peer said bye: "):
                # Dropped before any answer, without a word (a flood made the host's listener
                # make room): ask again, as after `busy`.
                dropped = Refuse("busy", said("dropped_unanswered", lang))
                raise _TryAgain(dropped, ours=True) from None
            speaker = host_speaker(host.peer, lobby, lang)
            raise PeerFailure(closed_line(str(exc), speaker, lang)) from None
        if isinstance(message, Refuse):
            if message.code in RETRY_CODES:
                raise _TryAgain(message)
            if message.code == AGAIN_CODE:
                raise _Again
            speaker = host_speaker(host.peer, lobby, lang)
            raise PeerFailure(refusal_line(message.code, message.reason, speaker, lang))
        if isinstance(message, Seats):
            addresses = {
                message.place_of(i): (s.address, s.port) for i, s in enumerate(message.seats)
            }
            lobby = message
            announced.clear()
            announced.add(host.peer)
            announced.update(s.key for s in message.seats)
            numbered = message.places is not None or message.rules.pairs  # seats matter
            names = tuple(
                (f"{message.place_of(i) + 1} " if numbered else "")
                + f"{peer_text(s.name, 64)} ({s.key.fingerprint})"
                for i, s in enumerate(message.seats)
            )
            if names != shown:
                table = peer_text(message.table_name, 64)
                rules = _rules_name(peer_text(message.rules.name, 64), lang)
                if message.max_hands is not None:
                    rules += f", {_match_length(message.max_hands, lang)}"
                say(
                    said(
                        "seats_of",
                        lang,
                        table=table,
                        rules=rules,
                        seated=len(names),
                        total=message.seats_total,
                        names=", ".join(names),
                    )
                )
                if message.rules.pairs and message.seats_total == 4:
                    by_seat = {
                        message.place_of(i): peer_text(s.name, 64)
                        for i, s in enumerate(message.seats)
                    }
                    say(pairs_said(by_seat, lang))
                shown = names
            if message.rules != rules_shown:  # what the table plays, before sitting down
                for line in rules_lines(message.rules, lang):
                    say("  " + peer_text(line, 400))
                rules_shown = message.rules
        if isinstance(message, BotLevels):
            bots = dict(message.levels)
        if isinstance(message, GenesisOffer):
            if lobby is None:
                raise PeerFailure("the host sent a genesis before any seat list")
            return message, addresses, lobby, bots


SEAT_DIAL_FIRST_DELAY: Final = 1.0
SEAT_DIAL_MAX_DELAY: Final = 30.0
"""Backoff between dials to a seat: a failing address is dialed a handful of times a minute."""
STABLE_LINK: Final = 10.0
"""A link that lasted this long (seconds) starts the backoff over when it drops."""


async def _dial_seat(
    options: PeerOptions,
    inbox: Inbox,
    seat: int,
    address: tuple[str, int],
    key: PublicIdentity,
) -> None:
    """Keep a connection to `seat` open for as long as the table lasts (cancelled when the match
    ends): dial, and dial again with backoff when it fails or drops (a peer that crashed comes
    back on the same port). Retries are decided by error type, never by a peer's words; a
    different key at the address (IdentityMismatch) is retried at the slowest pace and said once.
    """
    backoff = Backoff(first=SEAT_DIAL_FIRST_DELAY, cap=SEAT_DIAL_MAX_DELAY)
    where = f"{address[0]}:{address[1]}"
    said_mismatch = False
    while True:
        started = trio.current_time()
        try:
            async with connect([address[0]], address[1], options.identity, expect=key) as link:
                await serve_link(inbox, seat, link)
        except IdentityMismatch as exc:
            if not said_mismatch:
                options.say(
                    f"seat {seat + 1}: another key answers at {where} ({exc}); retrying slowly"
                )
                said_mismatch = True
            await trio.sleep(backoff.slowest())
            continue
        except (OSError, HandshakeError) as exc:  # unreachable, broken handshake, refused
            log.info("seat %d at %s: %s", seat, where, exc)
            await trio.sleep(backoff.next())
            continue
        if trio.current_time() - started >= STABLE_LINK:
            backoff.reset()
        await trio.sleep(backoff.next())


def _decoded(messages: list[bytes]) -> list[Envelope]:
    """The log's messages that decode (a replay then checks every one of them)."""
    envelopes = []
    for data in messages:
        with suppress(InvalidMessage):
            envelopes.append(Envelope.decode(data, default_registry()))
    return envelopes


def _resume_nonce(
    directory: Path, transcript: Transcript, seat: int, messages: list[bytes]
) -> bytes:
    """Our table nonce: from the transcript if our genesis_sign is logged, else from its file."""
    for data in messages[1 : 1 + len(transcript.genesis.seats)]:
        with suppress(InvalidMessage):
            envelope = Envelope.decode(data, default_registry())
            nonce = envelope.field("nonce") if envelope.type == GENESIS_SIGN else None
            if envelope.seat == seat and isinstance(nonce, bytes):
                return nonce
    return TableNonceFile(directory).load(transcript.table_id, seat)


async def resume_table(options: PeerOptions, directory: Path) -> int:
    """Come back to a table from its log: replay our transcript, find the others, catch up."""
    try:
        log, messages, dropped = TableLog.open(directory)
    except TableLogBusy:
        raise PeerFailure("another p2p-dominoes process is already playing this table") from None
    except (TableLogError, OSError) as exc:
        raise PeerFailure(f"cannot resume from {directory}: {exc}") from None
    contents = read_log(log.path)
    header = log.header
    transcript = Transcript(Envelope.decode(messages[0], default_registry()), default_registry())
    seats = transcript.genesis.seats
    if seats[header.seat].key != options.identity.public:
        log.close()
        raise PeerFailure("this identity does not hold the seat this log was kept for")
    secrets = HandSecrets(directory)
    # Hands audited before the crash have no key file any more: their keys are in our messages.
    secrets.learn_published(_decoded(messages[1:]), header.seat)
    try:
        nonce = _resume_nonce(directory, transcript, header.seat, messages)
    except NonceFileError as exc:
        log.close()
        raise PeerFailure(f"cannot resume: {exc}") from None
    session = TableSession(
        transcript,
        header.seat,
        options.identity,
        hand_keys=secrets.keys_for,
        table_nonce=nonce,
    )
    try:
        for data in messages[1:]:
            session.admit(Envelope.decode(data, default_registry()))
    except InvalidMessage as exc:
        log.close()
        raise PeerFailure(f"the log does not replay: {exc}") from None
    if session.hand is not None:  # a crash between an audit and its forget leaves a file
        secrets.forget_before(session.hand.number)
    lang = _lang(options)
    torn = said("torn", lang, count=dropped) if dropped else ""
    label = header.name or transcript.table_id.hex()[:8]
    options.say(
        said("resuming", lang, table=label, seat=header.seat + 1, count=len(messages), torn=torn)
    )
    peers = {p.seat: (p.host, p.port) for p in contents.peers}
    own_port = peers.get(header.seat, ("", options.port))[1]
    listener = await open_listener(interface=options.interface, port=own_port)
    inbox = Inbox.new()
    run = TableRun(session, options, tuple(s.name for s in seats), inbox=inbox, log=log)
    # Still in its setup: the host frees a lost seat within seconds, so unless a peer carries
    # the table on at once, it never started (the host, if here, says so).
    run.setup_watch = SETUP_RESUME_WAIT if session.phase is Phase.SETUP else None

    async def handler(connection: Connection) -> None:
        await _serve_seated(connection, session, inbox)

    async with listener, trio.open_nursery() as bot_nursery, trio.open_nursery() as nursery:
        await nursery.start(listener.serve, options.identity, handler)
        if header.seat == 0:
            bots = bot_seats(directory)
            # The page names each of our bots' seats by its level, as before the crash.
            kept = {key: b.strategy for b in bots if (key := bot_seat_key(b)) is not None}
            run.bot_levels = _levels_by_seat(seats, kept)
            if bots:
                names = ", ".join(b.name for b in bots)
                options.say(said("bots_back", lang, names=names))
            for bot in bots:
                bot_nursery.start_soon(_resume_bot, options, bot)
        for seat, address in peers.items():
            if seat != header.seat:
                nursery.start_soon(_dial_seat, options, inbox, seat, address, seats[seat].key)
        status = await play_table(run, nursery)
        nursery.cancel_scope.cancel()
        _let_bots_finish(bot_nursery)
    if run.abandoned is not None:
        raise PeerFailure(setup_said("never_started", lang, table=peer_text(label, 64)))
    return status
