"""Finding a table on the LAN by what the player typed (`join NAME`): one browser, every kept
ad searched, namesakes listed by their hosts' short fingerprints, and the table seen before a
flood of namesakes preferred (issue 23; the ad cache's rules are in ``ad_cache``)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

import trio

from p2p_dominoes.net.ad_cache import TableAd
from p2p_dominoes.net.discovery import open_discovery
from p2p_dominoes.net.peer_options import PeerFailure
from p2p_dominoes.net.said import said
from p2p_dominoes.peer_text import peer_text, quoted
from p2p_dominoes.session import PublicIdentity
from p2p_dominoes.words import phrase

__all__ = ["DIAL_PATIENCE", "Target", "find_table"]

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


async def find_table(
    name: str | None, *, interface: str | None, timeout: float, lang: str = "en"
) -> Target:
    """Browse the LAN for a table by name, table id or host fingerprint (or the only one) and
    return how to reach its host (pinned to the key that signed the ad).

    One browser looks for the whole ``timeout`` (first answer after at most 3 s, then at each
    change), so a table seen before a flood of namesakes is known as such. Every kept ad is
    searched, not only the listed ones, so a flood of fake tables cannot push the wanted one
    out of reach; a name that several tables carry must be made precise, unless one of them was
    believed well before the others came (that one is taken, and ``Target.note`` says so).
    """
    async with open_discovery(interface=interface) as disco:
        start = trio.current_time()
        deadline = start + timeout
        await trio.sleep_until(start + min(3.0, timeout))
        while True:
            tables = disco.tables(limit=None)
            chosen = _choose(tables, name, disco.seen_before_the_rest, lang)
            if isinstance(chosen, tuple):
                table, note = chosen
                return Target(table.addresses, table.port, table.info.fingerprint, note=note)
            if chosen:
                raise PeerFailure(chosen)
            if trio.current_time() >= deadline:
                break
            with trio.move_on_at(deadline):
                await disco.wait_for_change()
    if not tables:
        raise PeerFailure(phrase("net.no_table_found"))
    names = _listing(tables)
    raise PeerFailure(
        phrase("net.no_table_called", name=repr(peer_text(name, 64)), names=names)
        if name
        else phrase("net.several_tables", names=names)
    )


def _listing(tables: list[TableAd], limit: int = 8) -> str:
    """A short, cleaned list of tables for an error line: each name quoted (it is the host's
    word: a name cannot pose as another entry), then the host's short fingerprint."""
    shown = [f"{quoted(t.info.table_name, 32)} ({t.info.short_fingerprint})" for t in tables]
    more = len(shown) - limit
    return ", ".join(shown[:limit]) + (f" and {more} more" if more > 0 else "")


def _first_seen(tables: list[TableAd]) -> TableAd | None:
    """No table is known to have come before the others (the default for :func:`_choose`)."""
    return None


def _choose(
    tables: list[TableAd],
    name: str | None,
    seen_first: Callable[[list[TableAd]], TableAd | None] = _first_seen,
    lang: str = "en",
) -> tuple[TableAd, str] | str | None:
    """The one table in the lobby that ``name`` means, with a note for the user (empty when
    there is nothing to say); an error line when several match. None when nothing matches yet.

    ``name`` is a table name (any case), or the start of a table id (hex) or of the host's
    fingerprint (as shown by ``tables``, dashes optional). Of several tables with that name,
    the one ``seen_first`` picks (believed, and seen well before its namesakes) is taken.
    """
    lobby = [t for t in tables if t.info.phase == "lobby"]
    if name is None:
        return (lobby[0], "") if len(lobby) == 1 else None
    wanted = name.strip().casefold()
    if not wanted:
        return None
    by_name = [t for t in lobby if t.info.table_name.casefold() == wanted]
    compact = wanted.replace("-", "").upper()
    by_id = [
        t
        for t in lobby
        if t.info.table_id.hex().startswith(wanted)
        or (len(compact) >= 4 and t.info.fingerprint.replace("-", "").startswith(compact))
    ]
    found = by_name or by_id
    if len(found) == 1:
        return found[0], ""
    if len(found) > 1:
        crowd = Counter(t.source for t in found)  # a lone table at its address is listed first
        found.sort(key=lambda t: crowd[t.source])
        first = seen_first(found) if by_name else None
        others = [t for t in found if t is not first]
        if first is not None:
            return first, said(
                "joining_first",
                lang,
                count=len(found),
                name=quoted(name, 64),
                fingerprint=first.info.short_fingerprint,
                tables=_listing(others),
            )
        return said("several_match", lang, name=quoted(name, 64), tables=_listing(found, 12))
    return None
