"""The text UI of a networked peer: narration of events, and a menu prompt on the player's turn."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import trio

from p2p_dominoes.engine import Action, SeatView
from p2p_dominoes.net.admission import LobbyControl, LobbyState
from p2p_dominoes.peer_text import peer_text
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
from p2p_dominoes.ui.terminal import (
    action_menu,
    lobby_words,
    parse_choice,
    parse_lobby_answer,
    render_menu,
    render_request,
    render_seats,
    render_table,
)

_PROGRESS = (HandStarted, OpenerChosen, HandEnded, MatchEnded, CheatingDetected)


class PlayerGone(Exception):
    """The player's input ended while it was their turn."""


class TextUI:
    """Lines on standard output; with `progress_only` just hands, results and alerts.

    It is also the host's desk in the terminal (`net.admission.HostDesk`): it prints each
    request for a seat once, and reads the person's `y N` / `n N` / `remove N` in the lobby.
    Every line it prints is cleaned (`peer_text`, line by line), whatever its source.
    """

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
        self._raw_out = out or (lambda line: print(line, flush=True))
        self._asked: set[int] = set()
        self._seats_shown = ""
        self._pending: tuple[int, ...] = ()

    def _out(self, text: str) -> None:
        self._raw_out("\n".join(peer_text(line, 4000) for line in text.split("\n")))

    def say(self, line: str) -> None:
        self._out(line)

    def lobby(self, state: LobbyState) -> None:
        """Print the seats when they change, and each new request for a seat once."""
        seats = render_seats(state, self.lang)
        if seats != self._seats_shown:
            if not self._seats_shown:
                self._out(lobby_words(self.lang)["remove_hint"])
                if state.pairs:
                    self._out(lobby_words(self.lang)["swap_hint"])
            self._seats_shown = seats
            self._out(seats)
        for request in state.pending:
            if request.number not in self._asked:
                self._asked.add(request.number)
                self._out(render_request(request, self.lang))
        self._pending = tuple(r.number for r in state.pending)

    async def attend(self, control: LobbyControl) -> None:
        """Read the host's answers from the typed lines until cancelled (the game begins)."""
        if self._lines is None:
            await trio.sleep_forever()
            return
        words = lobby_words(self.lang)
        while True:
            try:
                text = await self._lines.receive()
            except (trio.EndOfChannel, trio.ClosedResourceError):
                await trio.sleep_forever()  # no more input: requests wait until they expire
                return
            answer = parse_lobby_answer(text, self._pending)
            if answer is None:
                if text.strip():
                    self._out(words["help"])
                continue
            if answer.verb == "remove":  # seats are numbered from 1 on the screen
                done = answer.number >= 1 and control.remove(answer.number - 1)
            elif answer.verb == "swap":
                done = control.swap(answer.number - 1, answer.other - 1)
            else:
                act = control.approve if answer.verb == "approve" else control.refuse
                done = act(answer.number)
            if not done:
                self._out(words["nothing"])

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
