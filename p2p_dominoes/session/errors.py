"""The one exception the session layer raises for a message it will not accept."""

from __future__ import annotations


class InvalidMessage(Exception):
    """A received message (or transcript record) was rejected.

    ``code`` is a stable machine token (see PROTOCOL.md §Errors), ``reason`` a human sentence.
    ``seat`` is set only when the sender is authenticated: its signature by that seat's key was
    verified, so the seat provably signed the rejected message. Otherwise it is ``None`` and the
    transport must blame whichever connection delivered the bytes. ``index`` is the position of the
    record in a transcript being loaded, when there is one.
    """

    def __init__(
        self, code: str, reason: str, *, seat: int | None = None, index: int | None = None
    ) -> None:
        super().__init__(code, reason)
        self.code = code
        self.reason = reason
        self.seat = seat
        self.index = index

    def __str__(self) -> str:
        where = []
        if self.index is not None:
            where.append(f"message #{self.index}")
        if self.seat is not None:
            where.append(f"seat {self.seat + 1}")  # people count seats from 1
        prefix = (" ".join(where) + ": ") if where else ""
        return f"{prefix}{self.reason} [{self.code}]"

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(code={self.code!r}, reason={self.reason!r}, "
            f"seat={self.seat!r}, index={self.index!r})"
        )
