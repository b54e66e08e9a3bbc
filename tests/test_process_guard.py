"""The guard that fails a test leaving a process behind (`tests/process_guard.py`) sees children
and orphaned grandchildren, not zombies, and ends what it finds."""

import subprocess
import sys
from pathlib import Path

from tests import process_guard


def test_a_child_left_running_is_found_and_killed() -> None:
    before = [p.key for p in process_guard.descendants()]
    child = subprocess.Popen(["sleep", "60"])
    left = process_guard.left_behind(before, grace=0.2)
    assert [p.pid for p in left] == [child.pid]
    assert "sleep 60" in left[0].argv
    process_guard.kill(left)
    assert process_guard.left_behind(before, grace=0.0) == []
    assert not Path(f"/proc/{child.pid}").exists()  # killed and reaped: no zombie either


def test_an_orphaned_grandchild_is_found() -> None:
    """`sh` starts `sleep` and exits at once: the sleep's parent is gone (init adopts it), and
    the mark it inherited still names this run, so a wrapper that dies cannot hide what it
    started."""
    before = [p.key for p in process_guard.descendants()]
    wrapper = ["sh", "-c", "sleep 61 >/dev/null 2>&1 & echo started"]
    subprocess.run(wrapper, check=True, capture_output=True)
    left = process_guard.left_behind(before, grace=0.2)
    assert ["sleep 61" in p.argv for p in left] == [True], left
    process_guard.kill(left)
    assert process_guard.left_behind(before, grace=0.0) == []


def test_a_child_that_exited_is_not_left_behind() -> None:
    before = [p.key for p in process_guard.descendants()]
    child = subprocess.Popen(["true"])
    assert process_guard.left_behind(before, grace=5.0) == []
    assert child.wait(timeout=5) == 0


def test_processes_started_by_the_tests_take_ctrl_c_even_from_a_shell_that_ignores_it() -> None:
    """`nohup` and background jobs start the suite with SIGINT ignored, which every process it
    starts would inherit; the tests' conftest gives them Ctrl-C back."""
    probe = (
        "import signal, subprocess, sys; import tests.conftest; "
        "print(subprocess.run([sys.executable, '-c', 'import signal; "
        "print(signal.getsignal(signal.SIGINT))'], capture_output=True, text=True).stdout)"
    )
    ignoring = f"trap '' INT; exec {sys.executable} -c \"{probe}\""
    root = Path(__file__).resolve().parent.parent
    out = subprocess.run(["sh", "-c", ignoring], capture_output=True, text=True, cwd=root)
    assert out.stdout.strip() == "<built-in function default_int_handler>", out
