"""The text UI of a networked peer: narration of events, and a menu prompt on the player's turn."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import Final

import trio

from p2p_dominoes import words
from p2p_dominoes.engine import Action, SeatView
from p2p_dominoes.net.admission import LobbyControl, LobbyState
from p2p_dominoes.net.peer_options import PlayerLeaves
from p2p_dominoes.peer_text import peer_text
from p2p_dominoes.session import TableSession
from p2p_dominoes.session.events import (
    CheatingDetected,
    Event,
    HandAbandoned,
    HandEnded,
    HandStarted,
    MatchEnded,
    OpenerChosen,
    SeatReplaced,
)
from p2p_dominoes.ui.narration import narrate
from p2p_dominoes.ui.terminal import (
    BOARD_KEY,
    action_menu,
    board_sentence,
    choice_problem,
    go_on_answer,
    parse_choice,
    parse_lobby_answer,
    render_menu,
    render_request,
    render_seats,
    render_table,
    waiting_text,
)
from p2p_dominoes.words import line

_PROGRESS = (
    HandStarted,
    OpenerChosen,
    HandEnded,
    MatchEnded,
    CheatingDetected,
    HandAbandoned,  # v4: a hand made void by a goodbye
    SeatReplaced,  # v4: the seat's new holder
)
WAITING_REPEAT_S: Final = 30.0
"""Not at a terminal (a log, a pipe), the waiting line for the same player at most this often."""
CLEAR_LINE: Final = "\r\x1b[K"
"""Back to the line's start and clear it: the waiting line is rewritten in place at a terminal."""


LEAVE_WORDS: Final = frozenset(line("terminal.leave_word", lang) for lang in ("en", "ru"))
"""What a player types at their turn to leave the table for good (v4: a signed goodbye), in
either language."""


class PlayerGone(Exception):
    """The player's input ended while it was their turn."""


class TextUI:
    """Lines on standard output; with `progress_only` just hands, results and alerts.

    It is also the host's desk in the terminal (`net.admission.HostDesk`): it prints each
    request for a seat once, and reads the person's `y N` / `n N` / `remove N` in the lobby.
    Every line it prints is cleaned (`peer_text`, line by line), whatever its source.

    "waiting for Bob (35 s)" is one line rewritten in place when standard output is a terminal
    (`tty`, or `status`: where that line goes); elsewhere it is printed when the player waited
    for changes, or every 30 s, so a log does not fill with it.
    """

    def __init__(
        self,
        lang: str = "en",
        *,
        progress_only: bool = False,
        lines: trio.MemoryReceiveChannel[str] | None = None,
        out: Callable[[str], None] | None = None,
        status: Callable[[str], None] | None = None,
    ) -> None:
        self.lang = lang
        self.progress_only = progress_only
        self._lines = lines
        self._raw_out = out or (lambda line: print(line, flush=True))
        if status is None and out is None and sys.stdout.isatty():
            status = _write_stdout
        self._status = status
        """Where the in-place waiting line goes (a terminal), or None: print it sparingly."""
        self._status_shown = False
        self._waited: tuple[str, float] | None = None
        """Not at a terminal: whom the last waiting line named, and after how many seconds."""
        self._asked: set[int] = set()
        self._seats_shown = ""
        self._pending: tuple[int, ...] = ()

    def _out(self, text: str) -> None:
        if self._status_shown and self._status is not None:
            self._status(CLEAR_LINE)  # the waiting line gives way to what happened
            self._status_shown = False
        self._raw_out("\n".join(peer_text(line, 4000) for line in text.split("\n")))

    def say(self, line: str) -> None:
        self._out(line)

    def lobby(self, state: LobbyState) -> None:
        """Print the seats when they change, and each new request for a seat once."""
        seats = render_seats(state, self.lang)
        if seats != self._seats_shown:
            if not self._seats_shown:
                self._out(words.line("lobby.remove_hint", self.lang))
                if state.pairs:
                    self._out(words.line("lobby.swap_hint", self.lang))
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
        while True:
            try:
                text = await self._lines.receive()
            except (trio.EndOfChannel, trio.ClosedResourceError):
                await trio.sleep_forever()  # no more input: requests wait until they expire
                return
            answer = parse_lobby_answer(text, self._pending)
            if answer is None:
                if text.strip():
                    self._out(words.line("lobby.help", self.lang))
                continue
            if answer.verb == "remove":  # seats are numbered from 1 on the screen
                done = answer.number >= 1 and control.remove(answer.number - 1)
            elif answer.verb == "swap":
                done = control.swap(answer.number - 1, answer.other - 1)
            else:
                act = control.approve if answer.verb == "approve" else control.refuse
                done = act(answer.number)
            if not done:
                self._out(words.line("lobby.nothing", self.lang))

    def seated(self, session: TableSession, names: Sequence[str]) -> None:
        """Text needs nothing more than the events."""

    def events(self, events: Sequence[Event], names: Sequence[str], seat: int) -> None:
        for event in events:
            if self.progress_only and not isinstance(event, _PROGRESS):
                continue
            for said in narrate(event, names, self.lang, me=seat):
                self._out(said)

    def waiting(self, name: str, seconds: float) -> None:
        """Whom the table waits for: one line updated in place at a terminal; elsewhere a line
        when that player changes (or a new wait begins), then at most every 30 s."""
        if self.progress_only:
            return
        line = "  " + waiting_text(peer_text(name, 200), seconds, self.lang)
        if self._status is not None:
            self._status(CLEAR_LINE + line)
            self._status_shown = True
            return
        last = self._waited
        if last is not None and last[0] == name and last[1] <= seconds < last[1] + WAITING_REPEAT_S:
            return  # the same wait, told less than 30 s ago
        self._waited = (name, seconds)
        self._out(line)

    async def choose(
        self, view: SeatView, names: Sequence[str], scores: Sequence[int], target: int
    ) -> Action:
        """Show the table and the menu; read lines until one names a legal action."""
        if self._lines is None:
            raise PlayerGone("this peer has no player input")
        self._waited = None
        self._out("")
        self._out(render_table(view, names, scores, target, self.lang))
        menu = action_menu(view, self.lang)
        while True:
            self._out(render_menu(menu, self.lang))
            try:
                text = await self._lines.receive()
            except (trio.EndOfChannel, trio.ClosedResourceError):
                raise PlayerGone("standard input closed while it was your turn") from None
            if text.strip().lower() in LEAVE_WORDS:  # v4: leave the table for good
                raise PlayerLeaves()
            if text.strip().lower() == BOARD_KEY:
                self._out(board_sentence(view, self.lang))
                continue
            action = parse_choice(text, menu)
            if action is not None:
                return action
            self._out(choice_problem(text, menu, view.hand, self.lang))

    async def ask_go_on(self, name: str, bot: str, seconds: float) -> bool:
        """v4: ask whether the table goes on with `bot` in the seat `name` left; a line of
        y or n (or their Russian words). No input to read (a closed standard input) is a no."""
        self._waited = None
        self._out(line("terminal.go_on", self.lang, name=name, bot=bot, seconds=f"{seconds:g}"))
        if self._lines is None:
            return False
        while True:
            try:
                text = await self._lines.receive()
            except (trio.EndOfChannel, trio.ClosedResourceError):
                return False
            answer = go_on_answer(text)
            if answer is not None:
                return answer
            self._out(line("terminal.go_on_help", self.lang))


def _write_stdout(text: str) -> None:
    """Write without a newline (the in-place waiting line) and flush."""
    sys.stdout.write(text)
    sys.stdout.flush()
