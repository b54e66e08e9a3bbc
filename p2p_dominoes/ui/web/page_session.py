"""The page's session kept in the data directory, so that a `play` restarted on the same data
directory (after a crash, a kill, a reboot) admits the tab that was open: same port, same cookie
and key. The file is private (0600) and no more secret than the identity kept beside it."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from p2p_dominoes.store import write_private_replace
from p2p_dominoes.ui.web.access import PageSession, well_formed

FILE_NAME: Final = "page-session.json"


@dataclass(frozen=True)
class SavedSession:
    """The port the page was served on and the session its browser holds."""

    port: int
    session: PageSession


def save_page_session(data: Path, port: int, session: PageSession) -> None:
    """Keep the session for the next run (written whole, readable by the owner only)."""
    text = json.dumps({"port": port, "cookie": session.cookie, "key": session.key})
    write_private_replace(data / FILE_NAME, text.encode("utf-8"))


def load_page_session(data: Path) -> SavedSession | None:
    """The last run's session, or None (no file, or anything in it not as written)."""
    try:
        saved = json.loads((data / FILE_NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(saved, dict):
        return None
    port, cookie, key = saved.get("port"), saved.get("cookie"), saved.get("key")
    if type(port) is not int or not 1 <= port <= 65535:
        return None
    if not well_formed(cookie) or not well_formed(key):
        return None
    return SavedSession(port, PageSession(str(cookie), str(key)))
