"""A peer asked to (`P2P_DOMINOES_TASK_DUMP=1`) prints where each of its trio tasks waits on
SIGUSR1, and goes on: the diagnosis the chaos tests take from a peer that does not stop."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from tests.chaos.peers import wait_until


def test_a_host_prints_its_task_tree_on_sigusr1_and_keeps_running(tmp_path: Path) -> None:
    out = tmp_path / "host.out"
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "P2P_DOMINOES_TASK_DUMP": "1"}
    argv = [sys.executable, "-m", "p2p_dominoes", "host", "--ui", "none", "--no-mdns"]
    argv += ["--interface", "127.0.0.1", "--port", "0", "--data-dir", str(tmp_path / "data")]
    with out.open("wb") as sink:
        host = subprocess.Popen(argv, stdout=sink, stderr=subprocess.STDOUT, env=env)
    try:
        assert wait_until(lambda: "is open on port" in out.read_text(), 60), out.read_text()
        host.send_signal(signal.SIGUSR1)
        assert wait_until(lambda: "trio tasks of pid" in out.read_text(), 20), out.read_text()
        dump = out.read_text().split("trio tasks of pid", 1)[1]
        assert "task " in dump and "host_table" in dump, dump
        assert host.poll() is None  # it goes on
    finally:
        host.send_signal(signal.SIGINT)
        assert host.wait(30) == 130, out.read_text()
