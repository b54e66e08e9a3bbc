"""Where a player's files live: the platform's user data directory, overridable (docs/files.md).

One directory holds everything this program keeps for a player: the identity key and one
sub-directory per table (its crash-safe log and per-hand secrets). It is private (0700) because
the identity key and the hand secrets are.

- Linux and other Unix: ``$XDG_DATA_HOME/p2p-dominoes``, else ``~/.local/share/p2p-dominoes``.
- macOS: ``~/Library/Application Support/p2p-dominoes``.
- Windows: ``%LOCALAPPDATA%\\p2p-dominoes`` (else ``%APPDATA%``, else ``~\\AppData\\Local``).

``P2P_DOMINOES_DATA_DIR`` or ``--data-dir`` replaces the whole path.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Final

APP_DIR_NAME: Final = "p2p-dominoes"
DATA_DIR_ENV: Final = "P2P_DOMINOES_DATA_DIR"
TABLES_DIR_NAME: Final = "tables"
TABLE_ID_SIZE: Final = 16


def default_data_dir(
    environ: Mapping[str, str] | None = None,
    platform: str | None = None,
    home: Path | None = None,
) -> Path:
    """The platform's user data directory for this program (not created here).

    ``environ``, ``platform`` (a ``sys.platform`` value) and ``home`` default to this process's;
    they are parameters so that every platform's answer can be tested anywhere.
    """
    env = os.environ if environ is None else environ
    plat = sys.platform if platform is None else platform
    home_dir = Path.home() if home is None else home
    override = env.get(DATA_DIR_ENV)
    if override:
        return Path(override)
    if plat == "win32":
        base = env.get("LOCALAPPDATA") or env.get("APPDATA")
        return (Path(base) if base else home_dir / "AppData" / "Local") / APP_DIR_NAME
    if plat == "darwin":
        return home_dir / "Library" / "Application Support" / APP_DIR_NAME
    xdg = env.get("XDG_DATA_HOME")
    # The XDG spec says a relative XDG_DATA_HOME is invalid and must be ignored.
    base_dir = Path(xdg) if xdg and os.path.isabs(xdg) else home_dir / ".local" / "share"
    return base_dir / APP_DIR_NAME


def data_dir(override: str | os.PathLike[str] | None = None) -> Path:
    """``override`` (from ``--data-dir``) when given, else :func:`default_data_dir`."""
    return Path(override) if override is not None else default_data_dir()


def tables_dir(data: str | os.PathLike[str]) -> Path:
    """The directory holding one sub-directory per table: ``DATA/tables``."""
    return Path(data) / TABLES_DIR_NAME


def table_dir(data: str | os.PathLike[str], table_id: bytes) -> Path:
    """A table's directory, named by its id in lower-case hex: ``DATA/tables/<32 hex>``."""
    if type(table_id) is not bytes or len(table_id) != TABLE_ID_SIZE:
        raise ValueError(f"table id must be {TABLE_ID_SIZE} bytes")
    return tables_dir(data) / table_id.hex()


RUNTIME_DIR_NAME: Final = "run"


def runtime_dir(data: str | os.PathLike[str], environ: Mapping[str, str] | None = None) -> Path:
    """Where this program keeps files that live only while it runs (the page's redirect file).

    ``$XDG_RUNTIME_DIR/p2p-dominoes`` when the session has a runtime directory (Linux), else
    ``DATA/run``. Either way it is made private (0700) by whoever writes into it.
    """
    env = os.environ if environ is None else environ
    xdg = env.get("XDG_RUNTIME_DIR")
    if xdg and os.path.isabs(xdg) and os.path.isdir(xdg):
        return Path(xdg) / APP_DIR_NAME
    return Path(data) / RUNTIME_DIR_NAME
