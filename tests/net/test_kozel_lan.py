"""Kozel over the LAN: four bot peers in four processes play over real TCP (in a network
namespace with only loopback), the pairs' scores are said by the pairs' names, and the record
verifies to the same two totals."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from p2p_dominoes.session.verify import verify_transcript
from tests.net.netns import REPO_ROOT, python_argv, unshare_argv


@pytest.mark.netns
def test_four_processes_play_kozel_with_the_ceremonies_and_the_record_verifies(
    tmp_path: Path,
) -> None:
    record = tmp_path / "kozel.p2pd"
    argv = python_argv(
        "p2p_dominoes", "demo", "--players", "4", "--rules", "kozel-ceremonies", "--hands", "2",
        "--record", str(record),
    )  # fmt: skip
    out = subprocess.run(
        unshare_argv(argv),
        capture_output=True,
        text=True,
        timeout=600,
        cwd=REPO_ROOT,
        env={**os.environ, "HOME": str(tmp_path)},
    )
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-2000:]
    assert "bot-0 & bot-2" in out.stdout and "bot-1 & bot-3" in out.stdout
    assert "leads and must lead [1|1]" in out.stdout
    found = re.search(
        r"verify \S+: clean — .*scores bot-0 & bot-2 (\d+), bot-1 & bot-3 (\d+)", out.stdout
    )
    assert found, out.stdout[-3000:]
    report = verify_transcript(record.read_bytes())
    assert report.ok and report.hands == 2
    assert report.scores == (int(found.group(1)), int(found.group(2)))
