"""Runs the real-browser tests (tests/ui/browser) in a network namespace that has only loopback.

Chromium phones home unless tamed; in a namespace with nothing but `lo` it can reach nothing but
the peers of the test, whatever it tries. The browser suite is an ordinary pytest run inside.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"


EPHEMERAL_PORTS = "50000 60999"
"""The namespace's range of ephemeral ports: above every fixed port the browser tests use."""


@pytest.mark.slow
def test_the_web_ui_in_a_real_browser_in_a_loopback_only_namespace() -> None:
    assert Path(CHROMIUM).exists(), (
        "the browser tests need Debian's chromium: apt-get install chromium "
        "(CI's .ci/run installs it)"
    )
    unshare = shutil.which("unshare")
    assert unshare is not None, "the browser tests need util-linux's unshare"
    isolate = [unshare, "--net"] if os.geteuid() == 0 else [unshare, "-rn"]
    # The browser tests' peers listen on fixed ports (478xx-479xx): the namespace hands out
    # ephemeral ports above them, so a connection's own port can never take one first.
    inner = (
        "ip link set lo up 2>/dev/null || true; "
        f"echo '{EPHEMERAL_PORTS}' > /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || true; "
        f"exec {sys.executable} -m pytest -q -p no:cacheprovider tests/ui/browser"
    )
    env = dict(os.environ, P2P_DOMINOES_BROWSER_NAMESPACE="1")
    out = subprocess.run(
        [*isolate, "sh", "-c", inner],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    print(out.stdout[-4000:])
    assert out.returncode == 0, out.stdout[-8000:] + out.stderr[-4000:]
    assert " passed" in out.stdout
