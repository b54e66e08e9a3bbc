"""Figures for the web UI: `play` start to an interactive lobby, click to the tile appearing on
the other player's page (median, p95), page load to an interactive table, and the last tile of
a hand to its summary overlay. Run it in a loopback-only namespace, as the tests do:

    unshare --net sh -c 'ip link set lo up && python scripts/measure_web_ui.py'
"""

from __future__ import annotations

import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

ARGS = ["--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1", "--disable-gpu"]
WATCH = """() => {
  window.__changes = [];
  const board = document.getElementById('board');
  new MutationObserver(() => {
    const n = board.querySelectorAll('.tile').length;
    if (n !== window.__last) { window.__last = n; window.__changes.push(Date.now()); }
  }).observe(board, {childList: true, subtree: true});
  const summary = document.getElementById('summary');
  new MutationObserver(() => {
    if (!summary.hidden && !window.__summary) window.__summary = Date.now();
  }).observe(summary, {attributes: true});
}"""


def start(name: str, lan_port: int, data: Path) -> tuple[subprocess.Popen[str], str, float]:
    began = time.monotonic()
    process = subprocess.Popen(
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
            str(data / name),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    found = re.search(r"open (\S+)", process.stdout.readline())
    assert found
    return process, found.group(1), began


def main() -> None:
    data = Path(tempfile.mkdtemp())
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        ann, url_a, began = start("Ann", 47831, data)
        page_a = browser.new_page()
        page_a.goto(url_a)
        page_a.wait_for_selector("#connection:has-text('Connected')")
        page_a.wait_for_selector("#create-button:enabled")
        lobby = time.monotonic() - began
        bob, url_b, _ = start("Bob", 47832, data)
        page_b = browser.new_page()
        page_b.goto(url_b)
        page_a.fill("#create-hands", "1")
        page_a.select_option("#create-seats", "2")
        page_a.click("#create-button")
        page_a.wait_for_selector("#lobby-lines p")
        page_b.fill("#join-address", "127.0.0.1:47831")
        page_b.click("#join-button")
        page_a.locator("#requests li button.approve").click(timeout=30_000)  # Ann seats Bob
        for page in (page_a, page_b):
            page.wait_for_selector("#table:not([hidden])", timeout=30_000)
        loaded = time.monotonic()
        page_b.on("dialog", lambda dialog: dialog.accept())  # "leave the table?": yes
        page_b.reload()
        page_b.wait_for_selector("#hand .tile-button", timeout=30_000)
        table_load = time.monotonic() - loaded
        for page in (page_a, page_b):
            page.evaluate(WATCH)
        latencies = []
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and not page_a.locator("#summary").is_visible():
            for me, other in ((page_a, page_b), (page_b, page_a)):
                if me.locator(".tile-button.playable").count():
                    me.locator(".tile-button.playable").first.click()
                    seen = len(other.evaluate("window.__changes"))
                    clicked = time.time() * 1000
                    me.locator(".marker-button.target").first.click()
                    while len(other.evaluate("window.__changes")) <= seen:  # CSP: no eval
                        assert time.monotonic() < deadline, "the tile never reached the other page"
                        time.sleep(0.01)
                    latencies.append(other.evaluate(f"window.__changes[{seen}]") - clicked)
                elif not me.locator("#draw").is_disabled():
                    me.click("#draw")
                elif not me.locator("#pass").is_disabled():
                    me.click("#pass")
            time.sleep(0.05)
        page_a.wait_for_selector("#summary:not([hidden])")
        summary_at = page_a.evaluate("window.__summary")
        last_tile = page_a.evaluate("window.__changes[window.__changes.length - 1]")
        browser.close()
        for process in (ann, bob):
            process.terminate()
    print(f"play → interactive lobby: {lobby:.2f} s")
    print(f"page load → interactive table: {table_load:.2f} s")
    if latencies:
        p95 = sorted(latencies)[max(0, round(0.95 * len(latencies)) - 1)]
        print(
            f"click → tile on the other page: median {statistics.median(latencies):.0f} ms, "
            f"p95 {p95:.0f} ms, max {max(latencies):.0f} ms over {len(latencies)} plays"
        )
    if summary_at and last_tile:
        print(f"last tile → summary overlay: {summary_at - last_tile:.0f} ms")


if __name__ == "__main__":
    main()
