"""Who may open this player's page: a one-time link token, then a session cookie.

`play` hands the browser a link that carries a random token. The first load of that link
exchanges the token for a session cookie (HttpOnly, SameSite=Strict, named after the page's
port) and the token is spent: a copy of the link read later, from a history, a terminal or a
file, opens nothing. A fresh link (`new_link`) makes a new session, so the old cookie dies too.
Everything here is pure: no I/O, no trio.
"""

from __future__ import annotations

import hmac
import secrets
import string
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


class PageAccess:
    """The current one-time link token (until spent) and the current session's cookie value."""

    def __init__(self, link_token: str | None = None) -> None:
        if link_token is not None and not well_formed(link_token):
            raise ValueError("a link token is URL-safe base64 of at most 128 characters")
        self._link: str | None = link_token or secrets.token_urlsafe(SECRET_BYTES)
        self._session: str | None = None
        self.sessions_started = 0

    @property
    def link_token(self) -> str | None:
        """The token the next link carries, or None once it has been spent."""
        return self._link

    def new_link(self) -> str:
        """A fresh one-time token (the previous one, spent or not, no longer works)."""
        self._link = secrets.token_urlsafe(SECRET_BYTES)
        return self._link

    def exchange(self, token: str) -> str | None:
        """Spend the link token: the new session's cookie value, or None if `token` is not
        the current unspent one. A new session ends the previous one (its cookie is refused)."""
        if not well_formed(token) or not _same(token, self._link):
            return None
        self._link = None
        self._session = secrets.token_urlsafe(SECRET_BYTES)
        self.sessions_started += 1
        return self._session

    def admits(self, cookie: str | None) -> bool:
        """True if `cookie` is the current session's cookie value."""
        return well_formed(cookie) and _same(str(cookie), self._session)
