"""How a command ends: the documented exit statuses, the errors that carry them (a usage error,
Ctrl+C), and one sentence for an OS error that says what to do.

Every command module raises these; `cli.main` turns them into one line and a status. They live
here, not in `cli`, so that the commands need not import the command line that imports them.
"""

from __future__ import annotations

import errno
from typing import Final

from p2p_dominoes.commands.command_language import command_language
from p2p_dominoes.words import line

EXIT_OK: Final = 0
EXIT_UNVERIFIED: Final = 1
EXIT_USAGE: Final = 2
EXIT_BLAMED: Final = 3
EXIT_UNSAFE_LIBRARY: Final = 4
EXIT_BUG: Final = 70
EXIT_INTERRUPTED: Final = 130
EXIT_CODES: Final = frozenset(
    {EXIT_OK, EXIT_UNVERIFIED, EXIT_USAGE, EXIT_BLAMED, EXIT_UNSAFE_LIBRARY, EXIT_INTERRUPTED}
)
"""The documented exit statuses of every command (EXIT_BUG is never meant to happen)."""


class UsageError(Exception):
    """Bad input from the user: printed as one line, exit status 2."""


class Interrupted(Exception):
    """Ctrl+C: printed as one line (how to come back, if anything can be), exit status 130."""


_OS_ERRORS: Final[dict[int, str]] = {
    errno.EADDRINUSE: "command.os.port_in_use",
    errno.EADDRNOTAVAIL: "command.os.not_our_address",
    errno.ENOENT: "command.os.no_such_path",
    errno.ENOTDIR: "command.os.not_a_folder",
    errno.EISDIR: "command.os.is_a_folder",
    errno.ENAMETOOLONG: "command.os.name_too_long",
    errno.ENOSPC: "command.os.disk_full",
    errno.EROFS: "command.os.read_only",
    errno.ENETUNREACH: "command.os.no_route",
    errno.EHOSTUNREACH: "command.os.no_route",
}
"""The catalogue entry of each OS error that has a sentence of its own."""


def os_error_text(exc: OSError) -> str:
    """One sentence for an OS error that says what to do (port busy, address missing, ...), in
    the command line's language (`command_language`); an error without a sentence of its own
    is the system's words, after the path it concerns."""
    lang = command_language()
    where = f"{_short(str(exc.filename))}: " if exc.filename else ""
    code = exc.errno
    if code in (errno.EACCES, errno.EPERM):
        key = "command.os.denied_file" if exc.filename else "command.os.denied_port"
        return line(key, lang, where=where)
    if code is not None and code in _OS_ERRORS:
        return line(_OS_ERRORS[code], lang, where=where)
    return f"{where}{exc.strerror or exc}"


def unexpected_text(error: BaseException) -> str:
    """The one line for an error nobody foresaw (a bug; exit 70), in the command line's
    language: its kind, its own words on one line, and how to see the details."""
    text = " ".join(str(error).split())
    return line("command.unexpected", command_language(), kind=type(error).__name__, text=text)


def _short(path: str) -> str:
    """A path short enough for one line: a very long one keeps its start and its end."""
    return path if len(path) <= 100 else f"{path[:60]}…{path[-30:]}"
