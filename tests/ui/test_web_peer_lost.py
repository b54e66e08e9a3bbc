"""The page knows at once when its own peer is gone: stopped on purpose (Ctrl+C, SIGTERM) it is
told "stopping" and its socket closes cleanly (1001); killed, the socket just drops."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from tests.ui.web_peers import PlayProcess


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_stopped_peer_says_so_before_its_socket_closes(tmp_path: Path, signum: int) -> None:
    ann = PlayProcess("Ann", tmp_path / "ann")
    try:
        page = ann.page()
        page.wait_for(lambda p: p.lobby)
        os.kill(ann.process.pid, signum)  # to `play` alone, as a terminal's Ctrl+C or systemd
        page.wait_for(lambda p: p.closed)
        assert page.messages[-1] == {"type": "stopping"}
        assert page.socket.closed == 1001
        assert ann.process.wait(10) == 0
    finally:
        ann.stop()


def test_a_killed_peer_drops_the_socket_without_a_word(tmp_path: Path) -> None:
    ann = PlayProcess("Ann", tmp_path / "ann")
    try:
        page = ann.page()
        page.wait_for(lambda p: p.lobby)
        ann.kill()
        page.wait_for(lambda p: p.closed)
        assert {"type": "stopping"} not in page.messages
        assert page.socket.closed != 1001
    finally:
        ann.stop()
