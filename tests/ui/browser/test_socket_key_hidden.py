"""The page's socket key never shows in the browser's console (issue 28 L9): it goes as a
subprotocol, not in the socket's URL, which Chromium prints each time a connection fails (here:
the peer stopped, the page retrying every 3 s)."""

from __future__ import annotations

import time
from collections.abc import Callable

from playwright.sync_api import Page, expect

from p2p_dominoes.ui.web import app as web_app
from tests.ui.browser.conftest import Peer


def test_the_key_is_taken_from_the_subprotocols_only_with_the_pages_own() -> None:
    assert web_app.socket_key("p2p-dominoes, key.abc_-9") == "abc_-9"
    assert web_app.socket_key("p2p-dominoes") == ""  # (refused: no key)
    assert web_app.socket_key("other, key.abc") is None  # not this page's protocol: the URL's query
    assert web_app.socket_key("") is None


def test_a_failed_reconnection_prints_no_key(
    peers: Callable[..., Peer], open_page: Callable[..., Page]
) -> None:
    ann = peers("Ann", 47997)
    page = open_page(ann)
    lines: list[str] = []
    page.on("console", lambda message: lines.append(message.text))
    expect(page.locator("#create-button")).to_be_visible()
    key = page.evaluate("localStorage.getItem('p2p-dominoes-key')")
    assert key
    sockets: list[str] = []
    page.on("websocket", lambda socket: sockets.append(socket.url))
    ann.stop()  # the peer goes away; the page retries every 3 s and each try fails
    expect(page.locator("#connection")).to_contain_text("lost", timeout=20_000)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and not (
        len(sockets) >= 2 and any("WebSocket" in line for line in lines)
    ):
        page.wait_for_timeout(200)  # (polling what the page logs, no fixed wait)
    failed = [line for line in lines if "WebSocket" in line]
    assert failed, lines  # Chromium did print the failed connections
    for url in sockets:
        assert "key=" not in url and key not in url, url
    assert [line for line in lines if key in line or "key=" in line] == []
    assert not page.errors  # type: ignore[attr-defined]
