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
