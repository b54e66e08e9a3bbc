"""Joining a host's table: ask for a seat (again after `busy`, with a jittered backoff), follow
the lobby until the genesis, check it against what the lobby showed, sign it, then play."""

from __future__ import annotations

import dataclasses
import logging
import secrets
from collections.abc import Callable, Mapping
from functools import partial
from typing import Final

import trio

from p2p_dominoes.bots import BOTS
from p2p_dominoes.engine import InvalidRecord, Rules
from p2p_dominoes.net.addresses import bare_host
from p2p_dominoes.net.connection import Connection
from p2p_dominoes.net.dial import dialed
from p2p_dominoes.net.errors import ConnectionClosed
from p2p_dominoes.net.finding import Target
from p2p_dominoes.net.host_lobby import levels_by_seat
from p2p_dominoes.net.listener import open_listener
from p2p_dominoes.net.lobby import (
    RETRY_CODES,
    BotLevels,
    GenesisOffer,
    Join,
    Refuse,
    Seats,
    encode_lobby,
)
from p2p_dominoes.net.lobby_lines import (
    closed_line,
    host_speaker,
    own_fingerprint_line,
    refusal_line,
)
from p2p_dominoes.net.mesh import dial_seat, held_a_seat, host_link, serve_seated
from p2p_dominoes.net.peer_options import PeerFailure, PeerOptions, ui_lang
from p2p_dominoes.net.rules_words import match_length, rules_lines, rules_name, same_rules
from p2p_dominoes.net.runtime import play_table
from p2p_dominoes.net.said import pairs_said, said
from p2p_dominoes.net.seating import accept_genesis, lobby_message, sit_down
from p2p_dominoes.net.setup_again import unseat
from p2p_dominoes.net.setup_lost import (
    AGAIN_CODE,
    SETUP_UNLINKED_GRACE,
    SetupLost,
    pause_before_signing,
    setup_said,
)
from p2p_dominoes.net.table_run import Inbox, TableRun
from p2p_dominoes.peer_text import peer_text, quoted
from p2p_dominoes.session import (
    PROTOCOL_VERSION,
    PublicIdentity,
    TableSession,
    new_table_nonce,
    seat_commitment,
)
from p2p_dominoes.session.transcript import Transcript
from p2p_dominoes.store import PeerAddress
from p2p_dominoes.words import phrase, reason_of

log = logging.getLogger("p2p_dominoes.net")


SEAT_WAIT: Final = 30.0
"""Seconds a peer waits for a seated peer's connection before it goes on without it."""


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
    list get past the handshake; after it, only the keys that hold a seat now or held one (a
    continuation, v4, gives a seat a new key; the old one may only catch up)."""

    def authorize(peer: PublicIdentity) -> str | None:
        if session_box:
            return None if held_a_seat(session_box[0], peer) else "not seated at this table"
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
            await serve_seated(connection, session_box[0], inbox)

    waits = busy_waits()
    async with listener, trio.open_nursery() as outer:
        await outer.start(
            partial(listener.serve, authorize=_announced_only(session_box, announced)),
            options.identity,
            handler,
        )
        lang = ui_lang(options)
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
                    bare_host(host.remote_address),
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
                            phrase("net.still_busy", s=f"{BUSY_PATIENCE:g}", reason=busy.reason)
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
    transcript, seat = accept_genesis(offer, options.identity, host.peer, nonce, ui_lang(options))
    _check_genesis_against_lobby(transcript, lobby)
    seats = transcript.genesis.seats
    peers = [PeerAddress(i, *address) for i, address in sorted(addresses.items())]
    session, log = sit_down(options, transcript, seat, table_name, peers, nonce)
    session_box.append(session)
    run = TableRun(session, options, tuple(s.name for s in seats), inbox=inbox, log=log)
    # The host's word, shown only on pages: never its own seat or ours, only levels we know.
    said_bots = {key: level for key, level in bots.items() if level in BOTS}
    run.bot_levels = levels_by_seat(seats, said_bots, skip=(0, seat))
    run.setup_watch = SETUP_UNLINKED_GRACE
    run.peers = {p.seat: (p.host, p.port) for p in peers}
    run.peers[0] = (target.addresses[0], target.port)
    pause = pause_before_signing()
    if pause:  # test hook only (setup_lost.PAUSE_BEFORE_SIGNING): unsigned, and no links yet
        options.say(f"test hook: pausing {pause:g} s before signing the genesis")
        await trio.sleep(pause)
    ready.set()
    async with trio.open_nursery() as nursery:
        host_address = (target.addresses[0], target.port)
        nursery.start_soon(host_link, options, inbox, host, host_address, seats[0].key)
        assert session.seat is not None
        for seat in range(1, session.seat):
            address = addresses.get(seat)
            if address is not None:
                nursery.start_soon(dial_seat, options, inbox, seat, address, seats[seat].key)
        status = await play_table(run, nursery)
        nursery.cancel_scope.cancel()
    return status if run.abandoned is None else run.abandoned


def _check_genesis_against_lobby(transcript: Transcript, lobby: Seats) -> None:
    """The genesis we are about to sign must be the table we were shown in the lobby."""
    genesis = transcript.genesis
    if genesis.protocol_version != PROTOCOL_VERSION:
        raise PeerFailure(
            phrase("net.other_version", theirs=genesis.protocol_version, ours=PROTOCOL_VERSION)
        )
    try:
        rules = Rules.from_wire(genesis.rules)
    except InvalidRecord as exc:
        raise PeerFailure(phrase("net.rules_not_shown", reason=exc)) from None
    if not same_rules(rules, lobby.rules):
        changed = ", ".join(n for n in rules.differences(lobby.rules) if n != "stall_timeout_s")
        raise PeerFailure(phrase("net.rules_changed", changed=changed))
    seated = [(s.name, s.key) for s in genesis.seats]
    if len(seated) != lobby.seats_total or seated != [(s.name, s.key) for s in lobby.seats]:
        raise PeerFailure(phrase("net.seats_changed"))
    if genesis.max_hands != lobby.max_hands:
        raise PeerFailure(
            phrase(
                "net.length_changed",
                plays=match_length(genesis.max_hands),
                shown=match_length(lobby.max_hands),
            )
        )


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
            raise PeerFailure(closed_line(reason_of(exc), speaker, lang)) from None
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
                rules = rules_name(peer_text(message.rules.name, 64), lang)
                if message.max_hands is not None:
                    rules += f", {match_length(message.max_hands, lang)}"
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
                raise PeerFailure(phrase("net.genesis_before_seats"))
            return message, addresses, lobby, bots
