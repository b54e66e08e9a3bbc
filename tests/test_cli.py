"""The command line starts and answers --version."""

import subprocess
import sys

from p2p_dominoes import __version__


def test_version_via_python_m() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "p2p_dominoes", "--version"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert __version__ in out.stdout
