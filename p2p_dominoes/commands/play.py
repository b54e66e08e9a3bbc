"""`p2p-dominoes play`: the web UI in your browser, served by your own peer on 127.0.0.1."""

from __future__ import annotations

import argparse
import os
import signal
import sys
import webbrowser
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

import trio

from p2p_dominoes.commands.arguments import (
    NAME_HELP,
    PortBusy,
    data_folder,
    fitted_name,
    interface_address,
    listening_port,
    player_name,
    port,
    port_is_free,
)
from p2p_dominoes.commands.command_language import command_language
from p2p_dominoes.commands.exits import UsageError
from p2p_dominoes.engine import LANGUAGES
from p2p_dominoes.store import IdentityFileError, load_or_create_identity
from p2p_dominoes.words import line, reason_in

if TYPE_CHECKING:
    from p2p_dominoes.ui.web import Hub, PageAccess

LAN_PORT: Final = 47800
"""The port other peers reach us on, unless taken (the one `docs/playing.md` asks to open)."""


def register(commands: Any) -> None:
    play = commands.add_parser(
        "play",
        help="play in your browser (the main way to play)",
        description="Start your peer and its web page on 127.0.0.1, print the address and open "
        "the browser. The page lists tables on the local network, creates and joins them.",
    )
    play.add_argument("--name", type=player_name, default=None, help=NAME_HELP)
    play.add_argument(
        "--port", type=port, default=None, help="port of the web page on 127.0.0.1 (default: any)"
    )
    play.add_argument(
        "--lang",
        default=None,
        choices=LANGUAGES,
        help="the page's language (default: the browser's, else English)",
    )
    play.add_argument(
        "--data-dir",
        type=data_folder,
        metavar="DIR",
        help="where your identity key is kept (a second peer on this machine needs its own)",
    )
    play.add_argument("--no-browser", action="store_true", help="only print the address")
    play.add_argument(
        "--interface",
        type=interface_address,
        metavar="ADDR",
        help="use only this local address on the LAN",
    )
    play.add_argument(
        "--lan-port",
        type=port,
        default=None,
        help=f"TCP port for other peers (default {LAN_PORT}, or a free one when it is taken; "
        "a port given here must be free)",
    )
    play.add_argument("--no-mdns", action="store_true", help="do not use multicast discovery")
    play.add_argument(
        "--next-hand-after",
        type=_pause_seconds,
        default=None,
        metavar="SECONDS",
        help="how long a hand's summary stays before the next hand starts, unless you press "
        "Next hand sooner (default 10; at most a third of the table's stall timeout)",
    )
    play.set_defaults(run=run)


def _pause_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            line("command.play.not_seconds", command_language(), typed=repr(text))
        ) from None
    if not 0 <= value <= 600:
        raise argparse.ArgumentTypeError(line("command.play.pause_range", command_language()))
    return value


async def _open_browser(url: str, lang: str = "en") -> None:
    # The browser is given the redirect file's file:// address, never the secret link: any
    # local user can read a process's command line. Abandoned on exit: some browsers' launchers
    # only return when the browser closes.
    try:
        opened = await trio.to_thread.run_sync(webbrowser.open, url, abandon_on_cancel=True)
    except Exception as exc:  # no usable browser here: the printed link still works
        print(line("play.no_browser_because", lang, error=exc), flush=True)
        return
    if not opened:
        print(line("play.no_browser", lang), flush=True)


def _link(base: str, token: str) -> str:
    return f"{base}/?token={token}"


class _Links:
    """The one-time link to the page, printed in this window and kept in the redirect file."""

    def __init__(self, access: PageAccess, base: str, directory: Path, lang: str = "en") -> None:
        self.access = access
        self.lang = lang
        self.base = base
        self.port = int(base.rsplit(":", 1)[1])
        self.directory = directory
        self.file: Path | None = None
        self.problem = ""

    def refresh(self, token: str) -> str:
        from p2p_dominoes.ui.web import write_redirect_file

        link = _link(self.base, token)
        try:
            self.file = write_redirect_file(self.directory, self.port, link)
        except OSError as exc:
            self.file, self.problem = None, str(exc)
        return link

    async def new_links_on_enter(self) -> None:
        """Each Enter in this window prints a new one-time link (say, after the browser was
        closed and its session cookie with it); the current page keeps working until it is used."""
        while True:
            try:
                typed = await trio.to_thread.run_sync(sys.stdin.readline, abandon_on_cancel=True)
            except (OSError, ValueError, AttributeError):
                return
            if not typed:
                return  # no terminal (stdin closed or /dev/null)
            link = self.refresh(self.access.new_link())
            print(line("play.new_link", self.lang, link=link), flush=True)


STOP_FLUSH: Final = 0.3
"""Longest wait for the pages to hear that `play` is stopping before it cancels everything."""


async def _stop_on_signals(
    scope: trio.CancelScope,
    caught: list[int],
    hub: Hub,
    *,
    task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED,
) -> None:
    """SIGTERM or Ctrl+C (SIGINT) cancels the peer: a KeyboardInterrupt raised wherever the
    signal lands could be swallowed by a library's handler (the web server's) and leave `play`
    running; a cancel always ends it. The page is told first ("stopping"). Started with
    `nursery.start`, it listens before the first line is printed: a window closed at once still
    ends `play` cleanly."""
    with trio.open_signal_receiver(signal.SIGTERM, signal.SIGINT) as signals:
        task_status.started()
        async for signum in signals:
            caught.append(signum)
            hub.close_all({"type": "stopping"})
            with trio.move_on_after(STOP_FLUSH):
                while not hub.idle():
                    await trio.sleep(0.01)
            scope.cancel()
            return


def run(args: argparse.Namespace) -> int:
    from p2p_dominoes.commands.peer_args import data_dir_of
    from p2p_dominoes.store import runtime_dir
    from p2p_dominoes.ui.web import (
        Hub,
        PageAccess,
        PlayController,
        remove_redirect_file,
        serve_page,
    )
    from p2p_dominoes.ui.web.page_session import load_page_session

    data = data_dir_of(args).absolute()  # the page's redirect file is opened as a file:// URI
    saved = load_page_session(data) if args.port is None else None
    if saved is not None and not port_is_free(saved.port, "127.0.0.1"):
        saved = None  # that port is taken now: a new page, a new link
    try:
        page_port = (
            saved.port if saved else listening_port(args.port, 0, "127.0.0.1", "--port", print)
        )
        lan_port = listening_port(args.lan_port, LAN_PORT, args.interface, "--lan-port", print)
    except PortBusy as exc:
        raise UsageError(reason_in(exc, command_language())) from None
    try:
        identity = load_or_create_identity(data)
    except (IdentityFileError, OSError) as exc:
        raise UsageError(reason_in(exc, command_language())) from None

    name = args.name or fitted_name(os.environ.get("USER") or "player")
    access = PageAccess()
    if saved is not None:  # the tab the last run served finds its page again (and may resume)
        access.resume(saved.session)

    caught: list[int] = []  # the signals that ended the run

    lang = args.lang or "en"  # the language of this window's lines (the page may differ)

    async def main() -> None:
        hub = Hub()
        controller = PlayController(
            identity,
            name,
            args.lang or "en",
            hub,
            interface=args.interface,
            lan_port=lan_port,
            mdns=not args.no_mdns,
            data_dir=data,
        )
        controller.lang_explicit = args.lang is not None
        controller.discovery_failed = partial(_not_browsed, args.lang or "en")
        if args.next_hand_after is not None:
            controller.hand_break = args.next_hand_after
        async with trio.open_nursery() as nursery:
            await nursery.start(_stop_on_signals, nursery.cancel_scope, caught, hub)
            base = await nursery.start(
                partial(serve_page, hub, access, page_port, lang=args.lang or "en", data_dir=data)
            )
            links = _Links(access, base, runtime_dir(data), lang)
            first = access.link_token
            assert first is not None  # nothing can spend it before the link is printed
            link = links.refresh(first)
            try:
                print(line("play.running", lang, name=name, link=link), flush=True)
                if links.file is not None:
                    print(line("play.redirect_file", lang, file=links.file.as_uri()), flush=True)
                else:
                    print(line("play.no_redirect_file", lang, problem=links.problem), flush=True)
                print(line("play.link_once", lang), flush=True)
                if not args.no_browser and links.file is not None:
                    nursery.start_soon(_open_browser, links.file.as_uri(), lang)
                nursery.start_soon(links.new_links_on_enter)
                await controller.run()
            finally:
                if links.file is not None:
                    remove_redirect_file(links.file)

    try:
        trio.run(main)
    except BaseException as exc:  # a Ctrl+C before (or after) the signal receiver was open
        if isinstance(exc, KeyboardInterrupt) or (
            isinstance(exc, BaseExceptionGroup) and exc.subgroup(KeyboardInterrupt) is not None
        ):
            caught.append(signal.SIGINT)
        else:
            raise
    if signal.SIGINT in caught:
        stopped = _stopped_line(data, args.data_dir is not None, lang)
        print(stopped, file=sys.stderr, flush=True)
    return 0  # Ctrl+C is how `play` is meant to end


def _not_browsed(lang: str, reason: str) -> None:
    """Say in this window, as `host` and `tables` do, that tables on the LAN cannot be found
    here and how to join one by address (the page says it too)."""
    from p2p_dominoes.net.said import said
    from p2p_dominoes.peer_text import peer_text

    print(said("not_browsed", lang, reason=peer_text(reason, 300)), flush=True)


def _stopped_line(data: Path, explicit: bool, lang: str = "en") -> str:
    """What `play` says when Ctrl+C ends it: whether a table is kept, and how to come back."""
    from p2p_dominoes.commands.peer_run import unfinished
    from p2p_dominoes.peer_text import peer_text

    tables = unfinished(data)
    if not tables:
        return line("play.stopped", lang)
    label = peer_text(tables[0].name, 64) or tables[0].table_id.hex()[:8]
    again = f"p2p-dominoes play --data-dir {data}" if explicit else "p2p-dominoes play"
    return line("play.stopped_kept", lang, table=label, command=again)
