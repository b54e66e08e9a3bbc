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
from collections.abc import Callable
from contextlib import AsyncExitStack, suppress
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Final

import trio

from p2p_dominoes.engine import InvalidRecord, Rules, preset
from p2p_dominoes.net.connection import Connection
from p2p_dominoes.net.discovery import (
    Advertisement,
    DiscoveryError,
    TableAd,
    TableInfo,
    browse_tables,
    open_discovery,
)
from p2p_dominoes.net.errors import ConnectionClosed, NetError
from p2p_dominoes.net.framing import Data
from p2p_dominoes.net.listener import Listener, open_listener
from p2p_dominoes.net.lobby import (
    GenesisOffer,
    Join,
    Refuse,
    SeatAddress,
    Seats,
    encode_lobby,
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
from p2p_dominoes.net.timing import bot_timing_path
from p2p_dominoes.session import (
    GENESIS_SIGN,
    Envelope,
    Genesis,
    InvalidMessage,
    PublicIdentity,
    SeatInfo,
    default_registry,
    new_table_nonce,
    seat_commitment,
)
from p2p_dominoes.session.table import TableSession
from p2p_dominoes.session.transcript import Transcript
from p2p_dominoes.store import (
    HandSecrets,
    NonceFileError,
    PeerAddress,
    TableLog,
    TableLogBusy,
    TableLogError,
    TableNonceFile,
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


class _HostLobby:
    """The host's seat list before the genesis."""

    def __init__(
        self,
        options: PeerOptions,
        listener: Listener,
        players: int,
        table: str,
        rules: Rules,
        commitment: bytes,
    ) -> None:
        self.options = options
        self.players = players
        self.table = table
        self.rules = rules
        self.seated: list[_Seated] = [
            _Seated(options.name, options.identity.public, "", listener.port, "", None, commitment)
        ]
        self.full = trio.Event()
        self.changed = trio.Event()

    def seats_for(self, recipient: _Seated) -> Seats:
        """The seat list as `recipient` should dial it (bots beside the host via its address)."""
        seats = []
        for seated in self.seated:
            if seated.connection is None or _is_loopback(seated.observed):
                address = recipient.host_address or "127.0.0.1"
            else:
                address = seated.observed
            seats.append(SeatAddress(seated.name, seated.key, address, seated.port))
        return Seats(self.table, self.rules.name, self.players, tuple(seats))

    async def broadcast_seats(self) -> None:
        for seated in list(self.seated):
            if seated.connection is not None:
                with suppress(ConnectionClosed, NetError, trio.BrokenResourceError):
                    await seated.connection.send(encode_lobby(self.seats_for(seated)))
        self.changed.set()
        self.changed = trio.Event()


async def host_table(
    options: PeerOptions,
    *,
    table_name: str,
    rules: Rules,
    players: int,
    bots: int,
    bot_strategy: str,
    hands: int | None,
) -> int:
    """Open a table, seat players and bots, then play; returns the exit status."""
    rules.check_players(players)
    if not 0 <= bots <= players - 1:
        raise PeerFailure(f"--bots must be between 0 and {players - 1}")
    listener = await open_listener(interface=options.interface, port=options.port)
    if options.timing is not None:
        options.timing.mark("listening")
    table_id = secrets.token_bytes(16)
    nonce = new_table_nonce()  # table code: committed now, revealed in our genesis_sign
    commitment = seat_commitment(options.identity.public, nonce)
    lobby = _HostLobby(options, listener, players, table_name, rules, commitment)
    inbox = Inbox.new()
    session_box: list[TableSession] = []
    ready = trio.Event()
    say = options.say
    say(f"Table '{table_name}' ({rules.name}, {players} seats) is open on port {listener.port}.")
    say(f"Others can join with: p2p-dominoes join --connect {_dial_host(options)}:{listener.port}")
    say(f"Your fingerprint: {options.identity.public.fingerprint}")

    async def handler(connection: Connection) -> None:
        if ready.is_set():
            await _serve_seated(connection, session_box[0], inbox)
            return
        await _lobby_member(connection, lobby, ready)
        if ready.is_set() and any(s.connection is connection for s in lobby.seated):
            seat = next(i for i, s in enumerate(lobby.seated) if s.connection is connection)
            await serve_link(inbox, seat, connection)

    async with AsyncExitStack() as stack:
        advert = await _advertise(stack, options, table_id, table_name, rules, players, listener)
        async with trio.open_nursery() as nursery:
            await nursery.start(
                partial(listener.serve, authorize=_seated_only(session_box)),
                options.identity,
                handler,
            )
            for number in range(bots):
                nursery.start_soon(
                    _run_bot, options, listener.port, f"bot-{number + 1}", bot_strategy
                )
            while len(lobby.seated) < players:
                await lobby.changed.wait()
                if advert is not None:
                    await advert.update(seats_taken=len(lobby.seated))
            seats = lobby.seats_for(lobby.seated[0]).seats
            genesis = _genesis(table_id, rules, seats, [s.commitment for s in lobby.seated])
            envelope = genesis.sign(options.identity, 0)
            offer = encode_lobby(GenesisOffer(envelope.encode(), hands))
            transcript = Transcript(envelope, default_registry())
            peers = [PeerAddress(i, s.address, s.port) for i, s in enumerate(seats)]
            session, log = sit_down(options, transcript, 0, hands, table_name, peers, nonce)
            session_box.append(session)
            run = TableRun(session, options, tuple(s.name for s in seats), inbox=inbox, log=log)
            ready.set()
            for seated in lobby.seated[1:]:
                assert seated.connection is not None
                try:
                    await seated.connection.send(offer)
                except (ConnectionClosed, NetError):
                    say(f"{seated.name} left before the game began.")
            if advert is not None:
                await advert.update(phase="playing", seats_taken=players)
            status = await play_table(run, nursery)
            nursery.cancel_scope.cancel()
    return status


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
            rules.name,
            "lobby",
        )
        advert = await disco.advertise(info, listener.port)
    except (DiscoveryError, OSError, ValueError) as exc:
        options.say(f"Not advertised on the local network ({exc}); players can join by address.")
        return None
    options.say("Advertised on the local network (mDNS).")
    return advert


def _dial_host(options: PeerOptions) -> str:
    if options.interface:
        return f"[{options.interface}]" if ":" in options.interface else options.interface
    from p2p_dominoes.net.discovery import lan_addresses

    addresses = lan_addresses()
    return addresses[0] if addresses else "127.0.0.1"


def _genesis(
    table_id: bytes, rules: Rules, seats: tuple[SeatAddress, ...], commitments: list[bytes]
) -> Genesis:
    infos = (SeatInfo(s.name, s.key, c) for s, c in zip(seats, commitments, strict=True))
    return Genesis(table_id, rules.to_wire(), tuple(infos))


async def _lobby_member(connection: Connection, lobby: _HostLobby, ready: trio.Event) -> None:
    """Seat a joiner (first message: join), then keep it until the genesis goes out."""
    try:
        with trio.fail_after(10):
            first = await connection.receive()
    except (ConnectionClosed, trio.TooSlowError):
        return
    message = lobby_message(first) if isinstance(first, Data) else None
    if not isinstance(message, Join):
        await connection.aclose("expected a join message")
        return
    if ready.is_set() or len(lobby.seated) >= lobby.players:
        await connection.send(encode_lobby(Refuse("the table is full")))
        await connection.aclose("table full")
        return
    if any(s.key == connection.peer for s in lobby.seated):
        await connection.send(encode_lobby(Refuse("this player already holds a seat")))
        await connection.aclose("already seated")
        return
    seated = _Seated(
        message.name,
        connection.peer,
        _bare_host(connection.remote_address),
        message.listen_port,
        message.host_address,
        connection,
        message.commitment,
    )
    lobby.seated.append(seated)
    lobby.options.say(
        f"{message.name} ({connection.peer.fingerprint}) took seat "
        f"{len(lobby.seated) - 1} ({len(lobby.seated)} of {lobby.players})."
    )
    await lobby.broadcast_seats()
    # Hold the connection (and notice a joiner who leaves) until the game begins.
    while not ready.is_set():
        with trio.move_on_after(0.2):
            await ready.wait()
        if connection.closed:
            lobby.seated.remove(seated)
            lobby.options.say(f"{message.name} left the lobby.")
            await lobby.broadcast_seats()
            return


def _seated_only(session_box: list[TableSession]) -> Callable[[PublicIdentity], str | None]:
    """Once the genesis exists, refuse (at the handshake) every key it does not seat."""

    def authorize(peer: PublicIdentity) -> str | None:
        if not session_box:
            return None  # the lobby: anyone may ask for a seat
        seat = session_box[0].transcript.genesis.seat_of(peer)
        return "not seated at this table" if seat is None else None

    return authorize


async def _serve_seated(connection: Connection, session: TableSession, inbox: Inbox) -> None:
    seat = session.transcript.genesis.seat_of(connection.peer)
    if seat is None or seat == session.seat:
        log.warning(
            "refused %s at %s: not seated at this table",
            connection.peer.fingerprint,
            connection.remote_address,
        )
        await connection.aclose("not seated at this table")
        return
    await serve_link(inbox, seat, connection)


async def _run_bot(options: PeerOptions, port: int, name: str, strategy: str) -> None:
    host = _dial_host(options) if options.interface else "127.0.0.1"
    command = [
        sys.executable,
        "-m",
        "p2p_dominoes",
        "join",
        "--connect",
        f"{host}:{port}",
        "--name",
        name,
        "--bot",
        strategy,
        "--ui",
        "none",
        "--port",
        "0",
    ]
    if options.interface:
        command += ["--interface", options.interface]
    if options.timing is not None:
        command += ["--timing", str(bot_timing_path(options.timing.path, name))]
    await trio.run_process(
        command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, check=False
    )


# -- joining ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Target:
    """Where to find the host: addresses, port, and the key to expect (None: compare by eye)."""

    addresses: tuple[str, ...]
    port: int
    expect: PublicIdentity | str | None
    patience: float = 30.0


async def find_table(name: str | None, *, interface: str | None, timeout: float) -> Target:
    """Browse the LAN for a table by name (or the only one) and return how to reach its host."""
    tables: list[TableAd] = []
    deadline = trio.current_time() + timeout
    while trio.current_time() < deadline:
        tables = await browse_tables(min(3.0, timeout), interface=interface)
        chosen = _choose(tables, name)
        if chosen is not None:
            return Target(chosen.addresses, chosen.port, chosen.info.fingerprint)
    if not tables:
        raise PeerFailure(
            "no table found on the local network (same Wi-Fi? guest networks and AP isolation "
            "block discovery; try --connect HOST:PORT)"
        )
    names = ", ".join(t.info.table_name for t in tables)
    raise PeerFailure(
        f"no table called {name!r} (found: {names})"
        if name
        else f"several tables: {names}; name one"
    )


def _choose(tables: list[TableAd], name: str | None) -> TableAd | None:
    lobby = [t for t in tables if t.info.phase == "lobby"]
    if name is None:
        return lobby[0] if len(lobby) == 1 else None
    wanted = name.casefold()
    for table in lobby:
        if table.info.table_name.casefold() == wanted or table.info.table_id.hex().startswith(
            wanted
        ):
            return table
    return None


async def join_table(options: PeerOptions, target: Target) -> int:
    """Take a seat at a host's table, then play; returns the exit status."""
    say = options.say
    listener = await open_listener(interface=options.interface, port=options.port)
    if options.timing is not None:
        options.timing.mark("listening")
    inbox = Inbox.new()
    session_box: list[TableSession] = []
    ready = trio.Event()

    async def handler(connection: Connection) -> None:
        with trio.move_on_after(SEAT_WAIT):
            await ready.wait()
        if ready.is_set():
            await _serve_seated(connection, session_box[0], inbox)

    async with trio.open_nursery() as outer:
        await outer.start(
            partial(listener.serve, authorize=_seated_only(session_box)),
            options.identity,
            handler,
        )
        say(f"Listening on port {listener.port} for the other players.")
        async with dialed(
            options.identity,
            target.addresses,
            target.port,
            target.expect,
            patience=target.patience,
        ) as host:
            if target.expect is None:
                say(f"Connected to {host.remote_address}, fingerprint {host.peer.fingerprint}:")
                say("compare it with the one the host's screen shows.")
            nonce = new_table_nonce()  # table code: committed in our join, revealed once seated
            join = Join(
                options.name,
                listener.port,
                _bare_host(host.remote_address),
                seat_commitment(options.identity.public, nonce),
            )
            await host.send(encode_lobby(join))
            offer, addresses, lobby = await _await_genesis(host, say)
            table_name = lobby.table_name
            transcript, seat = accept_genesis(offer, options.identity, host.peer, nonce)
            _check_genesis_against_lobby(transcript, lobby)
            seats = transcript.genesis.seats
            peers = [PeerAddress(i, *address) for i, address in sorted(addresses.items())]
            session, log = sit_down(
                options, transcript, seat, offer.max_hands, table_name, peers, nonce
            )
            session_box.append(session)
            run = TableRun(session, options, tuple(s.name for s in seats), inbox=inbox, log=log)
            ready.set()
            async with trio.open_nursery() as nursery:
                host_address = (target.addresses[0], target.port)
                nursery.start_soon(_host_link, options, inbox, host, host_address, seats[0].key)
                assert session.seat is not None
                for seat in range(1, session.seat):
                    address = addresses.get(seat)
                    if address is not None:
                        nursery.start_soon(
                            _dial_seat, options, inbox, seat, address, seats[seat].key
                        )
                status = await play_table(run, nursery)
                nursery.cancel_scope.cancel()
        outer.cancel_scope.cancel()
    return status


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


def _check_genesis_against_lobby(transcript: Transcript, lobby: Seats) -> None:
    """The genesis we are about to sign must be the table we were shown in the lobby."""
    genesis = transcript.genesis
    try:
        rules = Rules.from_wire(genesis.rules)
        shown = preset(lobby.rules)
    except InvalidRecord as exc:
        raise PeerFailure(f"the host's rules are not the ones it showed: {exc}") from None
    if dataclasses.replace(rules, stall_timeout_s=shown.stall_timeout_s) != shown:
        raise PeerFailure(f"the host's genesis changes the rules of '{lobby.rules}'")
    seated = [(s.name, s.key) for s in genesis.seats]
    if len(seated) != lobby.seats_total or seated != [(s.name, s.key) for s in lobby.seats]:
        raise PeerFailure("the host's genesis seats other players than the lobby showed")


async def _await_genesis(
    host: Connection, say: Callable[[str], None]
) -> tuple[GenesisOffer, dict[int, tuple[str, int]], Seats]:
    """Follow the lobby (seat list updates) until the host sends the genesis.

    Returns the genesis offer, where each seat listens, and the table's name (from the last
    seat list).
    """
    shown: tuple[str, ...] = ()
    addresses: dict[int, tuple[str, int]] = {}
    lobby: Seats | None = None
    while True:
        try:
            message = lobby_message(await host.receive())
        except ConnectionClosed as exc:
            raise PeerFailure(f"the host closed the connection: {exc}") from None
        if isinstance(message, Refuse):
            raise PeerFailure(f"the host refused: {message.reason}")
        if isinstance(message, Seats):
            addresses = {i: (s.address, s.port) for i, s in enumerate(message.seats)}
            lobby = message
            names = tuple(f"{s.name} ({s.key.fingerprint})" for s in message.seats)
            if names != shown:
                say(
                    f"Table '{message.table_name}' ({message.rules}): "
                    f"{len(names)} of {message.seats_total} seats: " + ", ".join(names)
                )
                shown = names
        if isinstance(message, GenesisOffer):
            if lobby is None:
                raise PeerFailure("the host sent a genesis before any seat list")
            return message, addresses, lobby


async def _dial_seat(
    options: PeerOptions,
    inbox: Inbox,
    seat: int,
    address: tuple[str, int],
    key: PublicIdentity,
) -> None:
    """Keep a connection to `seat` open: dial, and dial again with backoff when it drops
    (a peer that crashed comes back on the same port). Cancelled when the match ends."""
    while True:
        try:
            async with dialed(
                options.identity, [address[0]], address[1], key, patience=SEAT_WAIT
            ) as connection:
                await serve_link(inbox, seat, connection)
        except PeerFailure as exc:
            if "cannot reach" not in str(exc):
                options.say(f"seat {seat}: {exc}")
                return
        await trio.sleep(1.0)


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
    try:
        nonce = _resume_nonce(directory, transcript, header.seat, messages)
    except NonceFileError as exc:
        log.close()
        raise PeerFailure(f"cannot resume: {exc}") from None
    session = TableSession(
        transcript,
        header.seat,
        options.identity,
        max_hands=header.max_hands,
        hand_keys=secrets.keys_for,
        table_nonce=nonce,
    )
    try:
        for data in messages[1:]:
            session.admit(Envelope.decode(data, default_registry()))
    except InvalidMessage as exc:
        log.close()
        raise PeerFailure(f"the log does not replay: {exc}") from None
    options.say(
        f"Resuming '{header.name or transcript.table_id.hex()[:8]}' at seat {header.seat}: "
        f"{len(messages)} messages replayed"
        + (f", {dropped} torn bytes dropped" if dropped else "")
    )
    peers = {p.seat: (p.host, p.port) for p in contents.peers}
    own_port = peers.get(header.seat, ("", options.port))[1]
    listener = await open_listener(interface=options.interface, port=own_port)
    inbox = Inbox.new()
    run = TableRun(session, options, tuple(s.name for s in seats), inbox=inbox, log=log)

    async def handler(connection: Connection) -> None:
        await _serve_seated(connection, session, inbox)

    async with trio.open_nursery() as nursery:
        await nursery.start(listener.serve, options.identity, handler)
        for seat, address in peers.items():
            if seat != header.seat:
                nursery.start_soon(_dial_seat, options, inbox, seat, address, seats[seat].key)
        status = await play_table(run, nursery)
        nursery.cancel_scope.cancel()
    return status
