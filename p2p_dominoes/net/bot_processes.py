"""The bot peers a host starts as child processes: their command lines, their own data
directories (kept when the host keeps its own), resuming them, and letting them finish."""

from __future__ import annotations

import logging
import subprocess
import sys
from typing import Final

import trio

from p2p_dominoes.net.addresses import dial_host
from p2p_dominoes.net.peer_options import PeerFailure, PeerOptions
from p2p_dominoes.net.timing import bot_timing_path
from p2p_dominoes.peer_text import peer_text
from p2p_dominoes.session import Identity
from p2p_dominoes.store import BotSeat, BotSeatError, keep_bot_seat
from p2p_dominoes.words import reason_of

log = logging.getLogger("p2p_dominoes.net")


def keep_bot(
    options: PeerOptions, table_id: bytes, name: str, strategy: str, identity: Identity
) -> BotSeat | None:
    """The bot's own data directory under our table's (None when we keep no data ourselves)."""
    if options.data_dir is None:
        return None
    try:
        return keep_bot_seat(options.data_dir, table_id, name, strategy, identity)
    except BotSeatError as exc:
        raise PeerFailure(reason_of(exc)) from None


def bot_command(options: PeerOptions, name: str, verb: list[str], strategy: str) -> list[str]:
    """The command line of a bot peer we start (`join …` or `resume`), without its identity."""
    command = [sys.executable, "-m", "p2p_dominoes", *verb, "--bot", strategy]
    command += ["--ui", "none", "--port", "0"]
    if options.interface:
        command += ["--interface", options.interface]
    if options.timing is not None:
        command += ["--timing", str(bot_timing_path(options.timing.path, name))]
    return command


async def run_bot(
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
    host = dial_host(options) if options.interface else "127.0.0.1"
    verb = ["join", "--connect", f"{host}:{port}", "--name", name]
    command = bot_command(options, name, verb, strategy)
    if kept is not None:
        command += ["--data-dir", str(kept.directory)]
        given = b""
    else:
        command += ["--identity-stdin"]
        given = identity.private_bytes().hex().encode() + b"\n"
    await trio.run_process(command, stdin=given, stdout=subprocess.DEVNULL, check=False)


BOTS_FINISH: Final = 20.0
"""Seconds our bots get, once our match is over, to log its end and exit on their own."""


def let_bots_finish(bots: trio.Nursery) -> None:
    """Our table is over: the bots we started end on their own (their logs say "over"), and any
    still running after BOTS_FINISH seconds is stopped."""
    bots.cancel_scope.deadline = trio.current_time() + BOTS_FINISH


async def resume_bot(options: PeerOptions, bot: BotSeat) -> None:
    """Resume a bot we started at this table, on its own data directory. One still running
    (we were killed, it was not) answers that its table is busy and keeps playing."""
    command = bot_command(
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


async def run_seat_bot(
    options: PeerOptions, name: str, strategy: str, identity: Identity, handover: bytes
) -> None:
    """v4 (§16): a bot peer as a child process that takes a seat someone left. Its key and the
    handover (the transcript so far, the other seats' addresses: `net/handover.py`) go to it on
    its standard input; it keeps no data directory (it plays this match only), and what
    it says on its standard error goes to ours."""
    command = bot_command(options, name, ["join", "--take-seat", "--name", name], strategy)
    command += ["--identity-stdin"]
    given = identity.private_bytes().hex().encode() + b"\n" + handover
    await trio.run_process(command, stdin=given, stdout=subprocess.DEVNULL, check=False)
