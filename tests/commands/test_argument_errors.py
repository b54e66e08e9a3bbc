"""Errors met while the command line is read are one line and exit status 2, like any other:
a path the system refuses (too long, an unknown ``~user``) never ends in a traceback."""

from __future__ import annotations

import argparse
import errno
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from p2p_dominoes import cli
from p2p_dominoes.commands import arguments, play


def _status(argv: list[str]) -> int:
    """`main`'s exit status, whether argparse stopped it or it returned."""
    try:
        return cli.main(argv)
    except SystemExit as stopped:
        assert isinstance(stopped.code, int)
        return stopped.code


def _one_line(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    assert "Traceback" not in err and "unexpected error" not in err, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


@pytest.mark.parametrize(
    ("command", "option"),
    [
        (["play"], "--data-dir"),
        (["join", "Ann's table"], "--data-dir"),
        (["resume"], "--data-dir"),
        (["host"], "--record"),
        (["join", "Ann's table"], "--record"),
        (["demo"], "--record"),
        (["demo"], "--timing"),
        (["host"], "--timing"),
        (["export", "game.p2pd", "--hand", "1"], "--output"),
        (["simulate", "--secure"], "--record"),
        (["host"], "--rules"),
        (["simulate"], "--rules"),
    ],
)
def test_a_path_too_long_for_the_system_is_one_line_and_exit_2(
    command: list[str], option: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    long = str(tmp_path / ("a" * 300))
    assert _status([*command, option, long]) == cli.EXIT_USAGE
    line = _one_line(capsys)
    assert line.startswith(f"p2p-dominoes {command[0]}: "), line
    assert "that name is too long (at most 255 bytes a name, 4096 a path)" in line
    assert len(line) < 400  # the path is shortened, not repeated in full


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "--data-dir", "~no-such-user-here/x"],
        ["demo", "--record", "~no-such-user-here/x.p2pd"],
        ["rules", "check", "~no-such-user-here/x.json"],
    ],
)
def test_the_home_of_an_unknown_user_is_one_line_and_exit_2(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert _status(argv) == cli.EXIT_USAGE
    assert "~no-such-user-here/x" in _one_line(capsys)


def test_a_relative_data_folder_is_made_absolute(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`play` links to files in it by absolute address (a relative one ended `play` at once)."""
    monkeypatch.chdir(tmp_path)
    assert arguments.data_folder("mine") == tmp_path / "mine"


@pytest.mark.parametrize(
    ("exc", "says"),
    [
        (OSError(errno.ENOSPC, "No space left on device", "/x"), "/x: the disk is full"),
        (ValueError("embedded null byte"), "embedded null byte"),
    ],
)
def test_whatever_an_option_check_raises_reaches_the_one_line_handler(
    exc: Exception, says: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """argparse turns only ArgumentTypeError, TypeError and ValueError of a `type=` into its
    usage line; anything else raised while reading the command line reaches `main`'s handler."""

    def failing(text: str) -> Path:
        raise exc

    class Raising(argparse.Action):
        def __call__(self, *args: object, **kwargs: object) -> None:
            failing("")

    original = play.register

    def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
        original(commands)
        commands.choices["play"].add_argument("--boom", nargs=0, action=Raising)

    monkeypatch.setattr(play, "register", register)
    assert _status(["play", "--boom"]) == cli.EXIT_USAGE
    line = _one_line(capsys)
    assert line.startswith("p2p-dominoes play: ") and says in line


def test_play_with_a_relative_data_folder_in_the_environment_starts(tmp_path: Path) -> None:
    """P2P_DOMINOES_DATA_DIR=rel once ended `play` at once: the redirect file's address could
    not be made from a relative path (exit 70)."""
    argv = [sys.executable, "-m", "p2p_dominoes", "play", "--no-browser", "--no-mdns"]
    argv += ["--interface", "127.0.0.1", "--lan-port", "0"]
    env = {**os.environ, "P2P_DOMINOES_DATA_DIR": "rel", "PYTHONUNBUFFERED": "1"}
    env.pop("XDG_RUNTIME_DIR", None)
    env["PYTHONPATH"] = str(Path(__file__).resolve().parents[2])
    process = subprocess.Popen(
        argv, cwd=tmp_path, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert process.stdout is not None
        first = process.stdout.readline()  # printed at once, or the process ended
        second = process.stdout.readline()
    finally:
        process.send_signal(signal.SIGTERM)  # (it may come before play listens for it)
        _, err = process.communicate(timeout=30)
    assert first.startswith("p2p-dominoes is running for "), (first, second, err)
    assert second.startswith(f"(or open the file file://{tmp_path / 'rel' / 'run'}/play-"), err
    assert "Traceback" not in err and "unexpected error" not in err, err
