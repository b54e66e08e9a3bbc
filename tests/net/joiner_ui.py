"""A joiner's UI for lobby tests that must never reach a table, and the PeerFailure a run ended
with (trio wraps it in exception groups)."""

from __future__ import annotations

from collections.abc import Sequence

from p2p_dominoes.engine import Action, SeatView
from p2p_dominoes.net import PeerFailure
from p2p_dominoes.session import TableSession
from p2p_dominoes.session.events import Event


class LinesUI:
    """Keeps every line the peer says; sitting down or being asked to play fails the test."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def say(self, line: str) -> None:
        self.lines.append(line)

    def seated(self, session: TableSession, names: Sequence[str]) -> None:
        raise AssertionError("the joiner must not sit down")

    def events(self, events: Sequence[Event], names: Sequence[str], seat: int) -> None:
        pass

    def waiting(self, name: str, seconds: float) -> None:
        pass

    async def choose(
        self, view: SeatView, names: Sequence[str], scores: Sequence[int], target: int
    ) -> Action:
        raise AssertionError("no play")


class TableLinesUI(LinesUI):
    """Keeps every line the peer says in `lang`, at a table it may sit at (it shows nothing);
    being asked to play fails the test."""

    def __init__(self, lang: str = "en") -> None:
        super().__init__()
        self.lang = lang

    def seated(self, session: TableSession, names: Sequence[str]) -> None:
        pass


def peer_failure(error: BaseException) -> PeerFailure | None:
    """The PeerFailure in `error` (itself, or inside nested exception groups), if any."""
    if isinstance(error, PeerFailure):
        return error
    if isinstance(error, BaseExceptionGroup):
        for inner in error.exceptions:
            found = peer_failure(inner)
            if found is not None:
                return found
    return None
