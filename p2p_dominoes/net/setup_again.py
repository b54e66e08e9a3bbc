"""The host's lobby after a seat was lost during the setup: free that seat, keep the others'.

`net/setup_lost.py` decides that the genesis being signed is abandoned; here the host goes back
to its lobby: the lost seat is free again (on the page and the terminal), every other seat is
sent back to the lobby (a `refuse` with code ``again``) and kept for its player for
RETURN_WAIT seconds, and the host waits until every seat is taken again, by the same players
coming back (with new commitments) and a new joiner in the freed seat, before it signs a fresh
genesis.
"""

from __future__ import annotations

import logging
import os
from contextlib import suppress
from pathlib import Path
from typing import Final

import trio

from p2p_dominoes.net.advertisement import Advertisement
from p2p_dominoes.net.errors import ConnectionClosed, NetError
from p2p_dominoes.net.lobby import Refuse, encode_lobby
from p2p_dominoes.net.lobby_member import LiveLobby
from p2p_dominoes.net.peer_options import PeerOptions, ui_lang
from p2p_dominoes.net.setup_lost import AGAIN_CODE, setup_said
from p2p_dominoes.peer_text import peer_text
from p2p_dominoes.store import table_dir
from p2p_dominoes.store.bot_seat import BOTS_DIR_NAME

log = logging.getLogger("p2p_dominoes.net")

RETURN_WAIT: Final = 15.0
"""Seconds a seat sent back to the lobby is kept for its player (it comes back at once; one
that does not has gone too, and its seat is freed)."""


async def wait_until_seated(lobby: LiveLobby, advert: Advertisement | None) -> None:
    """Wait until every seat is taken by a player who is here (none kept for one coming back);
    a kept seat whose player has not come back within RETURN_WAIT is freed."""
    advertised = 1
    while not complete(lobby):
        changed = lobby.changed
        with trio.move_on_after(0.5):
            await changed.wait()
        await _free_absent(lobby)
        if advert is not None and advertised != len(lobby.seated):
            advertised = len(lobby.seated)
            await advert.update(seats_taken=advertised)


def complete(lobby: LiveLobby) -> bool:
    """Every seat is taken, and every player is here."""
    here = all(s.returning is None for s in lobby.seated)
    return len(lobby.seated) == lobby.players and here


async def _free_absent(lobby: LiveLobby) -> None:
    now = trio.current_time()
    gone = [s for s in lobby.seated if s.returning is not None and now - s.returning > RETURN_WAIT]
    for seated in gone:
        lobby.seated.remove(seated)
        name = peer_text(seated.name, 64)
        lang = ui_lang(lobby.options)
        lobby.options.say(setup_said("not_back", lang, name=name, seat=seated.place + 1))
    if gone:
        await lobby.broadcast_seats()


async def back_to_lobby(lobby: LiveLobby, lost: int, lang: str) -> None:
    """Free seat `lost`; send every other joiner back to the lobby, keeping its seat."""
    gone = lobby.holder(lost)
    if gone is not None:
        lobby.seated.remove(gone)  # not cooled down: it may come back as a new joiner
        lobby.abandoned.add(gone.key)
    name = peer_text(gone.name, 64) if gone is not None else str(lost + 1)
    lobby.options.say(setup_said("seat_lost", lang, name=name, seat=lost + 1))
    now = trio.current_time()
    words = setup_said("back_to_lobby", "en")
    for seated in lobby.seated[1:]:
        seated.returning = now
        connection = seated.connection
        if connection is None:
            continue
        with suppress(ConnectionClosed, NetError, trio.BrokenResourceError):
            await connection.send(encode_lobby(Refuse(AGAIN_CODE, words)))
        await connection.aclose(AGAIN_CODE)
    lobby.started = False
    lobby.touch()


def link_bots(options: PeerOptions, first: bytes, current: bytes) -> None:
    """Our bots' directories are kept under the first genesis's table directory (they were
    started with them); a later genesis's directory points there, so `resume` finds them."""
    if options.data_dir is None or first == current:
        return
    kept = table_dir(options.data_dir, first) / BOTS_DIR_NAME
    link = Path(table_dir(options.data_dir, current)) / BOTS_DIR_NAME
    if kept.is_dir() and not link.exists():
        try:
            os.symlink(kept, link, target_is_directory=True)
        except OSError as exc:
            log.info("cannot point %s at our bots: %s", link, exc)


def unseat(options: PeerOptions) -> None:
    """Tell a UI that shows a seated table (the page) that the table never started: it shows
    the lobby again. A UI without the method (the terminal, a bot) just reads the lines."""
    unseated = getattr(options.ui, "unseated", None)
    if callable(unseated):
        unseated()
