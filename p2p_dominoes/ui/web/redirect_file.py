"""The local file the browser is opened on, so that the page's secret link is on no command line.

As Jupyter does: a small HTML file, readable by this user only (0600, in a 0700 directory), that
sends the browser on to the link with the one-time token. The browser's command line (which any
local user can read from /proc) then carries only the file's path.
"""

from __future__ import annotations

import contextlib
import html
import os
import secrets
import stat
from pathlib import Path

_PAGE = """<!doctype html>
<html><head><meta charset="utf-8">
<meta http-equiv="refresh" content="0;url={url}">
<title>p2p-dominoes</title></head>
<body><p><a href="{url}">p2p-dominoes</a></p></body></html>
"""


def private_directory(directory: Path) -> Path:
    """Create `directory` (0700) or check an existing one is ours and make it 0700.

    Raises OSError when it is not a directory of ours (a symlink, or someone else's).
    """
    directory.mkdir(mode=0o700, parents=True, exist_ok=True)
    info = os.lstat(directory)
    if not stat.S_ISDIR(info.st_mode):
        raise OSError(f"{directory} is not a directory")
    if hasattr(os, "getuid"):
        if info.st_uid != os.getuid():
            raise OSError(f"{directory} belongs to another user")
        if info.st_mode & 0o077:
            os.chmod(directory, 0o700)
    return directory


def write_redirect_file(directory: Path, port: int, url: str) -> Path:
    """Write (atomically, 0600) the file that sends a browser to `url`; returns its path."""
    private_directory(directory)
    path = directory / f"play-{port}.html"
    temporary = directory / f".play-{port}-{secrets.token_hex(6)}.tmp"
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    descriptor = os.open(temporary, flags, 0o600)
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as file:
            file.write(_PAGE.format(url=html.escape(url, quote=True)))
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    return path


def remove_redirect_file(path: Path) -> None:
    """Remove the redirect file when the page stops (its link is dead by then anyway)."""
    with contextlib.suppress(OSError):
        path.unlink()
