"""Coming back to a table from its log: replay our transcript, find the others, catch up (the
host also resumes the bots it started)."""

from __future__ import annotations

from contextlib import suppress
from dataclasses import replace
from pathlib import Path

import trio

from p2p_dominoes.net import coming_back
from p2p_dominoes.net.bot_processes import let_bots_finish, resume_bot
from p2p_dominoes.net.connection import Connection
from p2p_dominoes.net.host_lobby import levels_by_seat
from p2p_dominoes.net.listener import open_listener
from p2p_dominoes.net.mesh import dial_seat, serve_seated
from p2p_dominoes.net.peer_options import PeerFailure, PeerOptions, ui_lang
from p2p_dominoes.net.runtime import play_table
from p2p_dominoes.net.said import said
from p2p_dominoes.net.setup_lost import SETUP_RESUME_WAIT, setup_said
from p2p_dominoes.net.table_run import Inbox, TableRun
from p2p_dominoes.net.take_seat import take_seat_table
from p2p_dominoes.peer_text import peer_text
from p2p_dominoes.session import (
    GENESIS_SIGN,
    Envelope,
    Identity,
    InvalidMessage,
    Phase,
    TableSession,
    default_registry,
)
from p2p_dominoes.session.transcript import Transcript
from p2p_dominoes.store import (
    HandSecrets,
    NonceFileError,
    TableLog,
    TableLogBusy,
    TableLogError,
    TableNonceFile,
    bot_seat_key,
    bot_seats,
    read_log,
)
from p2p_dominoes.words import phrase


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
        raise PeerFailure(phrase("net.log_busy")) from None
    except (TableLogError, OSError) as exc:
        failure = phrase("net.cannot_resume_from", directory=directory, reason=exc)
        raise PeerFailure(failure) from None
    contents = read_log(log.path)
    header = log.header
    transcript = Transcript(Envelope.decode(messages[0], default_registry()), default_registry())
    seats = transcript.genesis.seats
    if seats[header.seat].key != options.identity.public:
        log.close()
        raise PeerFailure(phrase("net.not_this_seat"))
    secrets = HandSecrets(directory)
    # Hands audited before the crash have no key file any more: their keys are in our messages.
    secrets.learn_published(_decoded(messages[1:]), header.seat)
    try:
        nonce = _resume_nonce(directory, transcript, header.seat, messages)
    except NonceFileError as exc:
        log.close()
        raise PeerFailure(phrase("net.cannot_resume", reason=exc)) from None
    session = TableSession(
        transcript,
        header.seat,
        options.identity,
        hand_keys=secrets.keys_for,
        table_nonce=nonce,
    )
    # v4: a goodbye in our log is one we went on after (`play_table` sets this again for what
    # comes next); replayed as stopping there, a log that went on past one would not replay.
    session.goes_on_after_goodbye = True
    try:
        for data in messages[1:]:
            session.admit(Envelope.decode(data, default_registry()))
    except InvalidMessage as exc:
        log.close()
        raise PeerFailure(phrase("net.log_does_not_replay", reason=exc)) from None
    if session.hand is not None:  # a crash between an audit and its forget leaves a file
        secrets.forget_before(session.hand.number)
    lang = ui_lang(options)
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
    run.sat_in = header.seat  # (our log may end after our seat went to a bot while we asked)
    # Still in its setup: the host frees a lost seat within seconds, so unless a peer carries
    # the table on at once, it never started (the host, if here, says so).
    run.setup_watch = SETUP_RESUME_WAIT if session.phase is Phase.SETUP else None

    run.peers = dict(peers)
    run.may_come_back = True  # §16.1: if our seat went on without us, ask it back

    async def handler(connection: Connection) -> None:
        await serve_seated(connection, session, inbox)

    async with trio.open_nursery() as bot_nursery:
        run.bot_nursery = bot_nursery
        async with listener, trio.open_nursery() as nursery:
            await nursery.start(listener.serve, options.identity, handler)
            if header.seat == 0:
                bots = bot_seats(directory)
                # The page names each of our bots' seats by its level, as before the crash.
                kept = {key: b.strategy for b in bots if (key := bot_seat_key(b)) is not None}
                run.bot_levels = levels_by_seat(seats, kept)
                if bots:
                    names = ", ".join(b.name for b in bots)
                    options.say(said("bots_back", lang, names=names))
                for bot in bots:
                    bot_nursery.start_soon(resume_bot, options, bot)
            for seat, address in peers.items():
                if seat != header.seat:
                    nursery.start_soon(dial_seat, options, inbox, seat, address, seats[seat].key)
            status = await play_table(run, nursery)
            nursery.cancel_scope.cancel()
        if run.abandoned is None and status == coming_back.BACK and run.back_with is not None:
            # Our bots still hold their seats at the table that goes on: they keep playing
            # while we sit down again (at once: the others wait for our signature).
            status = await _sit_down_again(run, log, *run.back_with)
        let_bots_finish(bot_nursery)
    if run.abandoned is not None:
        raise PeerFailure(setup_said("never_started", lang, table=peer_text(label, 64)))
    return status


async def _sit_down_again(
    run: TableRun, log: TableLog, fresh: Identity, follower: TableSession
) -> int:
    """§16.1: our seat is ours again under a fresh key: the log of our old key ends here (it
    says so; what we hold of the chain, which may part from the others' at their goodbye), and
    we play on as the seat's new holder with the others' transcript so far."""
    session = run.session
    number = follower.hand.number if follower.hand is not None else 0
    with suppress(TableLogError, OSError):
        log.sync(session.transcript)
    log.finish(f"seat {run.seat + 1}: taken back under a fresh key from hand {number}")
    log.close()
    handover = coming_back.handover(run.seat, follower, run.peers)
    return await take_seat_table(replace(run.options, identity=fresh), handover, run.bot_nursery)
