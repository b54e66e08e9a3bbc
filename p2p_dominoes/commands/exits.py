"""How a command ends: the documented exit statuses, the errors that carry them (a usage error,
Ctrl+C), and one sentence for an OS error that says what to do.

Every command module raises these; `cli.main` turns them into one line and a status. They live
here, not in `cli`, so that the commands need not import the command line that imports them.
"""

from __future__ import annotations

import errno
from typing import Final

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


def os_error_text(exc: OSError) -> str:
    """One sentence for an OS error that says what to do (port busy, address missing, ...)."""
    where = f"{_short(str(exc.filename))}: " if exc.filename else ""
    code = exc.errno
    if code == errno.EADDRINUSE:
        return "that port is already in use: choose another --port (0 picks any free port)"
    if code == errno.EADDRNOTAVAIL:
        return "that address is not one of this machine's: see `ip addr`, or leave out --interface"
    if code in (errno.EACCES, errno.EPERM):
        if exc.filename:
            return f"{where}permission denied: pick a file or folder you own (--data-dir DIR)"
        return "permission denied: ports below 1024 need root, choose a --port above 1023"
    if code == errno.ENOENT:
        return f"{where}no such file or folder: check the path"
    if code == errno.ENOTDIR:
        return f"{where}a part of the path is a file, not a folder"
    if code == errno.EISDIR:
        return f"{where}that is a folder: give a file name"
    if code == errno.ENAMETOOLONG:
        return f"{where}that name is too long (at most 255 bytes a name, 4096 a path): shorten it"
    if code == errno.ENOSPC:
        return f"{where}the disk is full: free some space"
    if code == errno.EROFS:
        return f"{where}the file system is read-only: pick another folder"
    if code in (errno.ENETUNREACH, errno.EHOSTUNREACH):
        return "no route to that address: are you on the same network?"
    return f"{where}{exc.strerror or exc}"


def _short(path: str) -> str:
    """A path short enough for one line: a very long one keeps its start and its end."""
    return path if len(path) <= 100 else f"{path[:60]}…{path[-30:]}"
