"""`p2p-dominoes play`: the web UI in your browser, served by your own peer on 127.0.0.1."""

from __future__ import annotations

import argparse
import secrets
import webbrowser
from pathlib import Path
from typing import Any

import trio

from p2p_dominoes.cli import UsageError
from p2p_dominoes.engine import LANGUAGES
from p2p_dominoes.store import IdentityFileError, load_or_create_identity


def register(commands: Any) -> None:
    play = commands.add_parser(
        "play",
        help="play in your browser (the main way to play)",
        description="Start your peer and its web page on 127.0.0.1, print the address and open "
        "the browser. The page lists tables on the local network, creates and joins them.",
    )
    play.add_argument("--name", default=None, help="your name at the table")
    play.add_argument("--port", type=int, default=0, help="port of the web page (default: any)")
    play.add_argument("--lang", default="en", choices=LANGUAGES)
    play.add_argument("--data-dir", type=Path, help="where your identity key is kept")
    play.add_argument("--no-browser", action="store_true", help="only print the address")
    play.add_argument("--interface", metavar="ADDR", help="use only this local address on the LAN")
    play.add_argument("--lan-port", type=int, default=47800, help="TCP port for other peers")
    play.add_argument("--no-mdns", action="store_true", help="do not use multicast discovery")
    play.set_defaults(run=run)


async def _open_browser(url: str) -> None:
    await trio.to_thread.run_sync(webbrowser.open, url)


def run(args: argparse.Namespace) -> int:
    from p2p_dominoes.commands.lan import _data_dir
    from p2p_dominoes.ui.web import Hub, PlayController, serve_page

    if not 0 <= args.port <= 65535 or not 0 <= args.lan_port <= 65535:
        raise UsageError("ports are 0–65535")
    try:
        identity = load_or_create_identity(_data_dir(args))
    except (IdentityFileError, OSError) as exc:
        raise UsageError(str(exc)) from None
    import os

    name = (args.name or os.environ.get("USER") or "player")[:64]
    token = secrets.token_urlsafe(24)

    async def main() -> None:
        hub = Hub()
        controller = PlayController(
            identity,
            name,
            args.lang,
            hub,
            interface=args.interface,
            lan_port=args.lan_port,
            mdns=not args.no_mdns,
        )
        async with trio.open_nursery() as nursery:
            base = await nursery.start(serve_page, hub, token, args.port)
            url = f"{base}/#token={token}"
            print(f"p2p-dominoes is running for {name}: open {url}", flush=True)
            print("Keep this window open while you play; Ctrl+C ends it.", flush=True)
            if not args.no_browser:
                nursery.start_soon(_open_browser, url)
            await controller.run()

    try:
        trio.run(main)
    except BaseException as exc:  # Ctrl+C arrives inside an exception group
        if isinstance(exc, KeyboardInterrupt) or (
            isinstance(exc, BaseExceptionGroup) and exc.subgroup(KeyboardInterrupt) is not None
        ):
            return 0
        raise
    return 0
