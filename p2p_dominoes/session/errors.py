"""The one exception the session layer raises for a message it will not accept."""

from __future__ import annotations

from p2p_dominoes.words import Phrase, phrase


class InvalidMessage(Exception):
    """A received message (or transcript record) was rejected.

    ``code`` is a stable machine token (see PROTOCOL.md §Errors), ``reason`` a human sentence: a
    `Phrase` where this package wrote it (its English text, read again with `reason_in`), plain
    text where it came from elsewhere.
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

    @property
    def said(self) -> Phrase:
        """The whole refusal as one line (where, why, the code); `said.in_(lang)` reads it in a
        player's language, its `reason` among it too. `str(error)` is its English text."""
        why, code = self.reason, self.code
        seat = None if self.seat is None else self.seat + 1  # people count seats from 1
        if self.index is not None and seat is not None:
            return phrase(
                "session.why.refused_message_seat",
                index=self.index,
                seat=seat,
                reason=why,
                code=code,
            )
        if self.index is not None:
            return phrase("session.why.refused_message", index=self.index, reason=why, code=code)
        if seat is not None:
            return phrase("session.why.refused_seat", seat=seat, reason=why, code=code)
        return phrase("session.why.refused", reason=why, code=code)

    def __str__(self) -> str:
        return str(self.said)

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(code={self.code!r}, reason={self.reason!r}, "
            f"seat={self.seat!r}, index={self.index!r})"
        )
