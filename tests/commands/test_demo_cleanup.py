"""`demo` without `--record` keeps nothing: its temporary folder (transcript and table logs)
goes however the demo ends, finished, failed or interrupted."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from p2p_dominoes import cli
from p2p_dominoes.cli import Interrupted
from p2p_dominoes.commands import demo
from tests.net.netns import REPO_ROOT


def test_a_finished_demo_leaves_no_temporary_folder(tmp_path: Path) -> None:
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    env = {**os.environ, "TMPDIR": str(scratch), "P2P_DOMINOES_DATA_DIR": str(tmp_path / "d")}
    out = subprocess.run(
        [sys.executable, "-m", "p2p_dominoes", "demo", "--players", "2"],
        capture_output=True,
        text=True,
        timeout=240,
        env=env,
        cwd=REPO_ROOT,
        stdin=subprocess.DEVNULL,
    )
    assert out.returncode == 0, out.stderr
    assert "verify: clean — " in out.stdout, out.stdout  # no file named that is gone
    assert str(scratch) not in out.stdout
    assert list(scratch.iterdir()) == []


@pytest.mark.parametrize(
    ("ending", "status", "said"),
    [
        ("interrupted", cli.EXIT_INTERRUPTED, "p2p-dominoes demo: interrupted; a demo without "
         "--record keeps nothing (--record FILE keeps its transcript)"),
        ("stopped", cli.EXIT_UNVERIFIED, "the demo table stopped with status 3; a demo without "
         "--record keeps nothing (--record FILE keeps its transcript)"),
    ],
)  # fmt: skip
def test_a_demo_that_does_not_finish_leaves_no_temporary_folder_either(
    ending: str,
    status: int,
    said: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.setenv("P2P_DOMINOES_DATA_DIR", str(tmp_path / "d"))
    made: list[Path] = []

    def host(command: list[str], record: Path, data: Path, come_back: str) -> int:
        made.append(record)
        record.write_bytes(b"half a transcript")  # what the host wrote before it stopped
        if ending == "interrupted":  # Ctrl+C, after the host stopped (as _run_demo_host does)
            raise Interrupted(f"interrupted; the record so far is in {record}; {come_back}")
        return 3

    monkeypatch.setattr(demo, "_run_demo_host", host)
    assert cli.main(["demo", "--players", "2"]) == status
    assert made and made[0].parent.parent == tmp_path  # it did use a folder in TMPDIR
    assert said in capsys.readouterr().err
    assert [p.name for p in tmp_path.iterdir()] == []


RUSSIAN_ENDINGS = {
    "interrupted": "p2p-dominoes demo: прервано; демо без --record ничего не сохраняет (с --record "
    "FILE сохранится запись партии)",
    "stopped": "стол демо остановился с кодом 3; демо без --record ничего не сохраняет (с --record "
    "FILE сохранится запись партии)",
}


@pytest.mark.parametrize("ending", ["interrupted", "stopped"])
def test_a_demo_that_does_not_finish_says_so_in_russian(
    ending: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.setenv("P2P_DOMINOES_DATA_DIR", str(tmp_path / "d"))

    def host(command: list[str], record: Path, data: Path, come_back: str) -> int:
        if ending == "interrupted":
            raise Interrupted(f"interrupted; {come_back}")
        return 3

    monkeypatch.setattr(demo, "_run_demo_host", host)
    cli.main(["demo", "--players", "3", "--lang", "ru"])
    out = capsys.readouterr()
    assert out.out.splitlines()[0] == "Запускаются 3 узла-бота на 127.0.0.1 …"
    assert RUSSIAN_ENDINGS[ending] in out.err
    assert [p.name for p in tmp_path.iterdir()] == []


@pytest.mark.parametrize(
    ("lang", "starting", "kept", "clean"),
    [
        ("en", "Starting 2 bot peers on 127.0.0.1 …", "(their table logs are kept in {data} until "
         "the record verifies)", "verify {record}: clean — "),
        ("ru", "Запускаются 2 узла-бота на 127.0.0.1 …", "(их журналы стола хранятся в {data}, "
         "пока запись партии не пройдёт проверку)", "verify {record}: всё сходится — "),
    ],
)  # fmt: skip
def test_a_demo_with_a_record_says_where_its_logs_are_in_its_language(
    lang: str, starting: str, kept: str, clean: str, tmp_path: Path
) -> None:
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    record = tmp_path / "demo.p2pd"
    env = {**os.environ, "TMPDIR": str(scratch), "P2P_DOMINOES_DATA_DIR": str(tmp_path / "d")}
    demo_command = ["demo", "--players", "2", "--record", str(record), "--lang", lang]
    out = subprocess.run(
        [sys.executable, "-m", "p2p_dominoes", *demo_command],
        capture_output=True,
        text=True,
        timeout=240,
        env=env,
        cwd=REPO_ROOT,
        stdin=subprocess.DEVNULL,
    )
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    before, after = kept.split("{data}")
    assert lines[0] == starting
    assert lines[1].startswith(f"{before}{scratch}") and lines[1].endswith(after), lines[1]
    assert lines[-1].startswith(clean.format(record=record)), lines[-1]
    assert list(scratch.iterdir()) == []  # the logs go once the record verifies
