"""Fan-out of JSON messages to the open WebSocket pages, and the players' commands back in.

`publish` is synchronous so that any trio task can call it; each page has a bounded channel,
and a page that cannot keep up is closed rather than allowed to slow the game.
"""

from __future__ import annotations

import contextlib
from typing import Any

import trio

QUEUE_PER_PAGE = 64


class Hub:
    """The pages currently open, the last snapshot (sent first to a new page), and commands."""

    def __init__(self) -> None:
        self._pages: set[trio.MemorySendChannel[dict[str, Any]]] = set()
        self.last: dict[str, Any] | None = None
        self.commands_send, self.commands = trio.open_memory_channel[dict[str, Any]](64)

    def subscribe(self) -> trio.MemoryReceiveChannel[dict[str, Any]]:
        send, receive = trio.open_memory_channel[dict[str, Any]](QUEUE_PER_PAGE)
        if self.last is not None:
            send.send_nowait(self.last)
        self._pages.add(send)
        return receive

    def unsubscribe(self, receive: trio.MemoryReceiveChannel[dict[str, Any]]) -> None:
        for send in list(self._pages):
            if send.statistics().open_receive_channels == 0:
                self._pages.discard(send)
        receive.close()

    def publish(self, message: dict[str, Any], *, snapshot: bool = False) -> None:
        """Send `message` to every page; a snapshot is also kept for pages that open later."""
        if snapshot:
            self.last = message
        for send in list(self._pages):
            try:
                send.send_nowait(message)
            except trio.WouldBlock:
                send.close()  # too slow: its page reconnects and gets the last snapshot
                self._pages.discard(send)
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                self._pages.discard(send)

    def command(self, message: dict[str, Any]) -> None:
        """A player's command from a page (validated by the controller, not here)."""
        with contextlib.suppress(trio.WouldBlock):  # a page flooding commands loses some
            self.commands_send.send_nowait(message)
