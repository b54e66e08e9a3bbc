"""Dialling the host a joiner asks for a seat: with backoff within a patience, retried by the
error's type (never by a peer's words), each failure said in a few words."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from typing import Final

import trio

from p2p_dominoes.net.backoff import Backoff
from p2p_dominoes.net.connection import Connection, connect
from p2p_dominoes.net.errors import (
    HandshakeError,
    IdentityMismatch,
    OwnIdentity,
    PeerBusy,
    RefusedByPeer,
)
from p2p_dominoes.net.framing import BYE_OWN_IDENTITY
from p2p_dominoes.net.peer_options import PeerFailure
from p2p_dominoes.net.said import said, said_os_errors
from p2p_dominoes.peer_text import plain_quotes
from p2p_dominoes.session import Identity, PublicIdentity
from p2p_dominoes.words import phrase, reason_in

DIAL_FIRST_DELAY: Final = 0.1
DIAL_MAX_DELAY: Final = 2.0
"""Backoff of `dialed` (the host we join, within its patience)."""
DIAL_PROGRESS_EVERY: Final = 5.0
"""Seconds between the "still trying" lines while the host does not answer."""

_FULL_CODES: Final = frozenset({"full", "playing"})


def _dial_problem(exc: BaseException, addresses: Sequence[str], port: int, lang: str = "en") -> str:
    """A failed dial in a few words, without repeating the address (one line for the user)."""
    if isinstance(exc, OSError):
        text = str(exc)
        _, sep, rest = text.partition(f"could not connect to port {port}: ")
        text = rest if sep else text
        if len(addresses) == 1 and text.startswith(f"{addresses[0]}: "):
            text = text[len(addresses[0]) + 2 :]
        return said_os_errors(text, lang)
    if isinstance(exc, RefusedByPeer):
        return said("refused_problem", lang, reason=exc.reason)
    return reason_in(exc, lang)


@asynccontextmanager
async def dialed(
    identity: Identity,
    addresses: Sequence[str],
    port: int,
    expect: PublicIdentity | str | None,
    *,
    patience: float,
    progress: Callable[[str], None] | None = None,
    lang: str = "en",
) -> AsyncIterator[Connection]:
    """Dial with backoff for up to `patience` seconds; the connection lives for the block.

    What is retried is decided by the error's type, never by a peer's words: a failed TCP
    connect, a broken handshake and a `busy` refusal (PeerBusy) are retried; a refusal without
    that code and a different key at the address (IdentityMismatch) end it at once. `progress`
    hears what is being tried, and every few seconds that it is still being tried (in `lang`).
    """
    started = time.monotonic()
    deadline = started + patience
    backoff = Backoff(first=DIAL_FIRST_DELAY, cap=DIAL_MAX_DELAY)
    where = f"{_shown(addresses[0])}:{port}"
    if len(addresses) > 1:
        where += f" (or {', '.join(addresses[1:])})"
    told = started
    if progress is not None:
        progress(said("dialling", lang, where=where))
    while True:
        try:
            manager = connect(list(addresses), port, identity, expect=expect)
            connection = await manager.__aenter__()
        except (OSError, HandshakeError) as exc:
            if isinstance(exc, OwnIdentity) or (
                isinstance(exc, RefusedByPeer) and exc.code == BYE_OWN_IDENTITY
            ):
                raise PeerFailure(phrase("net.own_identity", where=where)) from None
            if isinstance(exc, RefusedByPeer) and exc.code in _FULL_CODES:
                raise PeerFailure(said("table_full", lang, where=where)) from None
            if isinstance(exc, RefusedByPeer) and not isinstance(exc, PeerBusy):
                reason = plain_quotes(exc.reason)  # the host's words, never shown as ours
                raise PeerFailure(said("host_refused", lang, where=where, reason=reason)) from None
            if isinstance(exc, IdentityMismatch):
                raise PeerFailure(phrase("net.why.dial_failed", where=where, error=exc)) from None
            problem = _dial_problem(exc, addresses, port, lang)
            now = time.monotonic()
            if now >= deadline:
                spent = f"{now - started:.0f}"
                raise PeerFailure(
                    said("gave_up", lang, where=where, s=spent, problem=problem)
                ) from None
            if progress is not None and now - told >= DIAL_PROGRESS_EVERY:
                told = now
                seconds, of = f"{now - started:.0f}", f"{patience:g}"
                progress(said("still_trying", lang, where=where, problem=problem, s=seconds, of=of))
            await trio.sleep(min(backoff.next(), deadline - now))  # the last try at the deadline
            continue
        break
    try:
        yield connection
    except BaseException as exc:
        if not await manager.__aexit__(type(exc), exc, exc.__traceback__):
            raise
    else:
        await manager.__aexit__(None, None, None)


def _shown(address: str) -> str:
    return f"[{address}]" if ":" in address else address
