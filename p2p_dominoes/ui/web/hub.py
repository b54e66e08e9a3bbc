"""Fan-out of JSON messages to the page that holds the session, and the player's commands back in.

`publish` is synchronous so that any trio task can call it; each page has a bounded channel,
and a page that cannot keep up is closed rather than allowed to slow the game.

One tab at a time holds the session (it sees the hidden tiles and sends the moves). A page that
takes the session over tells the previous holder "open elsewhere" and closes it; a reload of
the same tab (the same tab id) takes the session back silently.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import Any

import trio

QUEUE_PER_PAGE = 64


@dataclass
class _Page:
    tab: str
    send: trio.MemorySendChannel[dict[str, Any]]


def elsewhere(*, takeover: bool) -> dict[str, Any]:
    """The message that tells a page the session is open in another tab (or ended)."""
    return {"type": "elsewhere", "takeover": takeover}


class Hub:
    """The page holding the session, the last snapshot (sent first to a new page), and commands."""

    def __init__(self) -> None:
        self._pages: dict[trio.MemoryReceiveChannel[dict[str, Any]], _Page] = {}
        self._closing: set[trio.MemoryReceiveChannel[dict[str, Any]]] = set()
        """Pages told to close whose sockets have not finished yet."""
        self.last: dict[str, Any] | None = None
        self.commands_send, self.commands = trio.open_memory_channel[dict[str, Any]](64)

    def holder(self) -> str | None:
        """The tab id of the page that holds the session, if one is open."""
        self._prune()
        for page in self._pages.values():
            return page.tab
        return None

    def holds(self, receive: trio.MemoryReceiveChannel[dict[str, Any]]) -> bool:
        """True while the page reading `receive` holds the session."""
        return receive in self._pages

    def subscribe(self, tab: str) -> trio.MemoryReceiveChannel[dict[str, Any]]:
        """Give the session to the page in tab `tab`; any other page is told "open elsewhere"."""
        self.release_all(takeover=True)
        send, receive = trio.open_memory_channel[dict[str, Any]](QUEUE_PER_PAGE)
        if self.last is not None:
            send.send_nowait(self.last)
        self._pages[receive] = _Page(tab, send)
        return receive

    def unsubscribe(self, receive: trio.MemoryReceiveChannel[dict[str, Any]]) -> None:
        page = self._pages.pop(receive, None)
        if page is not None:
            page.send.close()
        self._closing.discard(receive)
        receive.close()

    def release_all(self, *, takeover: bool) -> None:
        """Close every page, telling it the session is open elsewhere (`takeover`: it may take
        the session back; not after a new link, which ends the old cookie)."""
        for receive, page in list(self._pages.items()):
            with contextlib.suppress(trio.WouldBlock, trio.BrokenResourceError):
                page.send.send_nowait(elsewhere(takeover=takeover))
            page.send.close()
            del self._pages[receive]

    def close_all(self, message: dict[str, Any]) -> None:
        """Send every page `message` and close it (its socket closes with 1001): the peer is
        stopping on purpose, which the page can tell from a crash."""
        for receive, page in list(self._pages.items()):
            with contextlib.suppress(trio.WouldBlock, trio.BrokenResourceError):
                page.send.send_nowait(message)
            page.send.close()
            del self._pages[receive]
            self._closing.add(receive)

    def idle(self) -> bool:
        """No page is open and every socket told to close has finished."""
        self._prune()
        return not self._pages and not self._closing

    def tell(self, receive: trio.MemoryReceiveChannel[dict[str, Any]], message: Any) -> None:
        """Send `message` to one page only (an answer to something that page sent)."""
        page = self._pages.get(receive)
        if page is not None:
            self._deliver(receive, page, message)

    def publish(self, message: dict[str, Any], *, snapshot: bool = False) -> None:
        """Send `message` to the page; a snapshot is also kept for a page that opens later."""
        if snapshot:
            self.last = message
        for receive, page in list(self._pages.items()):
            self._deliver(receive, page, message)

    def command(self, message: dict[str, Any]) -> None:
        """A player's command from a page (validated by the controller, not here)."""
        with contextlib.suppress(trio.WouldBlock):  # a page flooding commands loses some
            self.commands_send.send_nowait(message)

    def _deliver(
        self, receive: trio.MemoryReceiveChannel[dict[str, Any]], page: _Page, message: Any
    ) -> None:
        try:
            page.send.send_nowait(message)
        except trio.WouldBlock:
            page.send.close()  # too slow: its page reconnects and gets the last snapshot
            self._pages.pop(receive, None)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            self._pages.pop(receive, None)

    def _prune(self) -> None:
        for receive, page in list(self._pages.items()):
            if page.send.statistics().open_receive_channels == 0:
                self._pages.pop(receive, None)
