"""What the peer runtime tells its player during a table, in English or Russian: thin lookups of
the catalogues' ``net.*`` lines (p2p_dominoes/words), so that their many callers keep `said`."""

from __future__ import annotations

import errno
import os
import re
from collections.abc import Iterator, Mapping
from functools import cache
from string import Formatter
from typing import Final

from p2p_dominoes.words import keys, line, template

_AREA: Final = "net."
"""The catalogue keys of these lines begin so (`said("seated", …)` is `net.seated`)."""


class _Lines(Mapping[str, tuple[str, str]]):
    """The catalogue's ``net.*`` lines as (English, Russian) templates by their short key."""

    def _keys(self) -> list[str]:
        return sorted(key.removeprefix(_AREA) for key in keys("en") if key.startswith(_AREA))

    def __getitem__(self, key: str) -> tuple[str, str]:
        return template(_AREA + key, "en"), template(_AREA + key, "ru")

    def __iter__(self) -> Iterator[str]:
        return iter(self._keys())

    def __len__(self) -> int:
        return len(self._keys())


_LINES: Final = _Lines()
"""Every line of the network's words, read from the catalogues (p2p_dominoes/words)."""

_CLOSED: Final = ("net.closed.done", "net.closed.no_bye", "net.closed.silent")
"""The commonest reasons a connection closed (net/connection.py's words: the English text of
each is the pattern, its ``{s}`` a number)."""

_OS_ERRORS: Final = {
    errno.ECONNREFUSED: "net.os.refused",
    errno.ECONNRESET: "net.os.reset",
    errno.ECONNABORTED: "net.os.aborted",
    errno.EHOSTUNREACH: "net.os.host_unreachable",
    errno.ENETUNREACH: "net.os.net_unreachable",
    errno.ENETDOWN: "net.os.net_down",
    errno.ETIMEDOUT: "net.os.timed_out",
    errno.EADDRNOTAVAIL: "net.os.address_unavailable",
}
"""The system's words about a failed connection (`os.strerror`, first letter lowered, as
net/connection.py writes them), by their catalogue key."""


@cache
def _pattern(key: str) -> re.Pattern[str]:
    """A regular expression matching the English line `key`, each ``{field}`` a number."""
    parts = []
    for literal, field, _, _ in Formatter().parse(template(key, "en")):
        parts.append(re.escape(literal))
        if field:
            parts.append(f"(?P<{field}>[0-9.]+)")
    return re.compile("".join(parts))


def pairs_said(names: dict[int, str], lang: str) -> str:
    """Who partners whom at a Kozel table: seats 1+3 against 2+4 (`names` by 0-based seat,
    already cleaned; a seat missing from it is said to be empty)."""

    def name(seat: int) -> str:
        return names.get(seat) or said("empty_seat", lang, seat=seat + 1)

    first, second = (said("pair", lang, one=name(a), other=name(a + 2)) for a in (0, 1))
    return said("pairs", lang, first=first, second=second)


def said(key: str, lang: str, **values: object) -> str:
    """The line `key` in `lang` ("ru", else English): the catalogue's ``net.<key>``."""
    return line(_AREA + key, lang, **values)


def said_os_errors(text: str, lang: str) -> str:
    """`text` (a dial's problem, as net/connection.py words it) with the system's known English
    words, and its "timed out after N s", in `lang`."""
    if lang != "ru":
        return text
    timed_out = _pattern("net.timed_out")
    text = timed_out.sub(lambda found: line("net.timed_out", lang, **found.groupdict()), text)
    for number, key in _OS_ERRORS.items():
        english = os.strerror(number)
        text = text.replace(english[:1].lower() + english[1:], line(key, lang))
    return text


def said_closed(reason: str, lang: str) -> str:
    """Why a connection closed (`ConnectionClosed`'s words) in `lang`, where the words are known."""
    if lang == "ru":
        for key in _CLOSED:
            found = _pattern(key).fullmatch(reason)
            if found:
                return line(key, lang, **found.groupdict())
    return reason
