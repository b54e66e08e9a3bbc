"""Attacks on `play`'s own page by other programs and other users of this machine.

Each test starts a real `p2p-dominoes play --no-browser --no-mdns --interface 127.0.0.1`
process (only loopback is used) and attacks its page from outside:

- bad links: non-ASCII, overlong, missing, repeated tokens (400), a wrong or spent one (403,
  "open elsewhere"), malformed cookies (403); never a 500;
- bad page commands over a real WebSocket: the command that used to crash `play`
  (`{"type": "host", "rules": []}`), arbitrary JSON from Hypothesis, deep nesting, overlong
  and binary frames; each gets a `refused` message or closes that socket only;
- the token read from another user's view of the process list: `play` opens the "browser"
  (BROWSER= a script that records its argv and stays alive), and a process running as uid
  65534 reads every /proc/*/cmdline and environ it can: the token is in none of them, and the
  redirect file that carries it cannot be read by that user.

After each, `play` is still running, has printed no traceback, and serves its page.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from p2p_dominoes.ui.web import cookie_name
from tests.net.hostile.figures import Attacks
from tests.ports import unallocated_port
from tests.ui.page_client import Login, PageSocket, http_get, page_key, session_cookie

LINK = re.compile(r"open (http://127\.0\.0\.1:(\d+)/\?token=([A-Za-z0-9_-]+))")
FILE = re.compile(r"\(or open the file (file://\S+)\)")
NOBODY = 65534
AS_NOBODY = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]


class Play:
    """A real `play` process; its page's port, its first link's token, its redirect file."""

    def __init__(self, data: Path, env: dict[str, str] | None = None, browser: bool = False):
        argv = [sys.executable, "-m", "p2p_dominoes", "play", "--no-mdns"]
        argv += ["--interface", "127.0.0.1", "--lan-port", str(unallocated_port())]
        argv += ["--data-dir", str(data), "--name", "Ann"]
        if not browser:
            argv.append("--no-browser")
        self.process = subprocess.Popen(
            argv,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        assert self.process.stdout is not None
        first = self.process.stdout.readline()
        found = LINK.search(first)
        assert found, first + self.stderr()
        self.link, self.port, self.token = found.group(1), int(found.group(2)), found.group(3)
        second = self.process.stdout.readline()
        file = FILE.search(second)
        assert file, second
        self.file = Path(file.group(1).removeprefix("file://"))

    def alive(self) -> bool:
        return self.process.poll() is None

    def stderr(self) -> str:
        if self.alive():
            return ""
        assert self.process.stderr is not None
        return self.process.stderr.read()

    def stop(self) -> str:
        """SIGTERM; the process exits 0 and removes its redirect file. Returns its stderr."""
        if self.alive():
            self.process.send_signal(signal.SIGTERM)
        assert self.process.wait(15) == 0
        assert self.process.stderr is not None
        return self.process.stderr.read()


@pytest.fixture
def play(tmp_path: Path) -> Iterator[Play]:
    peer = Play(tmp_path / "data")
    yield peer
    if peer.alive():
        peer.process.kill()
        peer.process.wait(10)


def serves_its_page(peer: Play, login: Login) -> bool:
    """The page still answers: the HTML with the cookie, and a socket that gets the state."""
    if http_get(peer.port, "/", cookie=login.cookie).status != 200:
        return False
    with PageSocket(
        peer.port, cookie=login.cookie, key=login.key, tab="check", takeover=True
    ) as sock:
        return sock.receive_until("state")["type"] == "state"


def test_bad_links_and_cookies_get_400_or_403_from_a_real_play(
    play: Play, attacks: Attacks
) -> None:
    malformed = ["%C3%A9" * 8, "%FF", "a" * 129, "a" * 3000, "", "a&token=b", "a%00", "a%"]
    statuses = {}
    for token in malformed:
        reply = http_get(play.port, f"/?token={token}")
        statuses[token[:12]] = reply.status
        assert reply.status == 400 and "malformed" in reply.body, (token, reply)
    raw = http_get(play.port, "/?token=\u00e9")  # raw UTF-8 in the request line
    assert raw.status == 400
    wrong = http_get(play.port, "/?token=" + "A" * 43)
    assert wrong.status == 403 and 'data-screen="elsewhere"' in wrong.body

    entered = http_get(play.port, f"/?token={play.token}")
    assert entered.status == 200
    login = Login(session_cookie(entered), page_key(entered))
    spent = http_get(play.port, f"/?token={play.token}")
    assert spent.status == 403 and 'data-screen="elsewhere"' in spent.body
    name = cookie_name(play.port)
    for bad in [f"{name}=\u00e9", f"{name}=" + "b" * 4000, f"{name}=", "=;=;;", f"{name}=x"]:
        assert http_get(play.port, "/", cookie=bad).status == 403, bad
        with PageSocket(play.port, cookie=bad, key=login.key) as sock:
            assert sock.status == 403, bad
    with PageSocket(play.port, cookie=login.cookie, key=None) as sock:  # the cookie alone
        assert sock.status == 403
    odd = ["/static/%00", "/static/..%2f..%2fapp.py", "/static/" + "a" * 5000, "/%ff", "/ws", "//"]
    for target in odd:
        assert http_get(play.port, target, cookie=login.cookie).status in (400, 404), target
    for method in ("OPTIONS", "PUT", "DELETE", "BREW"):
        assert http_get(play.port, "/", method=method).status == 403, method
    assert play.alive() and serves_its_page(play, login)
    errors = play.stop()
    assert "Traceback" not in errors, errors
    attacks.tried(
        "bad page token",
        survived=True,
        detail=f"{len(malformed) + 1} malformed links → 400, wrong and spent links → 403, "
        "5 malformed cookies → 403 (page and socket), the cookie without the socket key → 403, "
        "odd paths and methods → 4xx; no 500, no traceback",
    )


scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=False)
    | st.text(max_size=30)
)
json_values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=10,
)
KINDS = ["host", "join", "play", "draw", "pass", "record", "lobby", "rematch"]
FIELDS = ["table", "rules", "players", "bots", "hands", "address", "fingerprint", "tile", "end"]
commands = st.fixed_dictionaries(
    {"type": st.sampled_from(KINDS) | json_values},
    optional={name: json_values for name in FIELDS},
)


def test_bad_page_commands_never_crash_a_real_play(play: Play, attacks: Attacks) -> None:
    entered = http_get(play.port, f"/?token={play.token}")
    login = Login(session_cookie(entered), page_key(entered))
    sock = PageSocket(play.port, cookie=login.cookie, key=login.key, tab="attacker")
    assert sock.receive_until("state")

    # The command that crashed `play`, and its kin.
    for command in [
        {"type": "host", "rules": [], "players": 2},
        {"type": "host", "rules": {"a": 1}, "players": 2},
        {"type": "host", "table": [1], "players": 2},
        {"type": "join", "address": ["127.0.0.1:1"]},
        {"type": "join", "address": "a\u0000b:1"},
        {"type": "join", "address": "127.0.0.1:1", "fingerprint": {}},
        {"type": {"x": 1}},
        {"type": "no such thing"},
    ]:
        sock.send_json(command)
        assert sock.receive_until("refused")["text"], command
    refused = 8

    # Frames that are not commands at all.
    for text in [
        "[" * 3000 + "]" * 3000,
        "{" * 2000,
        "1" * 4000,
        "not json",
        "[]",
        '"x"',
        "x" * 5000,
    ]:
        sock.send_text(text)
        assert sock.receive_until("refused")["text"], text[:20]
        refused += 1
    sock.send_bytes(b"\x00\xff binary")
    assert sock.receive_until("refused")["text"]
    sock.send_text("x" * 70_000)  # over the socket's message limit: that socket closes
    while sock.receive() is not None:
        pass
    sock.close()
    assert play.alive()

    # Arbitrary JSON from Hypothesis over a fresh socket (a real table may start: fine).
    sent = {"count": 0}
    fuzz = PageSocket(play.port, cookie=login.cookie, key=login.key, tab="fuzz", takeover=True)
    assert fuzz.receive_until("state")

    @settings(max_examples=250, deadline=None, suppress_health_check=list(HealthCheck))
    @given(commands | json_values)
    def throw(value: Any) -> None:
        fuzz.send_text(json.dumps(value))
        sent["count"] += 1

    throw()
    fuzz.close()
    time.sleep(1)  # let `play` work through the queue
    assert play.alive(), play.stderr()
    assert serves_its_page(play, login)
    errors = play.stop()
    assert "Traceback" not in errors, errors
    attacks.tried(
        "bad page command",
        survived=True,
        detail=f"{refused + 1} malformed commands refused one by one, a 70 kB frame closed its "
        f"socket only, {sent['count']} Hypothesis JSON values; play still serving, no traceback",
    )


SCANNER = r"""
import json, os, sys
found = {"uid": os.getuid(), "cmdlines": {}, "environs": {}, "unreadable": 0}
for pid in os.listdir("/proc"):
    if not pid.isdigit():
        continue
    for kind in ("cmdline", "environ"):
        try:
            with open(f"/proc/{pid}/{kind}", "rb") as f:
                found[kind + "s"][pid] = f.read().hex()
        except OSError:
            found["unreadable"] += 1
redirect = sys.argv[1]
for what, path in (("file", redirect), ("directory", os.path.dirname(redirect))):
    try:
        if what == "file":
            with open(path, "rb") as f:
                found[what] = f.read().hex()
        else:
            found[what] = os.listdir(path)
    except OSError as exc:
        found[what] = type(exc).__name__
print(json.dumps(found))
"""

BROWSER_SCRIPT = """#!/bin/sh
# A stand-in browser: records its arguments and pid, then stays alive like a real one.
printf '%s\\n' "$$" "$@" > "{record}"
while :; do sleep 1; done
"""


def test_the_page_token_is_not_in_another_users_view_of_the_process_list(
    tmp_path: Path, attacks: Attacks
) -> None:
    # XDG_RUNTIME_DIR in a directory that other users may enter: only the program's own 0700
    # sub-directory and the file's 0600 mode keep them out.
    shared = Path(tempfile.mkdtemp(prefix="p2pd-runtime-", dir="/tmp"))
    shared.chmod(0o755)
    record = shared / "browser-argv"
    browser = shared / "browser.sh"
    browser.write_text(BROWSER_SCRIPT.format(record=record))
    browser.chmod(0o755)
    env = dict(os.environ, XDG_RUNTIME_DIR=str(shared), BROWSER=str(browser))
    peer = Play(tmp_path / "data", env=env, browser=True)
    browser_pid = 0
    try:
        deadline = time.monotonic() + 20
        while not (record.exists() and len(record.read_text().splitlines()) >= 2):
            assert time.monotonic() < deadline, "the browser was not started"
            time.sleep(0.1)
        browser_pid, *argv = record.read_text().splitlines()
        file_url = peer.file.as_uri()
        assert argv == [file_url]  # the browser got the file, not the link
        assert peer.file.parent == shared / "p2p-dominoes"
        assert stat.S_IMODE(peer.file.stat().st_mode) == 0o600
        assert stat.S_IMODE(peer.file.parent.stat().st_mode) == 0o700
        assert peer.token in peer.file.read_text()  # the file does carry it (to this user)

        scan = subprocess.run(
            [*AS_NOBODY, "/usr/bin/python3", "-I", "-c", SCANNER, str(peer.file)],
            capture_output=True,
            text=True,
            timeout=60,
            cwd="/",
        )
        assert scan.returncode == 0, scan.stderr
        found = json.loads(scan.stdout)
        assert found["uid"] == NOBODY
        token = peer.token.encode()
        texts = {
            kind: {pid: bytes.fromhex(data) for pid, data in found[kind].items()}
            for kind in ("cmdlines", "environs")
        }
        leaks = [
            (kind, pid)
            for kind, seen in texts.items()
            for pid, data in seen.items()
            if token in data
        ]
        assert not leaks, leaks
        # The scan did see our processes: play's command line and the browser's (with the
        # redirect file's path, which is no secret).
        assert b"p2p_dominoes\x00play" in texts["cmdlines"][str(peer.process.pid)]
        assert file_url.encode() in texts["cmdlines"][browser_pid]
        assert str(peer.process.pid) not in texts["environs"]  # another user's: unreadable
        assert found["file"] == "PermissionError", found["file"]
        assert found["directory"] == "PermissionError", found["directory"]
        assert peer.alive()
    finally:
        if browser_pid:
            os.kill(int(browser_pid), signal.SIGKILL)
        errors = peer.stop()
        removed = not peer.file.exists()
        shutil.rmtree(shared, ignore_errors=True)
    assert removed  # play removes its redirect file when it ends
    assert "Traceback" not in errors, errors
    attacks.tried(
        "page token from another user's view of the process list",
        survived=True,
        detail=f"uid {NOBODY} read {len(texts['cmdlines'])} command lines and "
        f"{len(texts['environs'])} environments: token in none; redirect file and its "
        "directory unreadable to it; the browser's argv was only the file:// path",
    )
