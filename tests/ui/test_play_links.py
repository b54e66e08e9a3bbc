"""`play`'s way into the page: the runtime directory, the 0600 redirect file, and a fresh
one-time link on Enter (for a browser that lost its cookie)."""

from __future__ import annotations

import os
import re
import signal
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from p2p_dominoes.store import runtime_dir
from p2p_dominoes.ui.web import remove_redirect_file, write_redirect_file
from tests.ui.page_client import PageSocket, http_get, log_in

LINK = re.compile(r"open (http://127\.0\.0\.1:(\d+)/\?token=([A-Za-z0-9_-]+))")
NEW_LINK = re.compile(
    r"A new link \(it works once\): http://127\.0\.0\.1:\d+/\?token=([A-Za-z0-9_-]+)"
)


def test_the_runtime_directory_is_xdg_runtime_dir_else_the_data_directory(tmp_path: Path) -> None:
    data = tmp_path / "data"
    assert runtime_dir(data, {"XDG_RUNTIME_DIR": str(tmp_path)}) == tmp_path / "p2p-dominoes"
    assert runtime_dir(data, {}) == data / "run"
    assert runtime_dir(data, {"XDG_RUNTIME_DIR": "relative"}) == data / "run"
    assert runtime_dir(data, {"XDG_RUNTIME_DIR": str(tmp_path / "absent")}) == data / "run"


def test_the_redirect_file_is_private_and_redirects(tmp_path: Path) -> None:
    directory = tmp_path / "run"
    directory.mkdir(mode=0o755)
    directory.chmod(0o755)
    url = 'http://127.0.0.1:5000/?token=abc"<x>'
    path = write_redirect_file(directory, 5000, url)
    assert path == directory / "play-5000.html"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(directory.stat().st_mode) == 0o700  # made private
    text = path.read_text()
    assert (
        'http-equiv="refresh" content="0;url=http://127.0.0.1:5000/?token=abc&quot;&lt;x&gt;"'
        in text
    )
    assert "<x>" not in text
    again = write_redirect_file(directory, 5000, "http://127.0.0.1:5000/?token=new")
    assert again == path and "token=new" in path.read_text()
    assert [p.name for p in directory.iterdir()] == ["play-5000.html"]  # no temporary left
    remove_redirect_file(path)
    assert not path.exists()
    remove_redirect_file(path)  # already gone: fine

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    link = tmp_path / "link"
    link.symlink_to(elsewhere)
    with pytest.raises(OSError, match="not a directory"):
        write_redirect_file(link, 5000, url)


def test_enter_in_plays_window_prints_a_new_link_that_ends_the_old_session(
    tmp_path: Path,
) -> None:
    env = dict(os.environ)
    env.pop("XDG_RUNTIME_DIR", None)
    argv = [sys.executable, "-m", "p2p_dominoes", "play", "--no-browser", "--no-mdns"]
    argv += ["--interface", "127.0.0.1", "--lan-port", "0", "--data-dir", str(tmp_path / "d")]
    process = subprocess.Popen(
        argv,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert process.stdin is not None and process.stdout is not None
    try:
        found = LINK.search(process.stdout.readline())
        assert found
        port, first = int(found.group(2)), found.group(3)
        redirect = tmp_path / "d" / "run" / f"play-{port}.html"
        assert first in redirect.read_text()
        old = log_in(port, first)

        process.stdin.write("\n")
        process.stdin.flush()
        line = ""
        while not (fresh := NEW_LINK.search(line)):
            line = process.stdout.readline()
            assert line, "play ended"
        token = fresh.group(1)
        assert token != first and token in redirect.read_text()
        # The old session goes on until the new link is used...
        with PageSocket(port, cookie=old.cookie, key=old.key) as sock:
            assert sock.receive_until("state")
        new = log_in(port, token)
        # ...then it is over, and the new one works.
        assert http_get(port, "/", cookie=old.cookie).status == 403
        with PageSocket(port, cookie=old.cookie, key=old.key) as sock:
            assert sock.status == 403
        with PageSocket(port, cookie=new.cookie, key=new.key) as sock:
            assert sock.receive_until("state")
        assert http_get(port, f"/?token={token}").status == 403  # spent too
    finally:
        process.send_signal(signal.SIGTERM)
        assert process.wait(15) == 0
    assert process.stderr is not None
    assert "Traceback" not in process.stderr.read()
    assert not redirect.exists()  # removed when play ends
