"""v4 (PROTOCOL.md §16.1): a returning player's request that reaches a seat other than the one
that proposes its return is passed on to that seat.

The returner can only send its request to the seats it reaches: the addresses its log kept.
When the proposing seat (the lowest seat other than the returner's) has itself gone to a bot,
its address was never told to anyone, so any seat that hears the request passes it on over
the mesh, where the bot is linked. What is passed on is checked and bounded, so that a former
holder cannot make a peer work or send for nothing:

* **checked**: signed by the seat's previous key (the one the returner left with), for this
  table, under a key that never held a seat here; and only by a seat that holds one now;
* **once, one hop**: only a request heard from the former holder itself is passed on, never one
  another seat passed on (so two peers never pass one back and forth);
* **deduplicated and bounded**: a seat's request is passed on at most once every
  ``PASS_ON_GAP`` seconds, and the very same request again only after ``REPEAT_GAP`` (the
  returner sends it again on every new link; the proposer may have missed it then); a
  connection's requests are counted by a token bucket (``AskLimit``) before any is checked.

Pure: the time is passed in.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from p2p_dominoes.session.envelope import THIRD_VERSION
from p2p_dominoes.session.identity import PublicIdentity
from p2p_dominoes.session.leave_messages import come_back_request
from p2p_dominoes.words import phrase

if TYPE_CHECKING:
    from p2p_dominoes.session.table import TableSession

PASS_ON_GAP: Final = 2.0
"""Seconds between two requests of one seat passed on (a different one: a fresh key)."""
REPEAT_GAP: Final = 30.0
"""Seconds before the very same request of a seat is passed on again."""
ASK_BURST: Final = 3
ASK_PER_SECOND: Final = 0.5
"""A connection's requests: this many at once, then this many a second (an honest returner
sends one per link it opens)."""


def proposer_of(players: int, seat: int) -> int:
    """The seat that puts `seat`'s return on the table: the lowest other seat."""
    return next(s for s in range(players) if s != seat)


def request_fault(
    session: TableSession, seat: int, name: str, key: PublicIdentity, asked: bytes
) -> str | None:
    """Why the request to give `seat` back to `key` under `name` is not valid at this table
    now (in the session's own words), or None when it is: `asked` must be the signature of the
    seat's previous key (its former holder's) over this table's request, and `key` fresh."""
    transcript = session.transcript
    if session.version <= THIRD_VERSION or not 0 <= seat < session.players:
        return phrase("session.why.cannot_come_back", seat=seat + 1)
    old = transcript.previous_key(seat)
    request = come_back_request(transcript.table_id, seat, name, key)
    if old is None or not old.verify(asked, request):
        return phrase("session.why.not_signed_by_former", seat=seat + 1)
    if transcript.held_before(key):
        return phrase("session.why.returning_player_s_key_held")
    return None


class ComeBackRelay:
    """What one peer passed on: per seat asked back, when and which request (at most one entry
    per seat, so its size is bounded by the table's)."""

    def __init__(self) -> None:
        self._passed: dict[int, tuple[float, bytes]] = {}

    def pass_to(
        self,
        session: TableSession,
        seat: int,
        name: str,
        key: PublicIdentity,
        asked: bytes,
        now: float,
    ) -> int | None:
        """A request heard from a former holder's connection (not passed on by a seat): the
        seat to pass it on to now, or None (it is ours to propose, not valid, a repeat, or too
        soon after the last one of that seat)."""
        own = session.seat
        if own is None or not 0 <= seat < session.players:
            return None
        proposer = proposer_of(session.players, seat)
        if proposer == own:
            return None  # ours to put on the table (`TableSession.ask_back`)
        last = self._passed.get(seat)
        if last is not None:
            when, signature = last
            gap = REPEAT_GAP if signature == asked else PASS_ON_GAP
            if now - when < gap:
                return None
        if request_fault(session, seat, name, key, asked) is not None:
            return None
        self._passed[seat] = (now, asked)
        return proposer


class AskLimit:
    """A token bucket per connection for come-back requests: ``ASK_BURST`` at once, then
    ``ASK_PER_SECOND`` (checked before any signature is, so a flood costs nothing)."""

    def __init__(self, now: float) -> None:
        self._tokens = float(ASK_BURST)
        self._at = now

    def allow(self, now: float) -> bool:
        """Whether a request arriving at `now` is taken (False: dropped)."""
        elapsed = max(0.0, now - self._at)
        self._tokens = min(float(ASK_BURST), self._tokens + elapsed * ASK_PER_SECOND)
        self._at = now
        if self._tokens < 1.0:
            return False
        self._tokens -= 1.0
        return True
