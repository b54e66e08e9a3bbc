"""Property: whatever the arguments, every subcommand answers with a documented exit status and
never a traceback.

The CLI's real `main` parses and validates in this process; where the work would start (a peer's
`trio.run`, the demo's host process, the games, the benchmarks) a stand-in returns at once, so
that every argument string reaches all the checks that run before the work. `verify` and
`replay` run for real on the (missing or scratch) files they are given.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from p2p_dominoes import cli
from p2p_dominoes.cli import EXIT_CODES

SUBCOMMANDS = [
    ["play"],
    ["host"],
    ["join"],
    ["tables"],
    ["resume"],
    ["demo"],
    ["simulate"],
    ["replay"],
    ["verify"],
    ["rules", "list"],
    ["rules", "show"],
    ["rules", "check"],
    ["rules", "page"],
    ["bench", "engine"],
    ["bench", "crypto"],
    ["bench", "session"],
    ["bench", "lan"],
    ["bench", "bots"],
    [],
]


def _options_of(words: list[str]) -> list[str]:
    """The options of one subcommand (or of the program), read from the parser itself."""
    parser = cli._build_parser()
    for word in words:
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        parser = sub.choices[word]
    found = {o for action in parser._actions for o in action.option_strings}
    return sorted(found - {"-h", "--help"})


OPTIONS = {tuple(words): _options_of(words) for words in SUBCOMMANDS}
VALUES = [
    "0",
    "1",
    "2",
    "4",
    "-1",
    "65535",
    "65536",
    "99999999999999999999",
    "3.5",
    "nan",
    "inf",
    "",
    " ",
    "127.0.0.1",
    "::1",
    "192.0.2.77",
    "notanip",
    "127.0.0.1:9",
    "[::1]:0",
    "host:",
    "draw",
    "block",
    "house",
    "random",
    "greedy",
    "alphabeta",
    "en",
    "ru",
    "text",
    "none",
    "Ann's table",
    "a\x1b[31mb",
    "\u202eevil",
    "\udcff",
    "Я" * 40,
    "x" * 200,
    "scratch/out.p2pd",
    "scratch",
    "missing/dir/out.p2pd",
    "scratch/file.txt",
]
_SAFE_TEXT = st.text(max_size=12).filter(lambda t: not t.startswith(("/", "~", "..")))
EVERY_OPTION = sorted({o for options in OPTIONS.values() for o in options})
TOKENS = st.one_of(
    st.sampled_from(EVERY_OPTION),
    st.sampled_from(VALUES),
    st.integers(-(2**70), 2**70).map(str),
    _SAFE_TEXT,
)


@st.composite
def command_lines(draw: st.DrawFn) -> list[str]:
    """A subcommand and words for it: its own options with plausible values (mostly), any
    option, a lone value or random text."""
    words = draw(st.sampled_from(SUBCOMMANDS))
    own = OPTIONS[tuple(words)]
    group = st.one_of(
        st.tuples(st.sampled_from(own), st.sampled_from(VALUES)).map(list),
        st.sampled_from(own).map(lambda option: [option]),
        TOKENS.map(lambda token: [token]),
    )
    groups = draw(st.lists(group, max_size=6))
    return [*words, *(token for g in groups for token in g)]


@contextlib.contextmanager
def _stand_ins(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Replace the work every command would start with something that returns at once."""
    import trio

    from p2p_dominoes.benchmarks import alphabeta, bots, crypto, engine, lan, session
    from p2p_dominoes.commands import demo, simulate
    from p2p_dominoes.simulation import simulate as real_simulate

    def no_run(function: Any, *args: Any, **kwargs: Any) -> int:
        return 0

    def one_hand(rules: Any, players: int, bots: Any, names: Any, seed: int, *rest: Any) -> Any:
        return real_simulate(rules, players, bots, names, seed, 1, None)

    monkeypatch.setattr(trio, "run", no_run)
    monkeypatch.setattr(demo, "_run_demo_host", lambda command, record, data, back: 1)
    monkeypatch.setattr(simulate, "simulate", one_hand)
    monkeypatch.setattr(simulate, "run_secure", lambda *args: 0)
    monkeypatch.setattr(engine, "run_engine_bench", lambda **kw: 0)
    monkeypatch.setattr(crypto, "run_crypto_bench", lambda **kw: 0)
    monkeypatch.setattr(session, "run_session_bench", lambda **kw: 0)
    monkeypatch.setattr(lan, "run_lan_bench", lambda **kw: 0)
    monkeypatch.setattr(bots, "run_bots_bench", lambda *args, **kw: 0)
    monkeypatch.setattr(alphabeta, "run_alphabeta_bench", lambda *args, **kw: 0)
    yield


def _run(argv: list[str]) -> tuple[int, str]:
    err = io.StringIO()
    out = io.StringIO()
    stdin = sys.stdin
    sys.stdin = io.StringIO("")
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
            try:
                status = cli.main(argv)
            except SystemExit as exc:  # argparse: --help, --version, usage errors
                status = exc.code if isinstance(exc.code, int) else 2
    finally:
        sys.stdin = stdin
    return status, err.getvalue()


@pytest.fixture
def scratch(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path_factory.mktemp("cli-property")
    (home / "scratch").mkdir()
    (home / "scratch" / "file.txt").write_text("not a record\n")
    monkeypatch.chdir(home)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("P2P_DOMINOES_DATA_DIR", str(home / "data"))
    monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)
    monkeypatch.delenv("P2P_DOMINOES_TRACEBACK", raising=False)
    return home


@settings(
    max_examples=int(os.environ.get("CLI_PROPERTY_EXAMPLES", "600")),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(argv=command_lines())
def test_no_argument_string_reaches_the_user_as_a_traceback(
    argv: list[str], scratch: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with _stand_ins(monkeypatch):
        status, err = _run(argv)
    assert "Traceback" not in err, err
    assert "unexpected error" not in err, err
    assert status in EXIT_CODES, (status, err)
    if status == 2:
        lines = [line for line in err.splitlines() if line.strip()]
        assert lines and lines[-1].startswith("p2p-dominoes"), err
    assert os.getcwd() == str(scratch)
