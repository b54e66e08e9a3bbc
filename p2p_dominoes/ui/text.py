"""The text UI of a networked peer: narration of events, and a menu prompt on the player's turn."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import trio

from p2p_dominoes.engine import Action, SeatView
from p2p_dominoes.session.events import (
    CheatingDetected,
    Event,
    HandEnded,
    HandStarted,
    MatchEnded,
    OpenerChosen,
)
from p2p_dominoes.session.table import TableSession
from p2p_dominoes.ui.narration import narrate
from p2p_dominoes.ui.terminal import action_menu, parse_choice, render_menu, render_table

_PROGRESS = (HandStarted, OpenerChosen, HandEnded, MatchEnded, CheatingDetected)


class PlayerGone(Exception):
    """The player's input ended while it was their turn."""


class TextUI:
    """Lines on standard output; with `progress_only` just hands, results and alerts."""

    def __init__(
        self,
        lang: str = "en",
        *,
        progress_only: bool = False,
        lines: trio.MemoryReceiveChannel[str] | None = None,
        out: Callable[[str], None] | None = None,
    ) -> None:
        self.lang = lang
        self.progress_only = progress_only
        self._lines = lines
        self._out = out or (lambda line: print(line, flush=True))

    def say(self, line: str) -> None:
        self._out(line)

    def seated(self, session: TableSession, names: Sequence[str]) -> None:
        """Text needs nothing more than the events."""

    def events(self, events: Sequence[Event], names: Sequence[str], seat: int) -> None:
        for event in events:
            if self.progress_only and not isinstance(event, _PROGRESS):
                continue
            for line in narrate(event, names, self.lang, me=seat):
                self._out(line)

    def waiting(self, name: str, seconds: float) -> None:
        if not self.progress_only:
            self._out(f"  waiting for {name} ({seconds:.0f} s)")

    async def choose(
        self, view: SeatView, names: Sequence[str], scores: Sequence[int], target: int
    ) -> Action:
        """Show the table and the menu; read lines until one names a legal action."""
        if self._lines is None:
            raise PlayerGone("this peer has no player input")
        self._out("")
        self._out(render_table(view, names, scores, target, self.lang))
        menu = action_menu(view, self.lang)
        while True:
            self._out(render_menu(menu, self.lang))
            try:
                text = await self._lines.receive()
            except (trio.EndOfChannel, trio.ClosedResourceError):
                raise PlayerGone("standard input closed while it was your turn") from None
            action = parse_choice(text, menu)
            if action is not None:
                return action
            self._out("?")
