"""Hosting a table on the LAN: listen (and advertise over mDNS), seat players clockwise in join
order, fill empty seats with bot peers started as separate processes, and once every seat is
taken sign the genesis and send it to all. Every peer then dials the seats below its own, and
the game runs over that full mesh (`runtime.play_table`)."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from contextlib import AsyncExitStack
from functools import partial

import trio

from p2p_dominoes.engine import Rules
from p2p_dominoes.net.addresses import dial_host
from p2p_dominoes.net.admission import HostDesk
from p2p_dominoes.net.advertisement import Advertisement
from p2p_dominoes.net.bot_processes import keep_bot, let_bots_finish, run_bot
from p2p_dominoes.net.connection import Connection
from p2p_dominoes.net.discovery import TableInfo, open_discovery
from p2p_dominoes.net.errors import ConnectionClosed, DiscoveryError, NetError
from p2p_dominoes.net.host_lobby import levels_by_seat
from p2p_dominoes.net.links import serve_link
from p2p_dominoes.net.listener import Listener, open_listener
from p2p_dominoes.net.lobby import GenesisOffer, SeatAddress, encode_lobby
from p2p_dominoes.net.lobby_lines import join_with_lines
from p2p_dominoes.net.lobby_member import LiveLobby, serve_lobby_member
from p2p_dominoes.net.mesh import seated_only, serve_seated
from p2p_dominoes.net.peer_options import PeerFailure, PeerOptions, ui_lang
from p2p_dominoes.net.rules_words import advertised_rules, rules_name
from p2p_dominoes.net.runtime import play_table
from p2p_dominoes.net.said import said
from p2p_dominoes.net.seating import sit_down
from p2p_dominoes.net.setup_again import back_to_lobby, link_bots, unseat, wait_until_seated
from p2p_dominoes.net.setup_lost import SETUP_UNLINKED_GRACE
from p2p_dominoes.net.table_run import Inbox, TableRun
from p2p_dominoes.peer_text import peer_text
from p2p_dominoes.session import (
    Genesis,
    Identity,
    SeatInfo,
    TableSession,
    default_registry,
    new_table_nonce,
    seat_commitment,
)
from p2p_dominoes.session.transcript import Transcript
from p2p_dominoes.store import PeerAddress
from p2p_dominoes.words import phrase


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
        raise PeerFailure(phrase("net.why.bots_range", most=players - 1))
    strategies = [bot_strategy] * bots if isinstance(bot_strategy, str) else list(bot_strategy)
    if len(strategies) != bots:
        raise PeerFailure(phrase("net.why.strategies_count", bots=bots, given=len(strategies)))
    listener = await open_listener(interface=options.interface, port=options.port)
    if options.timing is not None:
        options.timing.mark("listening")
    table_id = first_table_id = secrets.token_bytes(16)
    nonce = new_table_nonce()  # table code: committed now, revealed in our genesis_sign
    commitment = seat_commitment(options.identity.public, nonce)
    lobby = LiveLobby(
        options, listener.port, players, table_name, rules, desk, commitment, hands, join_code
    )
    inbox = Inbox.new()
    session_box: list[TableSession] = []
    ready = trio.Event()
    say = options.say
    lang = ui_lang(options)
    port = listener.port
    named = rules_name(rules.name, lang)
    say(said("open", lang, table=table_name, rules=named, players=players, port=port))
    for line in join_with_lines(f"{dial_host(options)}:{port}", join_code, lang):
        say(line)
    say(said("your_fingerprint", lang, fingerprint=options.identity.public.fingerprint))

    async def handler(connection: Connection) -> None:
        if ready.is_set():
            await serve_seated(connection, session_box[0], inbox)
            return
        await serve_lobby_member(connection, lobby, ready)
        if ready.is_set() and any(s.connection is connection for s in lobby.seated):
            seat = next(i for i, s in enumerate(lobby.seated) if s.connection is connection)
            await serve_link(inbox, seat, connection)

    # The stack (mDNS, whose nursery opens inside ours) closes first, then the bots finish,
    # then the listener: its port is free at once for the next table (a rematch reopens it).
    async with listener, trio.open_nursery() as bot_nursery, AsyncExitStack() as stack:
        advert = await _advertise(stack, options, table_id, table_name, rules, players, listener)
        async with trio.open_nursery() as nursery:
            await nursery.start(
                partial(listener.serve, authorize=seated_only(session_box)),
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
                kept = keep_bot(options, table_id, bot_name, strategy, bot_identity)
                bot_nursery.start_soon(
                    run_bot,
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
                run.bot_levels = levels_by_seat(seats, lobby.bot_levels)
                run.peers = {p.seat: (p.host, p.port) for p in peers}
                # v4: the level of a bot for a seat someone left (the table's default)
                run.seat_bot = bot_strategy if isinstance(bot_strategy, str) else None
                run.bot_nursery = bot_nursery
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
        let_bots_finish(bot_nursery)
    return status


async def _attend(desk: HostDesk, lobby: LiveLobby, scope: trio.CancelScope) -> None:
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
        options.say(said("not_advertised", ui_lang(options), reason=exc))
        return None
    options.say(said("advertised", ui_lang(options)))
    return advert


def _genesis(
    table_id: bytes,
    rules: Rules,
    seats: tuple[SeatAddress, ...],
    commitments: list[bytes],
    max_hands: int | None,
) -> Genesis:
    infos = (SeatInfo(s.name, s.key, c) for s, c in zip(seats, commitments, strict=True))
    return Genesis(table_id, rules.to_wire(), tuple(infos), max_hands=max_hands)
