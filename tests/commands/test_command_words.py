"""The CLI's own lines about bad input (an option's value it refuses, a file it cannot use) are
said in the language the command line asks for with --lang, from the catalogues' ``command.*``
entries; without --lang, and with --lang en, they are the English they always were. Still one
line, exit status 2, no traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from p2p_dominoes import cli
from p2p_dominoes.commands import rules, verify
from p2p_dominoes.commands.command_language import command_language, speaking_in
from p2p_dominoes.commands.export import record_json
from p2p_dominoes.words import line
from tests.commands.records import NAMES, match_hands, random_bytes

PRESETS = (
    "draw, draw-until-play, block, house, fives, threes, threes-luck, kozel, kozel-ceremonies, "
    "cross, telephone, trains"
)

SORTED = (
    "block, cross, draw, draw-until-play, fives, house, kozel, kozel-ceremonies, telephone, "
    "threes, threes-luck, trains"
)

CASES: list[tuple[list[str], str, str]] = [
    (
        ["host", "--port", "99999"],
        "p2p-dominoes host: аргумент --port: 99999 — не порт (0–65535; 0 — любой свободный порт) "
        "(подробнее: p2p-dominoes host --help)",
        "p2p-dominoes host: argument --port: 99999 is not a port (0–65535; 0 picks any free port) "
        "(see: p2p-dominoes host --help)",
    ),
    (
        ["host", "--bots", "7"],
        "p2p-dominoes host: аргумент --bots: 7 — не от 0 до 3 "
        "(подробнее: p2p-dominoes host --help)",
        "p2p-dominoes host: argument --bots: 7 is not 0–3 (see: p2p-dominoes host --help)",
    ),
    (
        ["simulate", "--hands", "abc"],
        "p2p-dominoes simulate: аргумент --hands: 'abc' — не целое число "
        "(подробнее: p2p-dominoes simulate --help)",
        "p2p-dominoes simulate: argument --hands: 'abc' is not a whole number "
        "(see: p2p-dominoes simulate --help)",
    ),
    (
        ["tables", "--timeout", "0"],
        "p2p-dominoes tables: аргумент --timeout: 0: нужно больше 0 и не больше 600 "
        "(подробнее: p2p-dominoes tables --help)",
        "p2p-dominoes tables: argument --timeout: 0 is not more than 0 and at most 600 "
        "(see: p2p-dominoes tables --help)",
    ),
    (
        ["join", "--connect", "nowhere"],
        "p2p-dominoes join: аргумент --connect: 'nowhere' — не HOST:PORT (например, "
        "192.168.1.20:47800 или [fd00::1]:47800) (подробнее: p2p-dominoes join --help)",
        "p2p-dominoes join: argument --connect: 'nowhere' is not HOST:PORT (for example "
        "192.168.1.20:47800 or [fd00::1]:47800) (see: p2p-dominoes join --help)",
    ),
    (
        ["host", "--name", ""],
        "p2p-dominoes host: аргумент --name: имя не может быть пустым "
        "(подробнее: p2p-dominoes host --help)",
        "p2p-dominoes host: argument --name: a name cannot be empty "
        "(see: p2p-dominoes host --help)",
    ),
    (
        ["play", "--next-hand-after", "x"],
        "p2p-dominoes play: аргумент --next-hand-after: не число секунд: 'x' "
        "(подробнее: p2p-dominoes play --help)",
        "p2p-dominoes play: argument --next-hand-after: not a number of seconds: 'x' "
        "(see: p2p-dominoes play --help)",
    ),
    (
        ["replay", "empty.bin"],
        "p2p-dominoes replay: empty.bin пуст; укажите запись партии (её пишет --record), "
        "table.log или папку стола",
        "p2p-dominoes replay: empty.bin is empty; give a transcript (as written by --record), "
        "a table.log, or a table's folder",
    ),
    (
        ["replay", "folder"],
        "p2p-dominoes replay: folder — папка, в которой нет table.log; укажите запись партии "
        "(её пишет --record), table.log или папку стола",
        "p2p-dominoes replay: folder is a folder with no table.log in it; give a transcript "
        "(as written by --record), a table.log, or a table's folder",
    ),
    (
        ["replay", "random.bin"],
        "p2p-dominoes replay: random.bin — не запись p2p-dominoes; укажите запись сдачи в JSON "
        "или запись партии (её пишет --record), table.log или папку стола",
        "p2p-dominoes replay: random.bin is not a p2p-dominoes record; give a JSON hand record, "
        "or a transcript (as written by --record), a table.log, or a table's folder",
    ),
    (
        ["replay", "--review", "4", "hand.json"],
        "p2p-dominoes replay: --review принимает место от 1 до 2, а не 4",
        "p2p-dominoes replay: --review takes a seat from 1 to 2, not 4",
    ),
    (
        ["replay", "--samples", "3", "hand.json"],
        "p2p-dominoes replay: --samples — только вместе с --review",
        "p2p-dominoes replay: --samples is for --review",
    ),
    (
        ["simulate", "--record", "x.p2pd"],
        "p2p-dominoes simulate: --record требует --secure (простая симуляция не ведёт записи "
        "партии)",
        "p2p-dominoes simulate: --record needs --secure (plain simulations keep no transcript)",
    ),
    (
        ["simulate", "--secure", "--hands", "100000"],
        "p2p-dominoes simulate: --secure играет не больше 10000 сдач (--hands)",
        "p2p-dominoes simulate: --secure plays at most 10000 hands (--hands)",
    ),
    (
        ["simulate", "--rules", "nosuch"],
        f"p2p-dominoes simulate: --rules: 'nosuch' — не готовый набор ({SORTED}), не файл правил "
        "и не набор, сохранённый на странице правил",
        f"p2p-dominoes simulate: --rules: 'nosuch' is neither a preset ({SORTED}), nor a rules "
        "file, nor a rule set saved on the rules page",
    ),
    (
        ["rules", "show", "nothing-here"],
        f"p2p-dominoes rules: nothing-here: нет такого набора или файла (наборы: {PRESETS}); "
        "укажите имя готового набора или файл правил (JSON)",
        f"p2p-dominoes rules: nothing-here: no such preset or file (presets: {PRESETS}); "
        "give a preset name or a rules file (JSON)",
    ),
]
"""A bad command line of each converted module, its Russian line and its English one. (No
command here gets past reading its command line or its input file: nothing listens or joins.)"""


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding the files the cases name."""
    folder = tmp_path_factory.mktemp("inputs")
    (folder / "empty.bin").write_bytes(b"")
    (folder / "folder").mkdir()
    random_bytes(folder / "random.bin")
    (folder / "hand.json").write_text(record_json(match_hands()[0].record, NAMES), "utf-8")
    return folder


def _run(folder: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    """`p2p-dominoes ARGV` in its own process, in `folder`, no input."""
    return subprocess.run(
        [sys.executable, "-m", "p2p_dominoes", *argv],
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
        cwd=folder,
        env={"PYTHONPATH": str(Path(__file__).resolve().parents[2]), "PATH": "/usr/bin:/bin"},
    )


def _with_lang(argv: list[str], lang: str) -> list[str]:
    """`argv` with ``--lang LANG`` after its command (and after `rules`'s `show`)."""
    at = 2 if argv[0] == "rules" else 1
    return [*argv[:at], "--lang", lang, *argv[at:]]


@pytest.mark.parametrize(("argv", "russian", "english"), CASES, ids=lambda v: str(v)[:40])
def test_a_bad_input_line_in_russian_and_in_english(
    argv: list[str], russian: str, english: str, inputs: Path
) -> None:
    for lang, said in (("ru", russian), ("en", english)):
        done = _run(inputs, *_with_lang(argv, lang))
        assert (done.returncode, done.stdout, done.stderr) == (2, "", said + "\n"), lang
    plain = _run(inputs, *argv)  # no --lang: English, byte for byte as before
    assert (plain.returncode, plain.stdout, plain.stderr) == (2, "", english + "\n")


def test_an_os_error_is_kept_as_the_system_says_it(inputs: Path) -> None:
    """The system's own words (strerror) stay as they are; the sentence around them is ours."""
    done = _run(inputs, "replay", "--lang", "ru", "missing.p2pd")
    assert (done.returncode, done.stderr) == (
        2,
        "p2p-dominoes replay: не удаётся прочитать missing.p2pd: No such file or directory\n",
    )


def test_the_language_is_the_command_lines_and_ends_with_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert command_language() == "en"
    assert cli.main(["simulate", "--lang", "ru", "--record", "x.p2pd"]) == cli.EXIT_USAGE
    assert "--record требует --secure" in capsys.readouterr().err
    assert command_language() == "en"  # a later call in the same process speaks English
    with speaking_in("de"):  # a language we do not have is English
        assert command_language() == "en"
    with speaking_in("ru"):
        assert command_language() == "ru"
    assert command_language() == "en"


def test_what_the_commands_read_is_said_as_their_help_says_it() -> None:
    """--help stays English (argparse_words.py); the catalogue's English of the same words
    must match it, so that a line and the help name the same things."""
    assert line("command.verify.what_is_read", "en") == verify.WHAT_IS_READ
    assert line("command.rules.what_is_read", "en") == rules.WHAT_IS_READ


def test_an_os_error_is_one_sentence_in_the_command_lines_language() -> None:
    """The sentence for an OS error says what to do in the language of --lang; the path comes
    first, as the system gave it, and an error with no sentence of its own is the system's."""
    import errno

    from p2p_dominoes.commands.exits import os_error_text

    busy = OSError(errno.EADDRINUSE, "Address already in use")
    missing = FileNotFoundError(errno.ENOENT, "No such file or directory", "/no/such/file")
    odd = OSError(errno.EXDEV, "Invalid cross-device link", "/a")
    assert os_error_text(busy) == (
        "that port is already in use: choose another --port (0 picks any free port)"
    )
    assert os_error_text(missing) == "/no/such/file: no such file or folder: check the path"
    with speaking_in("ru"):
        assert (
            os_error_text(busy)
            == "этот порт уже занят: выберите другой --port (0 — любой свободный)"
        )
        assert os_error_text(missing) == "/no/such/file: нет такого файла или папки: проверьте путь"
        assert os_error_text(odd) == "/a: Invalid cross-device link"


def test_an_unforeseen_error_is_one_line_in_the_command_lines_language(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A bug that reaches the top is one line (exit 70) in the language of --lang."""
    from p2p_dominoes.commands import simulate

    def broken(args: object) -> int:
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(simulate, "run", broken)
    monkeypatch.delenv("P2P_DOMINOES_TRACEBACK", raising=False)
    for lang, expected in (
        ("en", "unexpected error (ZeroDivisionError: division by zero); this is a bug"),
        ("ru", "непредвиденная ошибка (ZeroDivisionError: division by zero); это ошибка программы"),
    ):
        status = cli.main(["simulate", "--lang", lang])
        said = capsys.readouterr().err
        assert status == 70 and expected in said and said.count("\n") == 1, said
