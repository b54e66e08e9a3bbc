"""`play` where tables on the LAN cannot be looked for says so in its window, as `host` and
`tables` do: what cannot be done here and how to join by address instead.

The peer runs in a fresh ``unshare -n`` namespace with only loopback, so it has no LAN address
for mDNS and nothing it sends can leave the namespace.
"""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.net.netns import REPO_ROOT, namespace_support, unshare_argv

pytestmark = pytest.mark.skipif(namespace_support() is not None, reason=str(namespace_support()))


def _lines(stream: object, into: queue.Queue[str | None]) -> None:
    for line in stream:  # type: ignore[attr-defined]
        into.put(line)
    into.put(None)


@pytest.mark.netns
@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "Tables on the local network cannot be found here (no LAN IPv4 address"),
        ("ru", "Столы в локальной сети здесь не найти (no LAN IPv4 address"),
    ],
)
def test_play_without_multicast_says_tables_cannot_be_found_and_how_to_join(
    tmp_path: Path, lang: str, words: str
) -> None:
    argv = [sys.executable, "-m", "p2p_dominoes", "play", "--no-browser", "--lang", lang]
    argv += ["--lan-port", "0", "--data-dir", str(tmp_path / "data")]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    env.pop("XDG_RUNTIME_DIR", None)
    process = subprocess.Popen(
        unshare_argv(argv),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=REPO_ROOT,
    )
    lines: queue.Queue[str | None] = queue.Queue()
    reader = threading.Thread(target=_lines, args=(process.stdout, lines), daemon=True)
    reader.start()
    seen: list[str] = []
    try:
        deadline = time.monotonic() + 60
        while not any(words in line for line in seen):
            line = lines.get(timeout=max(0.1, deadline - time.monotonic()))
            assert line is not None, f"play ended: {''.join(seen)}"
            seen.append(line)
    finally:
        process.send_signal(signal.SIGTERM)  # how a window is closed; play ends with 0
        status = process.wait(30)
        reader.join(10)
    said = next(line for line in seen if words in line).strip()
    if lang == "en":
        assert said.endswith(
            "To join one, ask its host for the address (their screen shows it) and enter it "
            "under Join by address on the page."
        ), said
    else:
        assert said.endswith("и введите его в «Присоединиться по адресу» на странице."), said
    assert status == 0
    assert process.stderr is not None and "Traceback" not in process.stderr.read()
