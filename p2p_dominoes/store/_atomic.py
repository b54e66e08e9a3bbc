"""Crash-safe private file writes: temp file 0600 with O_EXCL, fsync, then link/rename."""

from __future__ import annotations

import os
import secrets
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Final

from p2p_dominoes.words import phrase

PRIVATE_MODE: Final = 0o600
PRIVATE_DIR_MODE: Final = 0o700


def read_private(
    path: Path, limit: int, error: Callable[[str], Exception], what: str = "file"
) -> bytes:
    """Read a small file that must be regular, ours, and not group/world accessible.

    Every refusal is `error(message)`; a missing file is FileNotFoundError.
    """
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except FileNotFoundError:
        raise
    except OSError as exc:
        raise error(
            phrase("store.why.cannot_open", path=path, what=what, system=exc.strerror)
        ) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise error(phrase("store.why.not_regular_file", path=path, what=what))
        if hasattr(os, "getuid") and info.st_uid != os.getuid():
            raise error(phrase("store.why.owned_another_user", path=path, what=what))
        mode = stat.S_IMODE(info.st_mode)
        if mode & 0o077:
            raise error(
                phrase(
                    "store.why.accessible_group_or_others_mode",
                    path=path,
                    what=what,
                    mode=format(mode, "04o"),
                )
            )
        data = os.read(fd, limit + 1)
    finally:
        os.close(fd)
    if len(data) > limit:
        raise error(phrase("store.why.corrupt_too_large", path=path, what=what))
    return data


def _fsync_dir(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _write_temp(path: Path, data: bytes) -> Path:
    """Write ``data`` to a fresh 0600 temp file beside ``path`` and fsync it."""
    temp = path.with_name(f".{path.name}.tmp-{secrets.token_hex(8)}")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(temp, flags, PRIVATE_MODE)
    try:
        os.fchmod(fd, PRIVATE_MODE)  # the umask may have removed bits; be exact
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        os.fsync(fd)
    except BaseException:
        os.close(fd)
        temp.unlink(missing_ok=True)
        raise
    os.close(fd)
    return temp


def write_private_new(path: Path, data: bytes) -> None:
    """Create ``path`` (mode 0600) atomically; FileExistsError if it already exists."""
    temp = _write_temp(path, data)
    try:
        os.link(temp, path)  # atomic and never clobbers, unlike rename
    finally:
        temp.unlink(missing_ok=True)
    _fsync_dir(path.parent)


def write_private_replace(path: Path, data: bytes) -> None:
    """Write ``path`` (mode 0600) atomically, replacing any previous content."""
    temp = _write_temp(path, data)
    try:
        os.replace(temp, path)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    _fsync_dir(path.parent)


def ensure_private_dir(directory: Path) -> None:
    """Create ``directory`` (and parents) with mode 0700 if it does not exist."""
    directory.mkdir(mode=PRIVATE_DIR_MODE, parents=True, exist_ok=True)


def make_private_dirs(directory: Path) -> None:
    """Create ``directory`` and every missing parent with mode 0700 (exactly, whatever the umask).

    ``Path.mkdir(parents=True)`` gives the parents the default mode, which would leave the data
    directory readable by others when only the table directory was asked for.
    """
    missing: list[Path] = []
    current = directory
    while not current.exists():
        missing.append(current)
        if current.parent == current:
            break
        current = current.parent
    for path in reversed(missing):
        try:
            path.mkdir(mode=PRIVATE_DIR_MODE)
        except FileExistsError:
            continue  # another process made it first
        os.chmod(path, PRIVATE_DIR_MODE)
