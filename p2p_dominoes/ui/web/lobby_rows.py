"""The lobby for the page: the tables found on the LAN, the unfinished tables to resume, this
machine's addresses, where a join is going, and the host's own table before its start (who
sits, who asks), as cleaned, bounded JSON values.

Everything here comes from peers (ads, names in table logs) or from this machine, and is
shown as text on the page: each value is cleaned (`peer_text`) and bounded, and the table list
as a whole is held under `LOBBY_TABLES_BYTES`.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from typing import Any

from p2p_dominoes.net import MAX_TABLES_LISTED, TableAd, Target, lan_addresses
from p2p_dominoes.net.admission import LobbyState
from p2p_dominoes.net.join_code import join_code_digits, join_code_words
from p2p_dominoes.peer_text import peer_text
from p2p_dominoes.store import TableSummary


def unfinished_row(table: TableSummary | None) -> dict[str, Any] | None:
    """The unfinished table the lobby offers to resume: its id, name (cleaned), seat, players."""
    if table is None:
        return None
    return {
        "id": table.table_id.hex(),
        "name": peer_text(table.name, 64) or table.table_id.hex()[:8],
        "seat": table.seat + 1,
        "players": [peer_text(name, 64) for name in table.players],
        "messages": table.messages,
    }


@functools.lru_cache(maxsize=1)
def own_addresses() -> tuple[str, ...]:
    """This machine's LAN addresses (looked up once: every page update shows them)."""
    return tuple(lan_addresses())


LOBBY_TABLES_BYTES = 16_384
"""Most bytes of JSON the lobby's table list may take in one push to the page."""


def table_rows(tables: Sequence[TableAd]) -> list[dict[str, str]]:
    """Page rows for at most ``MAX_TABLES_LISTED`` tables, text cleaned, within the byte cap."""
    rows: list[dict[str, str]] = []
    size = 2
    for t in tables[:MAX_TABLES_LISTED]:
        row = {
            "table": peer_text(t.info.table_name, 64),
            "host": peer_text(t.info.player_name, 64),
            "fingerprint": t.info.fingerprint,  # before the genesis: the full one
            "seats": f"{t.info.seats_taken}/{t.info.seats_total}",
            "rules": peer_text(t.info.rules, 32),
            "phase": t.info.phase,
            "id": t.info.table_id.hex(),
            "address": peer_text(_dialable(t), 64),
            "pin": t.info.fingerprint,
        }
        size += len(json.dumps(row, ensure_ascii=False).encode("utf-8")) + 1
        if size > LOBBY_TABLES_BYTES:
            break
        rows.append(row)
    return rows


def _dialable(table: TableAd) -> str:
    host = table.addresses[0] if table.addresses else ""
    return f"[{host}]:{table.port}" if ":" in host else f"{host}:{table.port}"


def shown_target(target: Target) -> str:
    """Where a join goes, as the lobby shows it (`HOST:PORT`, an IPv6 address in brackets)."""
    host = target.addresses[0]
    return f"[{host}]:{target.port}" if ":" in host else f"{host}:{target.port}"


def host_lobby_snapshot(state: LobbyState | None, now: float) -> dict[str, Any] | None:
    """The host's own table before the start: seats (removable) and who asks for a seat.

    Names were cleaned (peer_text) by the lobby; the page still shows them as text only.
    `now` is the admission clock's time, for the seconds each request has left.
    """
    if state is None:
        return None
    return {
        "table": state.table,
        "players": state.players,
        "pairs": state.pairs,
        "seats": [
            {"seat": s.seat, "name": s.name, "fingerprint": s.fingerprint, "bot": s.bot}
            for s in state.seats
        ],
        "pending": [
            {
                "number": r.number,
                "name": r.name,
                "fingerprint": r.key.fingerprint,
                "short": r.key.short_fingerprint,
                "source": r.source,
                "seconds": max(0, round(r.deadline - now)),
            }
            for r in state.pending
        ],
        # The join code beside the table (the person reads it out): words in both languages.
        "code": None
        if state.code is None
        else {
            "en": join_code_words(state.code, "en"),
            "ru": join_code_words(state.code, "ru"),
            "digits": join_code_digits(state.code),
        },
    }
