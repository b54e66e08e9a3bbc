"""Bad input and a hostile machine get one line and a documented exit status, never a traceback.

Every command runs as a real process. The cases that need "no LAN address" or the default port
(47800) run in a fresh ``unshare -n`` namespace with only loopback, so no multicast leaves it
and no other peer on this machine holds the port.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import pytest

from p2p_dominoes.cli import Interrupted
from p2p_dominoes.commands import demo as demo_command
from p2p_dominoes.commands import peer_run
from p2p_dominoes.commands.command_language import speaking_in
from p2p_dominoes.engine import Rules
from p2p_dominoes.session import default_registry
from p2p_dominoes.store import TableLog, load_transcript, save_rule_set
from tests.commands.records import write_table_folder
from tests.net.netns import REPO_ROOT, unshare_argv

CLI = [sys.executable, "-m", "p2p_dominoes"]


def _env(data: Path) -> dict[str, str]:
    return {**os.environ, "P2P_DOMINOES_DATA_DIR": str(data), "PYTHONUNBUFFERED": "1"}


def run(
    *args: str, data: Path, isolated: bool = False, timeout: float = 90
) -> subprocess.CompletedProcess[str]:
    argv = [*CLI, *args]
    return subprocess.run(
        unshare_argv(argv) if isolated else argv,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=_env(data),
        cwd=REPO_ROOT,
        stdin=subprocess.DEVNULL,
    )


def one_line(out: subprocess.CompletedProcess[str], status: int = 2) -> str:
    """The single error line of a failed command (and checks: that status, no traceback)."""
    assert "Traceback" not in out.stderr, out.stderr
    assert "unexpected error" not in out.stderr, out.stderr
    lines = [line for line in out.stderr.splitlines() if line.strip()]
    assert out.returncode == status, (out.returncode, out.stdout, out.stderr)
    assert len(lines) == 1, out.stderr
    return lines[0]


@contextmanager
def busy_port(host: str = "127.0.0.1") -> Iterator[int]:
    with socket.socket() as blocker:
        blocker.bind((host, 0))
        blocker.listen()
        yield blocker.getsockname()[1]


# -- the six tracebacks -----------------------------------------------------------------------


@pytest.mark.netns
def test_join_by_name_without_a_lan_address(tmp_path: Path) -> None:
    line = one_line(run("join", "Ann's table", data=tmp_path, isolated=True))
    assert line.startswith("p2p-dominoes join: cannot look for tables on the local network")
    assert "p2p-dominoes join --connect HOST:PORT" in line


@pytest.mark.netns
def test_bare_join_without_a_lan_address(tmp_path: Path) -> None:
    line = one_line(run("join", data=tmp_path, isolated=True))
    assert "no LAN IPv4 address" in line and "--connect HOST:PORT" in line


def test_host_on_an_address_this_machine_lacks(tmp_path: Path) -> None:
    line = one_line(run("host", "--interface", "192.0.2.77", data=tmp_path))
    assert "192.0.2.77 is not an address of this machine" in line


@pytest.mark.parametrize("command", ["host", "join", "tables", "resume", "play"])
def test_interface_that_is_no_address(tmp_path: Path, command: str) -> None:
    line = one_line(run(command, "--interface", "notanip", data=tmp_path))
    assert f"p2p-dominoes {command}: argument --interface: 'notanip' is not an IP address" in line
    assert not (tmp_path / "identity.key").exists()  # nothing was done


def test_play_on_a_busy_page_port(tmp_path: Path) -> None:
    with busy_port() as taken:
        line = one_line(run("play", "--port", str(taken), "--no-browser", data=tmp_path))
    assert line == (
        f"p2p-dominoes play: port {taken} is already in use (another p2p-dominoes?): "
        "choose another --port, or --port 0 for any free port"
    )


def test_play_when_the_page_port_is_taken_after_the_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The race the check cannot close: hypercorn's own bind error is one line too.
    from p2p_dominoes import cli
    from p2p_dominoes.commands import play

    monkeypatch.setenv("P2P_DOMINOES_DATA_DIR", str(tmp_path))
    with busy_port() as taken:
        monkeypatch.setattr(play, "listening_port", lambda chosen, *a: chosen or 0)
        status = cli.main(["play", "--port", str(taken), "--no-browser", "--no-mdns"])
    err = capsys.readouterr().err
    assert status == 2 and "Traceback" not in err, err
    assert err.strip() == (
        "p2p-dominoes play: that port is already in use: choose another --port "
        "(0 picks any free port)"
    )


# -- ports ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "option"), [("host", "--port"), ("join", "--port"), ("play", "--lan-port")]
)
def test_an_explicit_busy_port_is_an_error(tmp_path: Path, command: str, option: str) -> None:
    with busy_port() as taken:
        args = [command, option, str(taken), "--interface", "127.0.0.1", "--no-mdns"]
        if command == "join":
            args += ["--connect", "127.0.0.1:9"]
        line = one_line(run(*args, data=tmp_path))
    assert f"port {taken} is already in use" in line and f"choose another {option}" in line


def test_an_explicit_busy_port_is_an_error_in_russian(tmp_path: Path) -> None:
    with busy_port() as taken:
        args = ["host", "--port", str(taken), "--interface", "127.0.0.1", "--no-mdns"]
        line = one_line(run(*args, "--lang", "ru", data=tmp_path))
    assert line == (
        f"p2p-dominoes host: порт {taken} уже занят (другой p2p-dominoes?): выберите другой "
        "--port или --port 0 — любой свободный"
    )


BUSY_DEFAULT = """
import socket, subprocess, sys
blocker = socket.socket()
blocker.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
blocker.bind(("127.0.0.1", 47800))
blocker.listen()
peer = subprocess.Popen(sys.argv[1:], stdout=subprocess.PIPE, text=True, stdin=subprocess.PIPE)
for line in peer.stdout:
    print(line, end="", flush=True)
    if "is open on port" in line:
        peer.send_signal(2)
sys.exit(peer.wait())
"""


@pytest.mark.netns
def test_the_default_port_falls_back_and_says_so(tmp_path: Path) -> None:
    host = [*CLI, "host", "--interface", "127.0.0.1", "--no-mdns", "--ui", "none"]
    out = subprocess.run(
        unshare_argv([sys.executable, "-c", BUSY_DEFAULT, *host]),
        capture_output=True,
        text=True,
        timeout=60,
        env=_env(tmp_path),
        cwd=REPO_ROOT,
    )
    assert "Port 47800 is in use (another p2p-dominoes on this machine?)" in out.stdout
    opened = next(line for line in out.stdout.splitlines() if "is open on port" in line)
    assert "port 47800" not in opened, opened
    # ... and Ctrl+C before anyone sat down: one line, exit 130.
    line = one_line(out, 130)
    assert line == "p2p-dominoes host: interrupted before the game began: nothing to resume"


@pytest.mark.netns
def test_the_default_port_falls_back_and_says_so_in_russian(tmp_path: Path) -> None:
    host = [*CLI, "host", "--interface", "127.0.0.1", "--no-mdns", "--ui", "none", "--lang", "ru"]
    script = BUSY_DEFAULT.replace("is open on port", "открыт на порту")
    out = subprocess.run(
        unshare_argv([sys.executable, "-c", script, *host]),
        capture_output=True,
        text=True,
        timeout=60,
        env=_env(tmp_path),
        cwd=REPO_ROOT,
    )
    assert (
        "Порт 47800 занят (другой p2p-dominoes на этом компьютере?): слушаем свободный порт. "
        "Тем, кто садится по адресу, нужен новый порт; брандмауэр, открывающий только 47800, "
        "его закроет (порт можно выбрать: --port)."
    ) in out.stdout.splitlines(), out.stdout
    assert out.returncode == 130, out.stderr


NO_TABLES = {
    "en": "No tables found. Are you on the same Wi-Fi? Guest networks and AP isolation hide "
    "peers; a firewall or VPN can too. Try: p2p-dominoes join --connect HOST:PORT",
    "ru": "Столов не найдено. Вы в той же сети Wi-Fi? Гостевые сети и изоляция точек доступа "
    "скрывают игроков друг от друга; брандмауэр или VPN тоже могут. Попробуйте: p2p-dominoes "
    "join --connect АДРЕС:ПОРТ",
}


@pytest.mark.netns
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_tables_that_finds_none_says_how_to_join_anyway(tmp_path: Path, lang: str) -> None:
    args = ["tables", "--interface", "127.0.0.1", "--timeout", "0.5", "--lang", lang]
    out = run(*args, data=tmp_path, isolated=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == [NO_TABLES[lang]]


TABLE_ROW = {
    "en": "“kitchen”  host “Ann” (ABCD-EFGH)  seats 1/4  draw  lobby  id 0123abcd  "
    "192.0.2.7, fe80::1:47800",
    "ru": "“kitchen”  хозяин “Ann” (ABCD-EFGH)  занято мест 1/4  draw  lobby  id 0123abcd  "
    "192.0.2.7, fe80::1:47800",
}


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_table_found_is_one_line_in_the_language_asked_for(lang: str) -> None:
    from p2p_dominoes.commands.lan import _table_line

    row: dict[str, object] = {
        "table": "kitchen",
        "host": "Ann",
        "fingerprint": "ABCD-EFGH",
        "seats": "1/4",
        "rules": "draw",
        "phase": "lobby",
        "addresses": ["192.0.2.7", "fe80::1"],
        "port": 47800,
        "table_id": "0123abcd" * 4,
    }
    assert _table_line(row, lang) == TABLE_ROW[lang]


# -- dialling ---------------------------------------------------------------------------------


def test_dialling_nobody_shows_progress_and_gives_up_in_one_sentence(tmp_path: Path) -> None:
    with busy_port() as free:
        pass  # a port nothing listens on now
    out = run(
        "join",
        "--connect",
        f"127.0.0.1:{free}",
        "--interface",
        "127.0.0.1",
        "--port",
        "0",
        "--no-mdns",
        "--dial-timeout",
        "8",
        data=tmp_path,
    )
    line = one_line(out)
    assert f"Dialling 127.0.0.1:{free} …" in out.stdout
    assert f"Still trying 127.0.0.1:{free} (connection refused)" in out.stdout
    assert line.startswith(f"p2p-dominoes join: gave up on 127.0.0.1:{free} after ")
    assert line.endswith(
        "(connection refused): check the address and port the host's screen shows, and that "
        "you are on the same network"
    )
    assert line.count(str(free)) == 1  # said once, not three times


# -- peers on one machine, a full table, Ctrl+C -------------------------------------------------


class Peer:
    """A peer process whose output lines are read as they come."""

    def __init__(self, args: Sequence[str], data: Path) -> None:
        self.process = subprocess.Popen(
            [*CLI, *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            stdin=subprocess.PIPE,
            text=True,
            env=_env(data),
            cwd=REPO_ROOT,
        )
        self.seen: list[str] = []

    def wait_for(self, words: str, timeout: float = 60) -> str:
        deadline = time.monotonic() + timeout
        assert self.process.stdout is not None
        while time.monotonic() < deadline:
            line = self.process.stdout.readline()
            if not line:
                break
            self.seen.append(line)
            if words in line:
                return line
        raise AssertionError(f"{words!r} never came: {''.join(self.seen)}")

    def interrupt(self) -> subprocess.CompletedProcess[str]:
        self.process.send_signal(signal.SIGINT)
        self.process.wait(timeout=30)  # standard input stays open: Ctrl+C alone stops it
        assert self.process.stdout is not None and self.process.stderr is not None
        out, err = self.process.stdout.read(), self.process.stderr.read()
        return subprocess.CompletedProcess(self.process.args, self.process.returncode, out, err)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.communicate(timeout=30)


@contextmanager
def peer(args: Sequence[str], data: Path) -> Iterator[Peer]:
    started = Peer(args, data)
    try:
        yield started
    finally:
        started.stop()


LOCAL = ["--interface", "127.0.0.1", "--port", "0", "--no-mdns", "--ui", "none"]


def _port_of(line: str) -> int:
    return int(line.split("open on port ", 1)[1].split(".", 1)[0])


def test_a_second_peer_with_the_same_data_folder_is_told_to_use_data_dir(tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    with peer(["host", *LOCAL, "--data-dir", str(shared)], tmp_path) as host:
        port = _port_of(host.wait_for("is open on port"))
        out = run("join", "--connect", f"127.0.0.1:{port}", *LOCAL, "--data-dir", str(shared),
                  data=tmp_path)  # fmt: skip
        stopped = host.interrupt()
    # The host's log says it too.
    assert "a second peer on this machine shares this one's data folder (give it its own with " \
        "--data-dir DIR)" in stopped.stderr, stopped.stderr  # fmt: skip
    line = one_line(out)
    assert line == (
        f"p2p-dominoes join: 127.0.0.1:{port}: the peer there has your own identity: a second "
        "peer on this machine shares the first one's data folder. Give it its own: "
        "--data-dir DIR (any empty folder)"
    )


def test_joining_a_full_table_says_it_is_full_and_ctrl_c_says_how_to_come_back(
    tmp_path: Path,
) -> None:
    # The host's person never moves (nothing on its standard input): the game stays on.
    host_data = tmp_path / "host"
    args = ["host", *LOCAL, "--bots", "1", "--data-dir", str(host_data)]
    with peer(args, tmp_path) as host:
        port = _port_of(host.wait_for("is open on port"))
        host.wait_for("Seated at seat 1 of")
        out = run("join", "--connect", f"127.0.0.1:{port}", *LOCAL, "--data-dir",
                  str(tmp_path / "late"), data=tmp_path)  # fmt: skip
        line = one_line(out)
        assert line == (
            f"p2p-dominoes join: no seat at 127.0.0.1:{port}: the table is full (its game "
            "has begun)"
        )
        stopped = host.interrupt()
    assert stopped.returncode == 130 and "Traceback" not in stopped.stderr, stopped.stderr
    # (the host's log names the refused stranger above it)
    line = stopped.stderr.strip().splitlines()[-1]
    assert line == (
        "p2p-dominoes host: interrupted; your seat is kept: come back to the table with: "
        f"p2p-dominoes resume --data-dir {host_data}"
    )
    # ... and so does `resume`, interrupted in its turn.
    with peer(["resume", *LOCAL, "--data-dir", str(host_data)], tmp_path) as again:
        again.wait_for("Resuming")
        stopped = again.interrupt()
    assert stopped.returncode == 130 and "Traceback" not in stopped.stderr, stopped.stderr
    assert stopped.stderr.strip().splitlines()[-1] == (
        "p2p-dominoes resume: interrupted; your seat is kept: come back to the table with: "
        f"p2p-dominoes resume --data-dir {host_data}"
    )


def test_ctrl_c_while_joining_says_there_is_nothing_to_resume(tmp_path: Path) -> None:
    with busy_port() as free:
        pass  # nothing listens there: the joiner keeps dialling
    with peer(["join", "--connect", f"127.0.0.1:{free}", *LOCAL], tmp_path) as joiner:
        joiner.wait_for("Dialling")
        stopped = joiner.interrupt()
    line = one_line(stopped, 130)
    assert line == "p2p-dominoes join: interrupted before the game began: nothing to resume"


# -- --record FILE ----------------------------------------------------------------------------


def test_record_in_a_missing_folder_or_a_folder_is_refused_before_the_game(
    tmp_path: Path,
) -> None:
    missing = tmp_path / "no" / "such" / "game.p2pd"
    for command in (["demo"], ["simulate", "--secure"], ["host", "--no-mdns"]):
        line = one_line(run(*command, "--record", str(missing), data=tmp_path))
        assert f"argument --record: the folder {missing.parent} does not exist" in line
        line = one_line(run(*command, "--record", str(tmp_path), data=tmp_path))
        assert f"argument --record: {tmp_path} is a folder: give a file name inside it" in line
    assert not (tmp_path / "no").exists()
    assert list(tmp_path.iterdir()) == []  # no identity, no log: nothing started


def test_demo_leaves_only_the_record_beside_it_and_seats_its_bots_in_order(
    tmp_path: Path,
) -> None:
    """Also: `--rules NAME` plays a set saved on the rules page (in the data folder)."""
    save_rule_set(tmp_path, "kitchen", {"base": "draw", "rounding": 5})
    record = tmp_path / "games" / "demo.p2pd"
    record.parent.mkdir()
    out = run(
        "demo", "--players", "4", "--rules", "kitchen", "--record", str(record),
        data=tmp_path, timeout=240,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert f"verify {record}: clean" in out.stdout
    assert [p.name for p in record.parent.iterdir()] == ["demo.p2pd"]
    # The bots start at once and reach the host in any order; they sit in their numbers' order.
    genesis = load_transcript(record, default_registry()).genesis
    assert [seat.name for seat in genesis.seats] == ["bot-0", "bot-1", "bot-2", "bot-3"]
    rules = Rules.from_wire(genesis.rules)
    assert rules.name == "kitchen" and rules.rounding == 5


class _FinishedDemoHost:
    """A demo host whose table has just finished when Ctrl+C reaches the demo."""

    def __init__(self, command: list[str]) -> None:
        self.waits = 0
        self.signals: list[int] = []

    def wait(self, timeout: float | None = None) -> int:
        self.waits += 1
        if self.waits == 1:
            raise KeyboardInterrupt
        return 0

    def send_signal(self, number: int) -> None:
        self.signals.append(number)

    def kill(self) -> None:
        raise AssertionError("a host that stops by itself is not killed")


def test_ctrl_c_after_the_demo_table_finished_says_so_instead_of_resume(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = tmp_path / "demo.p2pd"
    record.write_bytes(b"the host wrote its record")
    data = tmp_path / "data"
    folder = write_table_folder(data / "tables" / "kitchen")
    monkeypatch.setattr(demo_command.subprocess, "Popen", _FinishedDemoHost)
    # The log not marked over (or a record left from an earlier game): the resume hint.
    with pytest.raises(Interrupted, match="to finish it: p2p-dominoes resume"):
        demo_command._run_demo_host(["host"], record, data, "to finish it: p2p-dominoes resume …")
    assert data.exists()
    log, _, _ = TableLog.open(folder)
    with log:
        log.finish("over")
    with pytest.raises(Interrupted) as stopped:
        demo_command._run_demo_host(["host"], record, data, "to finish it: p2p-dominoes resume …")
    assert str(stopped.value) == (
        f"interrupted after the table had finished; the record is in {record} "
        f"(check it with: p2p-dominoes verify {record})"
    )
    assert not data.exists() and record.is_file()


def test_ctrl_c_after_the_demo_table_finished_says_so_in_russian(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = tmp_path / "demo.p2pd"
    record.write_bytes(b"the host wrote its record")
    data = tmp_path / "data"
    folder = write_table_folder(data / "tables" / "kitchen")
    monkeypatch.setattr(demo_command.subprocess, "Popen", _FinishedDemoHost)
    come_back = "чтобы доиграть: p2p-dominoes resume …"
    with speaking_in("ru"), pytest.raises(Interrupted) as stopped:
        demo_command._run_demo_host(["host"], record, data, come_back)
    assert str(stopped.value) == (
        f"прервано; сыгранное до сих пор записано в {record}; {come_back}"
    )
    log, _, _ = TableLog.open(folder)
    with log:
        log.finish("over")
    with speaking_in("ru"), pytest.raises(Interrupted) as stopped:
        demo_command._run_demo_host(["host"], record, data, come_back)
    assert str(stopped.value) == (
        f"прервано, когда стол уже доиграл; запись партии в {record} "
        f"(проверьте её: p2p-dominoes verify {record})"
    )


def test_ctrl_c_in_demo_leaves_no_half_written_record(tmp_path: Path) -> None:
    record = tmp_path / "demo.p2pd"
    demo = subprocess.Popen(
        [*CLI, "demo", "--players", "4", "--match", "--record", str(record)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=_env(tmp_path / "data"),
        cwd=REPO_ROOT,
        start_new_session=True,  # its own process group, as a terminal gives it
    )
    try:
        deadline = time.monotonic() + 120
        while not record.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert record.exists(), "the demo never wrote its record"
        time.sleep(0.5)  # while it writes the record at every message
        os.killpg(demo.pid, signal.SIGINT)  # what Ctrl+C in a terminal does
        _, err = demo.communicate(timeout=60)
    finally:
        if demo.poll() is None:
            os.killpg(demo.pid, signal.SIGKILL)
            demo.communicate()
    assert demo.returncode == 130, err
    assert "Traceback" not in err, err
    assert f"p2p-dominoes demo: interrupted; the record so far is in {record}" in err
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".demo.p2pd.tmp-")] == []


def test_a_second_ctrl_c_while_stopping_keeps_the_line_that_says_how_to_come_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def pressed_again(options: object, before: set[bytes]) -> str:
        os.kill(os.getpid(), signal.SIGINT)  # the person presses Ctrl+C a second time
        return "interrupted; your seat is kept: come back to the table with: p2p-dominoes resume"

    async def interrupted() -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(peer_run, "come_back", pressed_again)
    with pytest.raises(Interrupted, match="come back to the table with: p2p-dominoes resume"):
        peer_run.run_peer(interrupted)
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # restored


COME_BACK = {
    "en": [
        "interrupted",
        "interrupted; this bot kept no table log, so there is nothing to resume",
        "interrupted before the game began: nothing to resume",
        "interrupted; your seat is kept: come back to the table with: p2p-dominoes resume"
        " --data-dir {data}",
    ],
    "ru": [
        "прервано",
        "прервано; этот бот не вёл журнала стола, так что продолжать нечего",
        "прервано до начала игры: продолжать нечего",
        "прервано; ваше место сохранено: вернуться за стол можно командой p2p-dominoes resume"
        " --data-dir {data}",
    ],
}


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_line_after_ctrl_c_says_how_to_come_back_in_the_language_asked_for(
    lang: str, tmp_path: Path
) -> None:
    from types import SimpleNamespace

    data = tmp_path / "data"
    data.mkdir()
    said = []
    with speaking_in(lang):
        for options in (None, SimpleNamespace(data_dir=None), SimpleNamespace(data_dir=data)):
            said.append(peer_run.come_back(options, set()))  # type: ignore[arg-type]
        write_table_folder(data / "tables" / "kitchen")
        said.append(peer_run.come_back(SimpleNamespace(data_dir=data), set()))  # type: ignore[arg-type]
    assert said == [text.format(data=data) for text in COME_BACK[lang]]
