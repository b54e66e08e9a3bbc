"""Who may open this player's page: a one-time link token, then a session cookie and key.

`play` hands the browser a link that carries a random token. The first load of that link
exchanges the token for a session: a cookie (HttpOnly, SameSite=Strict, named after the page's
port) and a key that the page keeps in its origin's localStorage. The token is then spent: a
copy of the link read later, from a history, a terminal or a file, opens nothing. The page
needs the cookie; its WebSocket needs the cookie and the key. Cookies are not port-scoped (a
browser sends ours to any server on 127.0.0.1), localStorage is, so a local server on another
port that sees our cookie still cannot open our socket. A fresh link (`new_link`) makes a new
session, so the old cookie and key die too. Everything here is pure: no I/O, no trio.
"""

from __future__ import annotations

import hmac
import secrets
import string
from dataclasses import dataclass
from typing import Final

SECRET_BYTES: Final = 32
MAX_SECRET_CHARS: Final = 128
COOKIE_PREFIX: Final = "p2p-dominoes-"
_SECRET_CHARS: Final = frozenset(string.ascii_letters + string.digits + "-_")


def well_formed(text: object) -> bool:
    """True for a string that could be one of our secrets (URL-safe base64, not overlong)."""
    return (
        isinstance(text, str)
        and 0 < len(text) <= MAX_SECRET_CHARS
        and all(char in _SECRET_CHARS for char in text)
    )


def cookie_name(port: int) -> str:
    """The session cookie's name: cookies are not port-scoped, so two pages on one machine
    (two `play` peers) each need their own name."""
    return f"{COOKIE_PREFIX}{port}"


def _same(given: str, expected: str | None) -> bool:
    return expected is not None and hmac.compare_digest(given.encode(), expected.encode())


@dataclass(frozen=True)
class PageSession:
    """What the browser gets for the link: the cookie's value and the page's socket key."""

    cookie: str
    key: str


class PageAccess:
    """The current one-time link token (until spent) and the current session's cookie value."""

    def __init__(self, link_token: str | None = None) -> None:
        if link_token is not None and not well_formed(link_token):
            raise ValueError("a link token is URL-safe base64 of at most 128 characters")
        self._link: str | None = link_token or secrets.token_urlsafe(SECRET_BYTES)
        self._session: PageSession | None = None
        self.sessions_started = 0

    @property
    def link_token(self) -> str | None:
        """The token the next link carries, or None once it has been spent."""
        return self._link

    def new_link(self) -> str:
        """A fresh one-time token (the previous one, spent or not, no longer works)."""
        self._link = secrets.token_urlsafe(SECRET_BYTES)
        return self._link

    def exchange(self, token: str) -> PageSession | None:
        """Spend the link token: the new session, or None if `token` is not the current
        unspent one. A new session ends the previous one (its cookie and key are refused)."""
        if not well_formed(token) or not _same(token, self._link):
            return None
        self._link = None
        self._session = PageSession(
            secrets.token_urlsafe(SECRET_BYTES), secrets.token_urlsafe(SECRET_BYTES)
        )
        self.sessions_started += 1
        return self._session

    def resume(self, session: PageSession) -> None:
        """Admit the session a previous run of this peer gave its browser (kept on disk), until
        a link is spent for a new one."""
        self._session = session

    def admits(self, cookie: str | None) -> bool:
        """True if `cookie` is the current session's cookie value (enough for the HTML)."""
        session = self._session
        return session is not None and well_formed(cookie) and _same(str(cookie), session.cookie)

    def admits_socket(self, cookie: str | None, key: str | None) -> bool:
        """True for the current session's cookie and key together (the WebSocket's check)."""
        session = self._session
        return (
            self.admits(cookie)
            and session is not None
            and well_formed(key)
            and _same(str(key), session.key)
        )
