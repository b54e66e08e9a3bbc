"""Fixtures: peers serving their pages (real processes), and Chromium driven by Playwright."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

# Playwright's `expect` waits 5 s by default; a table whose bots start as processes can take
# longer on a loaded machine. An assertion still fails at once when its wait runs out.
expect.set_options(timeout=20_000)

ARTIFACTS = Path(__file__).resolve().parents[3] / "test-artifacts"
DOCS_IMG = Path(__file__).resolve().parents[3] / "docs" / "img"
NO_DNS = "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"
POLICY_DIR = Path("/etc/chromium/policies/managed")


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    if POLICY_DIR.parent.parent.exists() or Path("/etc/chromium").exists():
        try:  # no DNS probe from an error page (see docs/ui-testing.md)
            POLICY_DIR.mkdir(parents=True, exist_ok=True)
            (POLICY_DIR / "p2p-dominoes-tests.json").write_text(
                '{"AlternateErrorPagesEnabled": false}'
            )
        except OSError:
            pass
    with sync_playwright() as pw:
        chromium = pw.chromium.launch(
            executable_path="/usr/bin/chromium", args=[NO_DNS, "--disable-gpu", "--disable-quic"]
        )
        yield chromium
        chromium.close()


class Peer:
    """A `p2p-dominoes play` process: its page URL and its LAN port."""

    def __init__(
        self,
        name: str,
        lan_port: int,
        data_dir: Path,
        lang: str | None = "en",
        env: dict[str, str] | None = None,
    ) -> None:
        self.name = name
        self.lan_port = lan_port
        self.data_dir = data_dir
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "p2p_dominoes",
                "play",
                "--no-browser",
                "--name",
                name,
                "--lan-port",
                str(lan_port),
                "--interface",
                "127.0.0.1",
                "--no-mdns",
                "--data-dir",
                str(data_dir),
                *(
                    ["--lang", lang] if lang else []
                ),  # None: no --lang (the page follows the browser)
            ],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            text=True,
            start_new_session=True,  # its bots too: kill() stops them all
            env=None if env is None else {**os.environ, **env},
        )
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        # The link and the file in either language (`--lang ru` says these lines in Russian).
        found = re.search(r"(http://127\.0\.0\.1:(\d+)/\?token=[A-Za-z0-9_-]+)", line)
        assert found, line
        self.url = found.group(1)  # the one-time link
        self.port = int(found.group(2))
        self.origin = f"http://127.0.0.1:{found.group(2)}"
        line = self.process.stdout.readline()
        file = re.search(r"(file://[^\s)]+)\)", line)
        assert file, line
        self.file_url = file.group(1)  # the redirect file that play opens the browser on
        # The rest of its output is read as it comes (a full pipe would block the peer) and kept:
        # the fixture prints it when the test ends, so a failure shows what each peer said.
        self.output: list[str] = []
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.output.append(line)

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(10)
        self.kill()  # whatever is left of its group (bots)

    def kill(self) -> None:
        """SIGKILL to `play` and the bots it started (a crash, a machine switched off)."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(10)


@pytest.fixture
def peers(tmp_path: Path) -> Iterator[Callable[..., Peer]]:
    started: list[Peer] = []

    def start(
        name: str, lan_port: int, lang: str | None = "en", env: dict[str, str] | None = None
    ) -> Peer:
        peer = Peer(name, lan_port, tmp_path / f"peer-{lan_port}", lang, env)
        started.append(peer)
        return peer

    yield start
    for peer in started:
        peer.stop()
    for peer in started:  # shown by pytest only if the test failed
        print(f"--- {peer.name}'s peer (port {peer.lan_port}) said:\n{''.join(peer.output)}")


@pytest.fixture
def open_page(browser: Browser) -> Iterator[Callable[..., Page]]:
    contexts = []

    def open_(
        peer: Peer,
        viewport: tuple[int, int] = (1200, 900),
        *,
        locale: str = "en-US",
        phone: bool = False,
    ) -> Page:
        context = browser.new_context(
            viewport={"width": viewport[0], "height": viewport[1]},
            locale=locale,
            is_mobile=phone,
            has_touch=phone,
            reduced_motion="reduce",
        )
        context.set_default_timeout(20_000)
        contexts.append(context)
        page = context.new_page()
        page.errors = []  # type: ignore[attr-defined]
        page.on("pageerror", lambda error: page.errors.append(str(error)))  # type: ignore[attr-defined]
        # "Leave the table?" on a reload or a close mid-hand: kept, and answered "leave" (as
        # a player who means it), so that tests that reload go on.
        dialogs: list[str] = []
        page.dialogs = dialogs  # type: ignore[attr-defined]
        page.on("dialog", lambda dialog: (dialogs.append(dialog.type), dialog.accept()))
        page.goto(peer.url)
        return page

    yield open_
    for context in contexts:
        context.close()


CODE_SHOWN = re.compile(r"^\S+ \S+ \S+ \(\d{3}-\d{3}-\d{3}\)$")
"""The host's join code beside its table: three words (in the page's language) and digits."""


def join_code(page: Page) -> tuple[str, str]:
    """The join code the host's `page` shows, once it shows it: its words and its digits."""
    shown = page.locator("#host-code-words")
    expect(shown).to_have_text(CODE_SHOWN)
    text = shown.inner_text()
    return text.split(" (")[0], text.split("(")[1].rstrip(")")


JOIN_WAIT_MS = 60_000
"""How long a host's page may take to show a join request: the joiner's peer dials and proves
the code while the host may be starting its bots as processes. CI once waited the default 20 s
in vain (stop 31, cause not found: the peers' output, shown on a failure now, will tell)."""


def approve_request(page: Page) -> None:
    """The host approves the join request its `page` shows, once it shows one."""
    page.locator("#requests li button.approve").click(timeout=JOIN_WAIT_MS)


def screenshot(page: Page, name: str, *, docs: str | None = None, full_page: bool = True) -> Path:
    """A screenshot into test-artifacts/; with `docs`, also docs/img/<docs>.png (the figures
    docs/playing.md shows, refreshed by every run)."""
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=full_page)
    if docs is not None:
        DOCS_IMG.mkdir(exist_ok=True)
        (DOCS_IMG / f"{docs}.png").write_bytes(path.read_bytes())
    return path
