"""The command line starts and answers --version."""

import argparse
import errno
import subprocess
import sys

import pytest

from p2p_dominoes import __version__, cli


def test_version_via_python_m() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "p2p_dominoes", "--version"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert __version__ in out.stdout


def _main_raising(exc: BaseException, monkeypatch: pytest.MonkeyPatch) -> int:
    """`main` with `simulate`'s work replaced by raising `exc` (as a command's body might)."""
    from p2p_dominoes.commands import simulate

    def boom(args: object) -> int:
        raise exc

    monkeypatch.setattr(simulate, "run", boom)
    return cli.main(["simulate"])


@pytest.mark.parametrize(
    ("exc", "status", "line"),
    [
        (cli.UsageError("no such \x1b[2Jthing"), 2, "p2p-dominoes simulate: no such [2Jthing"),
        (
            OSError(errno.EADDRINUSE, "Address already in use"),
            2,
            "p2p-dominoes simulate: that port is already in use: choose another --port "
            "(0 picks any free port)",
        ),
        (
            PermissionError(errno.EACCES, "Permission denied", "/root/x"),
            2,
            "p2p-dominoes simulate: /root/x: permission denied: pick a file or folder you own "
            "(--data-dir DIR)",
        ),
        (
            PermissionError(errno.EACCES, "Permission denied"),
            2,
            "p2p-dominoes simulate: permission denied: ports below 1024 need root, choose a "
            "--port above 1023",
        ),
        (
            ExceptionGroup("nursery", [OSError(errno.EADDRNOTAVAIL, "Cannot assign")]),
            2,
            "p2p-dominoes simulate: that address is not one of this machine's: see `ip addr`, "
            "or leave out --interface",
        ),
        (
            BaseExceptionGroup("nursery", [KeyboardInterrupt()]),
            130,
            "p2p-dominoes simulate: interrupted",
        ),
        (
            ZeroDivisionError("division by zero"),
            70,
            "p2p-dominoes simulate: unexpected error (ZeroDivisionError: division by zero); this "
            "is a bug, please report it (P2P_DOMINOES_TRACEBACK=1 shows the details)",
        ),
    ],
)
def test_every_error_that_reaches_main_is_one_line(
    exc: BaseException,
    status: int,
    line: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.delenv("P2P_DOMINOES_TRACEBACK", raising=False)
    assert _main_raising(exc, monkeypatch) == status
    err = capsys.readouterr().err
    assert err.strip() == line
    assert "Traceback" not in err


def test_usage_errors_are_one_line_pointing_to_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        cli.main(["host", "--players", "5"])
    assert stopped.value.code == 2
    assert capsys.readouterr().err == (
        "p2p-dominoes host: argument --players: invalid choice: 5 (choose from 2, 3, 4) "
        "(see: p2p-dominoes host --help)\n"
    )


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "--secure", "--hands", "1"],
        ["verify", "no-such-record.p2pd"],
        ["export", "no-such-record.p2pd", "--hand", "1"],
        ["host", "--name", "Ann"],
        ["join", "some-table"],
    ],
)
def test_a_vulnerable_libsodium_refuses_to_play_with_one_line(
    argv: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from p2p_dominoes.mental import group
    from tests.mental.conftest import pre_fix_is_valid

    monkeypatch.setattr(group, "_sodium_is_valid", pre_fix_is_valid)
    assert cli.main(argv) == cli.EXIT_UNSAFE_LIBRARY == 4
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "CVE-2025-69277" in err and "PyNaCl 1.6.2" in err


def test_a_library_that_cannot_run_the_check_is_refused_the_same_way(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from p2p_dominoes.mental import group

    def broken(point: bytes) -> bool:
        raise RuntimeError("this libsodium was built without crypto_core_ed25519")

    monkeypatch.setattr(group, "_sodium_is_valid", broken)
    assert cli.main(["verify", "no-such-record.p2pd"]) == cli.EXIT_UNSAFE_LIBRARY
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_a_plain_simulation_needs_no_sound_subgroup_check(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from p2p_dominoes.mental import group
    from tests.mental.conftest import pre_fix_is_valid

    monkeypatch.setattr(group, "_sodium_is_valid", pre_fix_is_valid)
    assert cli.main(["simulate", "--hands", "1"]) == cli.EXIT_OK


def _command_lines(
    parser: argparse.ArgumentParser, prefix: tuple[str, ...] = ()
) -> list[list[str]]:
    """Every command and subcommand of `parser`, walking its argparse tree."""
    found = [list(prefix)]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found += _command_lines(sub, (*prefix, name))
    return found


_EVERY_COMMAND = _command_lines(cli._build_parser())


def test_the_walk_finds_the_nested_commands() -> None:
    assert ["bench", "bots"] in _EVERY_COMMAND and ["rules", "page"] in _EVERY_COMMAND
    assert len(_EVERY_COMMAND) > 20


@pytest.mark.parametrize("command", _EVERY_COMMAND, ids=lambda c: " ".join(c) or "p2p-dominoes")
def test_every_help_prints_and_exits_0(
    command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """A stray `%` in a help text is an argparse format: `--help` would end in a traceback."""
    with pytest.raises(SystemExit) as stopped:
        cli.main([*command, "--help"])
    assert stopped.value.code == 0
    out, err = capsys.readouterr()
    assert out.startswith("usage: p2p-dominoes") and err == ""
    assert "Traceback" not in out


@pytest.mark.parametrize("command", [c for c in _EVERY_COMMAND if c[:1] != ["bench"]])
def test_a_name_option_says_its_limit_in_bytes(
    command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """The limit is 64 bytes of UTF-8 (what the lobby and the genesis carry), not characters."""
    with pytest.raises(SystemExit):
        cli.main([*command, "--help"])
    text = " ".join(capsys.readouterr().out.split())
    if "--name NAME" in text:
        assert "at most 64 bytes of UTF-8 (64 Latin letters, 32 Cyrillic ones)" in text
    assert "64 characters" not in text
