"""The data directory on each platform, and its overrides."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from p2p_dominoes.commands.peer_args import data_dir_of
from p2p_dominoes.store import data_dir, default_data_dir, table_dir, tables_dir

HOME = Path("/home/ana")


@pytest.mark.parametrize(
    ("platform", "environ", "expected"),
    [
        ("linux", {}, "/home/ana/.local/share/p2p-dominoes"),
        ("linux", {"XDG_DATA_HOME": "/xdg"}, "/xdg/p2p-dominoes"),
        ("linux", {"XDG_DATA_HOME": "relative"}, "/home/ana/.local/share/p2p-dominoes"),
        ("freebsd14", {}, "/home/ana/.local/share/p2p-dominoes"),
        ("darwin", {}, "/home/ana/Library/Application Support/p2p-dominoes"),
        ("win32", {"LOCALAPPDATA": "/lad"}, "/lad/p2p-dominoes"),
        ("win32", {"APPDATA": "/ad"}, "/ad/p2p-dominoes"),
        ("win32", {}, "/home/ana/AppData/Local/p2p-dominoes"),
        ("darwin", {"P2P_DOMINOES_DATA_DIR": "/mine"}, "/mine"),
    ],
)
def test_default_data_dir(platform: str, environ: dict[str, str], expected: str) -> None:
    assert default_data_dir(environ, platform, HOME) == Path(expected)


def test_an_explicit_data_dir_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", "/xdg")
    monkeypatch.delenv("P2P_DOMINOES_DATA_DIR", raising=False)
    assert data_dir("/given") == Path("/given")
    if default_data_dir().as_posix().startswith("/xdg"):  # on Linux
        assert data_dir_of(argparse.Namespace(data_dir=None)) == Path("/xdg/p2p-dominoes")
    assert data_dir_of(argparse.Namespace(data_dir=Path("/given"))) == Path("/given")


def test_tables_are_named_by_their_id() -> None:
    assert tables_dir("/d") == Path("/d/tables")
    assert table_dir("/d", bytes(range(16))) == Path("/d/tables/000102030405060708090a0b0c0d0e0f")
    with pytest.raises(ValueError):
        table_dir("/d", b"short")
